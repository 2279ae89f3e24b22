import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import ExpenseLogUseCases
import Foundation
import Testing

/// An import's sending in-process: every batch queued first, then sent in order, over a scripted server and a real outbox.
@Suite struct RegisterSendingTests {
    /// `count` numbered items in a spool, each tagged with its row in `report` (line = row + 2, after a header).
    static func spooled(_ count: Int, report: inout ImportRecord) throws -> ItemSpool {
        let spool = try ItemSpool()
        for item in try numberedItems(count) {
            let offset = try spool.append(item, tag: Int32(report.count))
            report.appendSpooled(at: SourceLocation(file: "in.csv", line: report.count + 2), offset: offset)
        }
        return spool
    }

    /// Runs a registration of `count` items in batches of `size` against `answers`.
    static func register(
        _ count: Int, size: Int, _ answers: [ScriptedAnswer], in root: URL
    )
        async throws -> (RegisterSending.Outcome, SavedItems, ImportRecord, Journal, [String])
    {
        var report = ImportRecord(files: ["in.csv"])
        let items = try spooled(count, report: &report)
        let outbox = releasePaths(root).outbox
        let registration = RegisterSending(
            items: items, limit: BatchLimit(items: size),
            client: try client(scripted(answers, log: RequestLog())), journal: outbox, verifyAnswers: true)
        var saved = try SavedItems()
        var events: [String] = []
        let outcome = try await registration.run(saved: &saved, report: &report) { events.append("\($0)") }
        return (outcome, saved, report, outbox, events)
    }

    @Test func everyBatchConfirmedLeavesNothingQueuedAndKeepsWhatTheServerSaved() async throws {
        try await withTemporaryDirectory { root in
            let (outcome, saved, report, outbox, events) = try await Self.register(5, size: 2, [.echo], in: root)
            #expect(outcome.confirmed == 5 && outcome.stop == nil)
            #expect(saved.count == 5)
            #expect(report.rows.map(\.status) == Array(repeating: .added, count: 5))
            #expect(try outbox.pendingCount() == 0)
            // Queued whole first (what an interruption then leaves is known), then each batch confirmed.
            #expect(events.count == 4 && events.first == "queued(batches: 3)", "\(events)")
            #expect(events.last?.hasPrefix("sent(index: 2, batches: 3, confirmed: 5") == true, "\(events)")
        }
    }

    @Test func aRefusedBatchIsSetAsideAndTheRestStaysQueuedFromTheNextBatchsFirstRow() async throws {
        try await withTemporaryDirectory { root in
            let (outcome, _, report, outbox, _) = try await Self.register(
                6, size: 2, [.echo, .status(400, body: "bad row")], in: root)
            #expect(outcome.confirmed == 2)
            guard case let .refused(error, file, rows, batchesLeft, nextRow)? = outcome.stop else {
                Issue.record("expected a refused batch, got \(String(describing: outcome.stop))")
                return
            }
            #expect(error.isTransient == false)
            #expect(file.path.contains("rejected"))
            #expect(rows == [2, 3] && batchesLeft == 1 && nextRow == 4)
            #expect(report.rows.map(\.status) == [.added, .added, .rejected, .rejected, .queued, .queued])
            #expect(try outbox.pendingCount() == 2, "the batch after the refused one waits for sync")
        }
    }

    @Test func aLostAnswerLeavesItsBatchQueuedAsMaybeSaved() async throws {
        try await withTemporaryDirectory { root in
            let (outcome, saved, report, outbox, _) = try await Self.register(
                4, size: 2, [.echo, .fail(.timedOut)], in: root)
            guard case let .failed(_, mayHaveBeenSaved, rows, batchesLeft)? = outcome.stop else {
                Issue.record("expected a failed batch, got \(String(describing: outcome.stop))")
                return
            }
            #expect(mayHaveBeenSaved && rows == [2, 3] && batchesLeft == 1)
            #expect(outcome.confirmed == 2 && saved.count == 2)
            #expect(report.rows.map(\.status) == [.added, .added, .queued, .queued])
            #expect(try outbox.pendingCount() == 2)
        }
    }

    @Test func anOutboxThatCannotBeWrittenSendsNothingAndMarksEveryRowNotSent() async throws {
        try await withTemporaryDirectory { root in
            // The outbox's parent is a file: no entry can be made.
            let state = root.appendingPathComponent("state")
            try Data("not a folder".utf8).write(to: state)
            let (outcome, saved, report, _, events) = try await Self.register(3, size: 2, [.echo], in: root)
            guard case .outboxUnwritable? = outcome.stop else {
                Issue.record("expected an unwritable outbox, got \(String(describing: outcome.stop))")
                return
            }
            #expect(outcome.confirmed == 0 && saved.count == 0 && events.isEmpty)
            #expect(report.rows.map(\.status) == Array(repeating: .notSent, count: 3))
        }
    }
}
