import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// The sending part of an import: queue every batch in the outbox first, then POST them in order, keeping what the
/// server saved; the outcome says how far it got, for the caller to explain.
public struct RegisterSending {
    /// The items to send, in order, each record tagged with its report row.
    public let items: ItemSpool
    /// How many items a batch holds at most, and how large its body may be.
    public let limit: BatchLimit
    /// Whether the server's answers are checked against what was sent (not for the fixtures).
    public let verifyAnswers: Bool
    let client: ExpenseLogAPIClient
    let journal: Journal

    /// A run over `items` through `client`, queued in `outbox`.
    public init(
        items: ItemSpool, limit: BatchLimit, client: ExpenseLogAPIClient, journal: Journal, verifyAnswers: Bool,
        registerAction: Bool = false, keepsShare: Bool = false
    ) {
        (self.items, self.limit, self.client, self.journal, self.verifyAnswers) = (
            items, limit, client, journal, verifyAnswers
        )
        (self.registerAction, self.keepsShare) = (registerAction, keepsShare)
    }

    /// Whether the server keeps who paid (the bundled script's `payer`): else the items go as the app's six fields.

    /// Whether batches go as the bundled script's register action, whose answer names the ids already there (another
    /// import of the same rows at the same time), so that the report never claims it added them.
    public let registerAction: Bool
    let keepsShare: Bool

    /// What the run meets as it goes.
    public enum Event {
        /// Every item was queued in the outbox, in `batches` batches, before the first is sent.
        case queued(batches: Int)
        /// The batch `index` (from 0) of `batches` was confirmed; `confirmed` items so far, at `rate` items a second.
        case sent(index: Int, batches: Int, confirmed: Int, rate: Int)
    }

    /// Why a run stopped before the end. Every item not confirmed is in the outbox, except when it could not be written.
    public enum Stop {
        /// The outbox could not be written: nothing was queued, nothing sent.
        case outboxUnwritable(StoreError)
        /// A batch could not be read back from the outbox to be sent.
        case outboxUnreadable(StoreError)
        /// The server answered a batch, but the outbox could not record it.
        case answerUnrecorded(StoreError)
        /// A batch failed; it may have been saved when its answer was lost. `rows` are its report rows.
        case failed(APIError, mayHaveBeenSaved: Bool, rows: [Int], batchesLeft: Int)
        /// The server refused a batch, which was moved to `file`; `nextRow` is the report row the rest starts at.
        case refused(APIError, file: URL, rows: [Int], batchesLeft: Int, nextRow: Int?)
    }

    /// How a run ended.
    public struct Outcome {
        /// How many items (from the first) the server confirmed.
        public var confirmed = 0
        /// Why it stopped early; nil when every batch was confirmed.
        public var stop: Stop?
    }

