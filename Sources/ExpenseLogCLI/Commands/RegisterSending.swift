import ExpenseLogKit
import Foundation

/// The sending part of one `register` run: queue every batch, POST them in order, and say how it ended.
struct Sending {
    let items: [Item]
    let locations: [SourceLocation]
    /// Items earlier runs left in the outbox (counted when the outbox was read to compare).
    let waiting: Int
    let batchSize: Int
    let config: AppConfig
    let client: ExpenseLogAPIClient
    let repository: LocalRepository
    let outbox: Outbox
    let context: Context
    let progress: ProgressLine

    /// What the server answered for the confirmed batches (printed as the command's output).
    private(set) var saved: [Item] = []
    /// How many input items (from the first) the server confirmed.
    private var confirmedCount = 0
    /// The input items the server confirmed, queued, or refused.
    var confirmed: ArraySlice<Item> { items[..<confirmedCount] }
    private(set) var queued: [Item] = []
    private(set) var rejected: [Item] = []
    /// Set once the saved items are cached and printed, which happens before any error is explained.
    private var finished: StoreError??

    init(items: [Item], locations: [SourceLocation], waiting: Int, batchSize: Int, config: AppConfig, client: ExpenseLogAPIClient,
         repository: LocalRepository, outbox: Outbox, context: Context, progress: ProgressLine) {
        (self.items, self.locations, self.waiting, self.batchSize) = (items, locations, waiting, batchSize)
        (self.config, self.client) = (config, client)
        (self.repository, self.outbox, self.context, self.progress) = (repository, outbox, context, progress)
    }

    /// Sends every batch, then caches and prints what the server saved; returns `.success`, or the code of the failure
    /// that stopped it after saying what was queued.
    mutating func run() async throws -> ExitCode {
        defer {
            if waiting > 0 {
                context.note("\(waiting) item\(waiting == 1 ? "" : "s") queued by earlier runs \(waiting == 1 ? "is" : "are") still "
                             + "waiting in the outbox; `expense-log sync` sends them.")
            }
        }
        let code: ExitCode
        do {
            code = try await sendAll()
        } catch {
            await finishSaved()
            throw error
        }
        guard let failure = await finishSaved() else { return code }
        context.warn("\(saved.count) item\(saved.count == 1 ? " was" : "s were") registered on the server, but the cache could not "
                     + "be updated (\(failure)); run fetch for their months to refresh it")
        return code == .success ? .ioError : code
    }

    /// Caches and prints what the server saved, once, before any error is explained (so the explanation is not
    /// scrolled away by the items); returns a cache failure.
    ///
    /// One cache write per month for the whole run: a write per batch re-read and re-wrote each month once per batch,
    /// which made a 100,000-row import quadratic. The cache is only a copy: a crash that skips this costs a re-fetch.
    @discardableResult
    private mutating func finishSaved() async -> StoreError? {
        if let done = finished { return done }
        progress.clear()
        let failure = saved.isEmpty ? nil : await context.cache(saved, in: repository)
        if !saved.isEmpty { context.printItems(saved, CommonOptions.outputFormat(context.invocation), config) }
        finished = .some(failure)
        return failure
    }

    private mutating func sendAll() async throws -> ExitCode {
        let batches = OutboxBatch.split(items, size: batchSize)
        // Queued before the first POST: whatever happens next (a lost answer, a crash, kill -9), every item the
        // server has not confirmed is in the outbox for `sync`, and none is sent twice.
        let entry: OutboxEntry, hold: HeldLock
        do {
            (entry, hold) = try outbox.enqueueHeld(batches)
        } catch let error as StoreError {
            context.io.stderr.write("Error: \(error)\nNothing was sent: the outbox must be writable, so that no item can be "
                                    + "lost or sent twice if the run is interrupted.\n")
            return .ioError
        }
        defer { hold.release() }
        let started = Date()
        for (index, batch) in batches.enumerated() {
            let outcome: DeliveryOutcome
            do {
                outcome = try await client.deliver(batch, of: entry, outbox: outbox, verifyAnswer: config.environment.value != .dummy)
            } catch let error as StoreError {
                await finishSaved()
                context.io.stderr.write("Error: \(error)\nThe server answered, but the outbox could not record it; "
                                        + "`expense-log sync` finds those items on the server and does not send them again.\n")
                queued = Array(items[confirmedCount...])
                return .ioError
            }
            switch outcome {
            case .delivered(let answer):
                // The server usually answers with just what was sent: the sent values are kept then, so that the
                // text of 100,000 items is held once, not twice.
                saved.append(contentsOf: answer.isByteForByte(batch.items) ? batch.items : answer)
                confirmedCount += batch.items.count
                let rate = Double(confirmedCount) / max(Date().timeIntervalSince(started), 0.001)
                // The first and the last batch are always drawn, so even a quick run shows that sending began and ended.
                progress.show("Sent \(index + 1)/\(batches.count) batches, \(PriceText.format(confirmedCount)) of "
                              + "\(PriceText.format(items.count)) items, \(PriceText.format(Int(rate))) items/s",
                              force: index == 0 || index == batches.count - 1)
            case let .failed(error, mayHaveBeenSaved):
                return await stop(error, mayHaveBeenSaved: mayHaveBeenSaved, refused: nil, batches: batches, at: index)
            case let .rejected(error, file):
                return await stop(error, mayHaveBeenSaved: false, refused: file, batches: batches, at: index)
            }
        }
        progress.clear()
        return .success
    }

    /// Says what was registered, what stays queued (everything not confirmed, already in the outbox) or was set aside
    /// as refused, and returns the error's code (75 when the failure may pass).
    private mutating func stop(_ error: APIError, mayHaveBeenSaved: Bool, refused file: URL?, batches: [OutboxBatch],
                               at index: Int) async -> ExitCode {
        await finishSaved()
        let sent = confirmedCount
        let location = locations[min(sent, locations.count - 1)]
        context.io.stderr.write("Error: \(error)\n")
        if sent > 0 { context.warn("\(sent) of \(items.count) items were registered before this error") }
        var rest = batches[index...].flatMap(\.items)
        if let file {
            rejected = batches[index].items
            rest.removeFirst(rejected.count)
            context.io.stderr.write("The server refused the \(rejected.count) item\(rejected.count == 1 ? "" : "s") from \(location) on; "
                                    + "they were moved to \(file.path). Fix them there and register that file (it keeps their ids).\n")
        } else if mayHaveBeenSaved {
            context.io.stderr.write("The batch from \(location) may have been saved before the answer was lost; "
                                    + "`expense-log sync` checks the server by id before sending anything again.\n")
        }
        queued = rest
        if !rest.isEmpty {
            let batchesLeft = batches.count - index - (file == nil ? 0 : 1)
            let first = locations[min(sent + rejected.count, locations.count - 1)]
            context.io.stderr.write("Queued the \(rest.count) item\(rest.count == 1 ? "" : "s") from \(first) on, in \(batchesLeft) "
                                    + "batch\(batchesLeft == 1 ? "" : "es"), in the outbox (\(outbox.directory.path)). "
                                    + "Run `expense-log sync` to send them\(error.isTransient ? "" : " once the cause is fixed"); "
                                    + "`expense-log pending` lists them (registering the same input again skips them).\n")
        }
        return error.isTransient ? .temporaryFailure : ExitCode(for: error)
    }
}
