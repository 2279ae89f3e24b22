import Foundation
import Testing

@testable import ExpenseLogClient
@testable import ExpenseLogHTTP
@testable import ExpenseLogModel
@testable import ExpenseLogStore
@testable import ExpenseLogUseCases

/// The `sync` use case in-process, over a fake server: what it sends, what it skips, when it stops, what it reports.
@Suite struct ItemSendingTests {
    /// A server that holds `items` for GETs and saves what each POST carries; POSTs are logged.
    static func server(_ items: [Item], log: RequestLog, failPosts: Bool = false) -> FakeSession {
        FakeSession { request in
            await log.record(request)
            if request.method == "POST" {
                if failPosts { throw APIError.network(url: request.url, reason: .timedOut) }
                return HTTPResponse(status: 200, body: request.body ?? Data("[]".utf8), url: request.url)
            }
            return try await monthServer(items).send(request)
        }
    }

    static func sender(_ session: FakeSession, _ outbox: Journal, _ root: URL, wait: Double = 360) throws -> ItemSending
    {
        ItemSending(
            delivery: BatchSending(client: try client(session), journal: outbox),
            repository: LocalRepository(directory: root.appendingPathComponent("cache")),
            resendWait: ResendWait(seconds: wait), verifyAnswers: true)
    }

    @Test func sendsWhatTheServerLacksAndSkipsWhatItShows() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, _) = try queuedEntry(5, size: 2, in: root)
            let items = try numberedItems(5)
            let log = RequestLog()
            var kept: [Item] = []
            let outcome = try await Self.sender(Self.server([items[1], items[3]], log: log), outbox, root)
                .send(try outbox.listing().itemEntries, force: false, keep: { kept += $0 }, event: { _ in })
            #expect(outcome.stop == nil)
            #expect(outcome.waiting == 5 && outcome.done == 5 && outcome.remaining == 0)
            #expect((outcome.sent, outcome.skipped, outcome.posts) == (3, 2, 3))
            #expect(kept.map(\.id) == ["ID-0", "ID-2", "ID-4"])
            #expect(try outbox.listing().itemEntries.isEmpty)
            let posts = await log.requests.filter { $0.method == "POST" }
            #expect(posts.count == 3, "each batch narrowed to what the server lacks")
        }
    }

    @Test func aMonthThatCannotBeReadStopsBeforeAnythingIsSent() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, _) = try queuedEntry(3, size: 2, in: root)
            let log = RequestLog()
            let session = FakeSession { request in
                await log.record(request)
                throw APIError.network(url: request.url, reason: .refused)
            }
            let outcome = try await Self.sender(session, outbox, root)
                .send(try outbox.listing().itemEntries, force: false, keep: { _ in }, event: { _ in })
            guard case .monthUnreadable(let month, _)? = outcome.stop else {
                Issue.record("expected a month that cannot be read, got \(String(describing: outcome.stop))")
                return
            }
            #expect(month.description == "2024-01")
            #expect(outcome.remaining == 3 && outcome.posts == 0)
            #expect(await log.requests.allSatisfy { $0.method == "GET" })
        }
    }

    @Test func aBatchWhoseAnswerNeverCameWaitsUnlessForced() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(2, size: 2, in: root)
            let sentAt = Date(timeIntervalSince1970: 1_800_000_000)
            try outbox.markAttempt(entry.batches[0].key, in: entry, at: sentAt)
            let log = RequestLog()
            let sender = try Self.sender(Self.server([], log: log), outbox, root, wait: 360)
            let early = try await sender.send(
                try outbox.listing().itemEntries, force: false, now: sentAt.addingTimeInterval(60),
                keep: { _ in }, event: { _ in })
            #expect(
                early.unsafe == [
                    UnsafeBatch(
                        key: entry.batches[0].key, count: 2, sentAt: sentAt, safeFrom: sentAt.addingTimeInterval(360))
                ])
            #expect(early.posts == 0 && early.remaining == 2)
            var events: [String] = []
            let forced = try await sender.send(
                try outbox.listing().itemEntries, force: true, now: sentAt.addingTimeInterval(60),
                keep: { _ in }, event: { if case .forced(let key, _) = $0 { events.append(key) } })
            #expect(events == [entry.batches[0].key])
            #expect(forced.sent == 2 && forced.remaining == 0)
        }
    }

    @Test func aBatchNotConfirmedStopsTheRunAndStaysQueued() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(3, size: 2, in: root)
            let outcome = try await Self.sender(Self.server([], log: RequestLog(), failPosts: true), outbox, root)
                .send(try outbox.listing().itemEntries, force: false, keep: { _ in }, event: { _ in })
            guard case .batchFailed(let key, _, let error)? = outcome.stop else {
                Issue.record("expected a failed batch, got \(String(describing: outcome.stop))")
                return
            }
            #expect(key == entry.batches[0].key)
            #expect(error == .network(url: try url("https://example.com/exec"), reason: .timedOut))
            #expect(outcome.remaining == 3)
            #expect(try outbox.listing().itemEntries.first?.itemCount == 3)
        }
    }
}
