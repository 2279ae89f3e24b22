import ExpenseLogKit
import Foundation

/// The sending part of one `register` run: queue every batch, POST them in order, and say how it ended.
struct BatchSender {
    /// The items to send, in order, each record tagged with its report row.
    let items: ItemSpool
    /// Items earlier runs left in the outbox (counted when the outbox was read to compare).
    let waiting: Int
    let limit: BatchLimit
    let config: AppConfig
    let client: ExpenseLogAPIClient
    let repository: LocalRepository
    let outbox: Outbox
    let context: Context
    let progress: ProgressLine

    /// What the server answered for the confirmed batches (printed as the command's output, and cached).
    private var saved: SavedItems
    /// How many input items (from the first) the server confirmed.
    private var confirmedCount = 0
    init(items: ItemSpool, waiting: Int, limit: BatchLimit, config: AppConfig, client: ExpenseLogAPIClient,
         repository: LocalRepository, outbox: Outbox, context: Context, progress: ProgressLine) throws {
        (self.items, self.waiting, self.limit) = (items, waiting, limit)
        (self.config, self.client) = (config, client)
        (self.repository, self.outbox, self.context, self.progress) = (repository, outbox, context, progress)
        saved = try SavedItems()
    }

    /// Sends every batch, marking each row's fate in `report`, then caches and prints what the server saved; returns
    /// `.success`, or the code of the failure that stopped it after saying what was queued.
    mutating func run(report: inout ImportReport) async throws -> ExitCode {
        defer {
            if waiting > 0 {
                context.note("\(waiting) item\(waiting == 1 ? "" : "s") queued by earlier runs \(waiting == 1 ? "is" : "are") still "
                             + "waiting in the outbox; `expense-log sync` sends them.")
            }
        }
        let code: ExitCode
        do {
            code = try await sendAll(report: &report)
        } catch {
            await finishSaved()
            throw error
        }
        guard let failure = await finishSaved() else { return code }
        context.warn(saved.warning(for: failure, registered: confirmedCount))
        return code == .success ? .ioError : code
    }

    /// Caches and prints what the server saved, once, before any error is explained; returns a cache failure.
    @discardableResult
    private mutating func finishSaved() async -> StoreError? {
        progress.clear()
        return await saved.finish(in: repository, context, config)
    }