    /// Queues every batch, then sends them in order, marking each row's fate in `report` and keeping what the server
    /// saved in `saved`. Throws only what reading the spool throws.
    public func run(saved: inout SavedItems, report: inout ImportRecord, event: (Event) -> Void) async throws -> Outcome
    {
        var outcome = Outcome()
        // Queued before the first POST: whatever happens next (a lost answer, a crash, kill -9), every item the
        // server has not confirmed is in the outbox for `sync`, and none is sent twice. Each batch is encoded once,
        // here, and its body read back from the entry to be sent.
        let entry: ItemEntry, hold: HeldLock
        do {
            var reader = try items.reader()
            (entry, hold) = try journal.appendHeld { add in
                var rows: [Int] = []
                while let batch = try nextBody(from: &reader, rows: &rows) {
                    try add(batch)
                    for row in rows { report.mark(row: row, .queued) }
                    rows.removeAll(keepingCapacity: true)
                }
            }
        } catch let error as StoreError {
            // No entry was made: the rows marked as queued were not.
            report.replaceStatus(.queued, with: .notSent)
            outcome.stop = .outboxUnwritable(error)
            return outcome
        }
        defer { hold.release() }
        event(.queued(batches: entry.batches.count))
        var reader = try items.reader()
        let started = Date()
        for (index, queuedBatch) in entry.batches.enumerated() {
            let batch: OutboxBatch, rows: [Int], start = reader.offset
            do {
                let (batchItems, batchRows) = try next(queuedBatch.count, from: &reader)
                batch = OutboxBatch(
                    key: queuedBatch.key, items: batchItems, body: try journal.body(of: queuedBatch, in: entry))
                rows = batchRows
            } catch let error as StoreError {
                outcome.stop = .outboxUnreadable(error)
                return outcome
            }
            let delivery: BatchOutcome
            do {
                var sending = BatchSending(client: client, journal: journal)
                sending.registerAction = registerAction
                sending.keepsShare = keepsShare
                delivery = try await sending.deliver(batch, of: entry, verifyAnswer: verifyAnswers)
            } catch let error as StoreError {
                outcome.stop = .answerUnrecorded(error)
                return outcome
            }
            let left = entry.batches.count - index
            switch delivery {
            case let .delivered(answer, existing):
                // The server usually answers with just what was sent: the sent values are kept then, as they were sent.
                // What the server already had is no item this run added: reported as such, neither counted nor printed.
                let already = Set(existing.map(SheetText.key))
                var there = 0
                for (row, item) in zip(rows, batch.items) {
                    if already.contains(SheetText.key(item.id)) {
                        there += 1
                        report.mark(
                            row: row, .duplicate,
                            reasons: [
                                "id \(PrintableText.of(item.id)) was already on the server when this batch arrived"
                            ])
                    } else {
                        report.mark(row: row, .added)
                    }
                }
                outcome.confirmed += batch.items.count - there
                if answer.isByteForByte(batch.items) && already.isEmpty {
                    // What was sent is what the server saved: its records are copied from the spool as they are.
                    saved.keep(recordsOf: items, from: start, to: reader.offset, batch: batch.items)
                } else {
                    saved.keep(already.isEmpty ? answer : answer.filter { !already.contains(SheetText.key($0.id)) })
                }
                let rate = Double(outcome.confirmed) / max(Date().timeIntervalSince(started), 0.001)
                event(.sent(index: index, batches: entry.batches.count, confirmed: outcome.confirmed, rate: Int(rate)))
            case let .failed(error, mayHaveBeenSaved):
                outcome.stop = .failed(error, mayHaveBeenSaved: mayHaveBeenSaved, rows: rows, batchesLeft: left)
                return outcome
            case let .rejected(error, file):
                for row in rows { report.mark(row: row, .rejected) }
                // After a refused batch, the rest starts with the next batch's first row.
                let nextRow = (try? reader.nextTag())?.map(Int.init)
                outcome.stop = .refused(error, file: file, rows: rows, batchesLeft: left - 1, nextRow: nextRow)
                return outcome
            }
        }
        return outcome
    }

    /// The next batch to queue, encoded straight from the spool's records (no `Item` is made of them), and its report
    /// rows in `rows`; nil at the end. It ends where `limit.isFull` says, which `batchCount` counts the same way.
    private func nextBody(from reader: inout ItemSpool.Reader, rows: inout [Int]) throws -> BatchBody? {
        var body = ItemJSON.ArrayBytes(reserving: min(limit.items, 1_000)), months: [YearMonth] = []
        while !limit.isFull(count: months.count, bytes: body.bytes.count) {
            let read: Void? = try reader.nextFields { fields, row in
                body.append(fields)
                months.append(fields.date.yearMonth)
                rows.append(Int(row))
            }
            if read == nil { break }
        }
        guard !months.isEmpty else { return nil }
        body.close()
        return BatchBody(
            key: RandomID.make(), body: Data(body.bytes), count: months.count, months: YearMonth.distinct(months))
    }

    /// The next `count` items and their report rows from the spool: the batch the outbox entry holds next.
    private func next(_ count: Int, from reader: inout ItemSpool.Reader) throws -> ([Item], [Int]) {
        var batch: [Item] = [], rows: [Int] = []
        batch.reserveCapacity(count)
        while batch.count < count, let (item, row) = try reader.next() {
            batch.append(item)
            rows.append(Int(row))
        }
        return (batch, rows)
    }
}
