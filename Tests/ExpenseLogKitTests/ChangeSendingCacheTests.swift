import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogHTTP
import ExpenseLogModel
import ExpenseLogStore
import ExpenseLogUseCases
import Foundation
import Testing

/// How the cache follows a run of answered changes, brought in step once after them: an answered item in its
/// server's form (in its new month when its date moved), and nothing of a change the server did not answer.
@Suite struct ChangeSendingCacheTests {
    @Test func answeredChangesReachTheCacheAndAnUnansweredOneLeavesItsItemAlone() async throws {
        try await withTemporaryDirectory { root in
            let (a, b) = (try ServerActionsTests.item("A", 5), try ServerActionsTests.item("B", 6))
            let repository = LocalRepository(directory: root.appendingPathComponent("cache"))
            // B as fetched since it was queued: another machine renamed it, a field its queued change does not send.
            var refetchedB = b
            refetchedB.name = "renamed elsewhere"
            let january = try #require(YearMonth(year: 2024, month: 1))
            try await repository.replaceMonth(january, with: [a, refetchedB], fetchedAt: Date())
            var movedA = a
            movedA.date = try #require(Day(year: 2024, month: 2, day: 3))
            movedA.price = 200
            var pricierB = b
            pricierB.price = 300
            let queue = Journal(directory: root.appendingPathComponent("journal"))
            let editA = try queue.append(.update(item: a, changed: movedA, fields: [.date, .price]))
            let editB = try queue.append(.update(item: b, changed: pricierB, fields: [.price]))
            // The server makes A's change (answering the item as saved) and cannot be reached for B's.
            let answer = Data(ItemJSON.object(movedA).utf8)
            let session = FakeSession { request in
                let body = try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any]
                guard body?["id"] as? String == "A" else { throw APIError.network(url: request.url, reason: .refused) }
                return HTTPResponse(status: 200, body: answer, url: request.url)
            }
            let outcome = await ChangeSending(
                client: ServerActionsTests.client(session), repository: repository, journal: queue
            ).send([editA, editB])
            #expect(
                outcome.delivered.count == 1 && outcome.stop?.edit.file == editB.file && outcome.cacheFailures.isEmpty)
            let cached = try await repository.cachedMonths()
            let byMonth = Dictionary(uniqueKeysWithValues: cached.map { ($0.month.description, $0.items) })
            #expect(
                byMonth["2024-02"]?.map(\.id) == ["A"] && byMonth["2024-02"]?.first?.price == 200,
                "A moved to its new month")
            #expect(
                byMonth["2024-01"] == [refetchedB],
                "A left January; B is as fetched, not its unanswered change: \(byMonth)")
        }
    }
}
