import ExpenseLogClient
import ExpenseLogHTTP
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import ExpenseLogUseCases
import Foundation
import Testing

/// The client's side of the script's extensions, one layer over a fake session: answers taken only when they account
/// for what was asked, Apps Script's pages read as on every call, deletions in batches, the key in a path never shown.
@Suite struct ServerActionsTests {
    static let base = URL(string: "https://script.google.com/macros/s/ID/exec")!

    static func item(_ id: String, _ day: Int = 5, price: Int = 178) throws -> Item {
        Item(
            id: id, date: try #require(Day(year: 2024, month: 1, day: day)), name: "コーヒー", price: price, category: 0,
            categorySub: 1)
    }

    static func client(_ session: FakeSession) -> ExpenseLogAPIClient {
        ExpenseLogAPIClient(session: session, baseURL: base, retryPolicy: RetryPolicy(maxRetries: 0), sleep: { _ in })
    }

    /// The reason of an `invalidResponse`, or nil for any other outcome.
    static func reason(_ work: () async throws -> Void) async -> String? {
        do {
            try await work()
            return nil
        } catch APIError.invalidResponse(_, _, let reason, _) {
            return reason
        } catch {
            return nil
        }
    }

    @Test func aDeleteAnswerMustNameEachIdAskedExactlyOnce() async throws {
        let asked = [
            ItemReference(id: "A", date: try #require(Day(year: 2024, month: 1, day: 5))),
            ItemReference(id: "B", date: try #require(Day(year: 2024, month: 1, day: 6))),
        ]
        let good = try await Self.client(
            .json(#"{"deleted":["A"],"missing":["B"],"notices":["家計簿_2024 … is in Drive's trash"]}"#)
        ).delete(asked)
        #expect(good.deleted == ["A"] && good.missing == ["B"] && good.notices.count == 1)
        for (answer, expected) in [
            (#"{"deleted":[],"missing":[]}"#, "says nothing of A, B"),
            (#"{"deleted":["A"]}"#, "is not {\"deleted\":[ids],\"missing\":[ids]}"),
            (#"{"deleted":["A","B","C"],"missing":[]}"#, "it names C, which were not asked"),
            (#"{"deleted":["A","A"],"missing":[]}"#, "does not account for each exactly once"),
            (#"{"deleted":"A B","missing":[]}"#, "is not {\"deleted\""),
        ] {
            let reason = await Self.reason { _ = try await Self.client(.json(answer)).delete(asked) }
            #expect(reason?.contains(expected) == true, "\(answer): \(reason ?? "accepted")")
        }
    }

    @Test func anUpdateAnswerMustBeTheItemWithTheChangeMade() async throws {
        let (item, changed) = (try Self.item("A"), try Self.item("A", price: 200))
        let made = try await Self.client(
            .json(#"{"id":"A","date":"20240105","name":"コーヒー","price":200,"category":0,"categorySub":1}"#)
        )
        .update(item, to: changed, fields: [.price])
        #expect(made.price == 200)
        let other = await Self.reason {
            _ = try await Self.client(
                .json(#"{"id":"BOGUS-1","date":"20240105","name":"bogus","price":200,"category":0,"categorySub":null}"#)
            )
            .update(item, to: changed, fields: [.price])
        }
        #expect(other?.contains("is another item (BOGUS-1)") == true, "\(other ?? "accepted")")
        let unchanged = await Self.reason {
            _ = try await Self.client(
                .json(#"{"id":"A","date":"20240105","name":"コーヒー","price":178,"category":0,"categorySub":1}"#)
            )
            .update(item, to: changed, fields: [.price])
        }
        #expect(unchanged?.contains("does not show the change made (price)") == true, "\(unchanged ?? "accepted")")
        // Made before (a lost answer), and changed again since: the item as it is now is the right answer.
        let before = try await Self.client(
            .json(
                #"{"id":"A","date":"20240105","name":"コーヒー","price":300,"category":0,"categorySub":1,"already":true}"#)
        )
        .update(item, to: changed, fields: [.price])
        #expect(before.price == 300)
    }

    @Test func appsScriptsPagesAreReadTheSameWayOnTheExtensions() async throws {
        func page(_ message: String) -> FakeSession {
            let html =
                #"<!DOCTYPE html><html><head><title>Error</title></head><body><div><img alt="Google Apps Script" src="x"></div>"#
                + #"<div style="text-align:center;font-family:monospace;margin:50px auto 0;max-width:600px">\#(message)</div></body></html>"#
            return FakeSession { request in
                HTTPResponse(
                    status: 200, headers: ["content-type": "text/html"], body: Data(html.utf8), url: request.url)
            }
        }
        let asked = [ItemReference(id: "A", date: try #require(Day(year: 2024, month: 1, day: 5)))]
        do {
            _ = try await Self.client(page("Exceeded maximum execution time")).delete(asked)
            Issue.record("a stopped execution was taken for an answer")
        } catch let error as APIError {
            guard case .scriptStopped = error else { Issue.record("\(error)"); return }
            #expect(error.isTransient && "\(error)".contains("asking again is safe"), "\(error)")
        }
        let failed = await Self.reason {
            _ = try await Self.client(page("TypeError: Cannot read properties of null (line 3, file &quot;Code&quot;)"))
                .update(try Self.item("A"), to: try Self.item("A", price: 200), fields: [.price])
        }
        #expect(
            failed?.contains(
                #"the web app's script failed: TypeError: Cannot read properties of null (line 3, file "Code")"#)
                == true,
            "\(failed ?? "accepted")")
    }

    @Test func aDeletionGoesInBatchesOfAHundredAndLeavesTheQueueWhenAllAreAnswered() async throws {
        try await withTemporaryDirectory { root in
            let log = RequestLog()
            let session = FakeSession { request in
                let body = try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any]
                let ids = (body?["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                let answer = try JSONSerialization.data(withJSONObject: ["deleted": ids, "missing": [String]()])
                return HTTPResponse(status: 200, body: answer, url: request.url)
            }.recording(into: log)
            let items = try (0..<250).map { try Self.item("D\($0)", $0 % 28 + 1) }
            let queue = Journal(directory: root.appendingPathComponent("journal"))
            let edit = try queue.append(.delete(items))
            let outcome = await ChangeSending(
                client: Self.client(session),
                repository: LocalRepository(directory: root.appendingPathComponent("cache")),
                journal: queue
            ).send([edit])
            #expect(outcome.stop == nil && outcome.delivered.count == 1)
            let sizes = await log.requests.map { request in
                ((try? JSONSerialization.jsonObject(with: request.body ?? Data())) as? [String: Any])?["items"].map {
                    ($0 as? [Any])?.count ?? 0
                } ?? 0
            }
            #expect(sizes == [100, 100, 50])
            #expect(try queue.listing().changes.isEmpty)
        }
    }

    @Test func aKeyInThePathAfterExecIsNeverShown() {
        let url = URL(string: "https://script.google.com/macros/s/ID/exec/0f3a9c?year=2024&month=1&key=abc")!
        #expect(
            URLRedaction.redacted(url) == "https://script.google.com/macros/s/ID/exec/***?year=2024&month=1&key=***")
        #expect(URLRedaction.redacted(Self.base) == Self.base.absoluteString, "a plain /exec URL is shown whole")
    }
}
