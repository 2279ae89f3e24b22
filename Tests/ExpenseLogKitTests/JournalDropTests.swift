import ExpenseLogStore
import Foundation
import Testing

/// Removing waiting items by hand: what stays is still queued, exactly once, and a batch in use is left alone.
@Suite struct JournalDropTests {
    @Test func droppingPartOfABatchQueuesTheRestAgainAndDroppingAllEmptiesTheOutbox() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, _) = try queuedEntry(5, size: 2, in: root)
            let dropped = try outbox.drop(ids: ["ID-1", "ID-4"])
            #expect(dropped.removed.map(\.id) == ["ID-1", "ID-4"] && dropped.busy == 0)
            var waiting: [String] = []
            for entry in try outbox.entries().entries {
                _ = try outbox.forEachBatch(of: entry) { waiting += $0.items.map(\.id) }
            }
            #expect(waiting.sorted() == ["ID-0", "ID-2", "ID-3"], "each remaining item waits once")
            #expect(try outbox.drop(ids: nil).removed.count == 3)
            #expect(try outbox.entries().entries.isEmpty)
        }
    }

    @Test func theRestOfABatchWhosePOSTGotNoAnswerKeepsItsTimeSoSyncStillWaitsForIt() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(2, size: 2, in: root)
            let sentAt = Date(timeIntervalSince1970: 1_700_000_000)
            try outbox.markAttempt(entry.batches[0].key, in: entry, at: sentAt)
            let dropped = try outbox.drop(ids: ["ID-0"])
            #expect(dropped.maybeOnServer == 1)
            let rest = try #require(try outbox.entries().entries.first)
            #expect(outbox.attempts(in: rest)[rest.batches[0].key] == sentAt)
        }
    }

    @Test func anEntryAnotherRunHoldsIsLeftAsItWas() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, entry) = try queuedEntry(2, size: 2, in: root)
            let (_, lock) = try #require(try outbox.hold(entry))
            defer { lock.release() }
            let dropped = try outbox.drop(ids: nil)
            #expect(dropped.removed.isEmpty && dropped.busy == 1)
            #expect(try outbox.pendingCount() == 2)
        }
    }
}