    private mutating func sendAll(report: inout ImportReport) async throws -> ExitCode {
        // Queued before the first POST: whatever happens next (a lost answer, a crash, kill -9), every item the
        // server has not confirmed is in the outbox for `sync`, and none is sent twice. Each batch is encoded once,
        // here, and its body read back from the entry to be sent.
        let entry: OutboxEntry, hold: HeldLock
        do {
            var reader = try items.reader()
            (entry, hold) = try outbox.enqueueHeld { add in
                var rows: [Int] = []
                while let batch = try limit.fill(key: RandomID.make(), from: {
                    guard let (item, row) = try reader.next() else { return nil }
                    rows.append(Int(row))
                    return item
                }) {
                    try add(batch)
                    for row in rows { report.mark(row: row, .queued) }
                    rows.removeAll(keepingCapacity: true)
                }
            }
        } catch let error as StoreError {
            // No entry was made: the rows marked as queued were not.
            report.replaceStatus(.queued, with: .notSent)
            context.io.stderr.write("Error: \(error)\nNothing was sent: the outbox must be writable, so that no item can be "
                                    + "lost or sent twice if the run is interrupted.\n")
            return .ioError
        }
        defer { hold.release() }
        let batchCount = entry.batches.count
        var reader = try items.reader()
        let started = Date()
        for (index, queuedBatch) in entry.batches.enumerated() {
            let outcome: DeliveryOutcome, batch: OutboxBatch, rows: [Int]
            do {
                let (batchItems, batchRows) = try next(queuedBatch.count, from: &reader)
                (batch, rows) = (OutboxBatch(key: queuedBatch.key, items: batchItems, body: try outbox.body(of: queuedBatch, in: entry)),
                                 batchRows)
            } catch let error as StoreError {
                await finishSaved()
                context.io.stderr.write("Error: \(error)\nThe items not sent yet stay in the outbox; `expense-log sync` sends them.\n")
                return .ioError
            }
            do {
                outcome = try await OutboxDelivery(client: client, outbox: outbox).deliver(batch, of: entry,
                                                                                     verifyAnswer: config.environment.value != .dummy)
            } catch let error as StoreError {
                await finishSaved()
                context.io.stderr.write("Error: \(error)\nThe server answered, but the outbox could not record it; "
                                        + "`expense-log sync` finds those items on the server and does not send them again.\n")
                return .ioError
            }
            switch outcome {
            case .delivered(let answer):
                // The server usually answers with just what was sent: the sent values are kept then, as they were sent.
                for row in rows { report.mark(row: row, .added) }
                confirmedCount += batch.items.count
                saved.keep(answer.isByteForByte(batch.items) ? batch.items : answer)
                let rate = Double(confirmedCount) / max(Date().timeIntervalSince(started), 0.001)
                // The first and the last batch are always drawn, so even a quick run shows that sending began and ended.
                progress.show("Sent \(index + 1)/\(batchCount) batches, \(PriceText.format(confirmedCount)) of "
                              + "\(PriceText.format(items.count)) items, \(PriceText.format(Int(rate))) items/s",
                              force: index == 0 || index == batchCount - 1)
            case let .failed(error, mayHaveBeenSaved):
                return await stop(error, mayHaveBeenSaved: mayHaveBeenSaved, refused: nil, rows: rows, batchesLeft: batchCount - index,
                                  reader: &reader, report: &report)
            case let .rejected(error, file):
                for row in rows { report.mark(row: row, .rejected) }
                return await stop(error, mayHaveBeenSaved: false, refused: file, rows: rows, batchesLeft: batchCount - index - 1,
                                  reader: &reader, report: &report)
            }
        }
        progress.clear()
        return .success
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

    /// Says what was registered, what stays queued (everything not confirmed, already in the outbox and marked so) or
    /// was set aside as refused, and returns the error's code (75 when the failure may pass).
    private mutating func stop(_ error: APIError, mayHaveBeenSaved: Bool, refused file: URL?, rows: [Int], batchesLeft: Int,
                               reader: inout ItemSpool.Reader, report: inout ImportReport) async -> ExitCode {
        await finishSaved()
        let sent = confirmedCount
        let location = report.location(ofRow: rows[0])
        context.io.stderr.write("Error: \(error)\n")
        if sent > 0 { context.warn("\(sent) of \(items.count) items were registered before this error") }
        var rest = items.count - sent
        if let file {
            rest -= rows.count
            context.io.stderr.write("The server refused the \(rows.count) item\(rows.count == 1 ? "" : "s") from \(location) on; "
                                    + "they were moved to \(file.path). Fix them there and register that file (it keeps their ids).\n")
        } else if mayHaveBeenSaved {
            let wait = Int(config.resendWait.value.seconds)
            context.io.stderr.write("The batch from \(location) may have been saved before the answer was lost, or the server may "
                                    + "still be saving it: `expense-log sync` checks the server by id before sending anything again, "
                                    + (wait > 0 ? "and sends this batch again only \(wait) s after its POST, unless the server "
                                       + "shows it by then (`expense-log sync` says when).\n"
                                       : "and sends what the server does not show.\n"))
        }
        if rest > 0 {
            // After a refused batch, the rest starts with the next batch's first row.
            let next = file == nil ? nil : (try? reader.nextTag()) ?? nil
            let first = next.map { report.location(ofRow: Int($0)) } ?? location
            context.io.stderr.write("Queued the \(rest) item\(rest == 1 ? "" : "s") from \(first) on, in \(batchesLeft) "
                                    + "batch\(batchesLeft == 1 ? "" : "es"), in the outbox (\(outbox.directory.path)). "
                                    + "Run `expense-log sync` to send them\(error.isTransient ? "" : " once the cause is fixed"); "
                                    + "`expense-log pending` lists them (registering the same input again skips them).\n")
        }
        return error.isTransient ? .temporaryFailure : ExitCode(for: error)
    }
}
