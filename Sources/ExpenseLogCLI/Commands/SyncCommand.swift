import ExpenseLogKit
import Foundation

/// `sync`: sends the outbox, after dropping the items the server already has, so nothing is registered twice.
enum SyncCommand {
    static let force = Flag("force", help: "Send batches whose last POST may still be running on the server now (they may be registered twice).")

    static let spec = CommandSpec(
        name: "sync",
        abstract: "Send the items waiting in the outbox, skipping those the server already has.",
        discussion: """
            First the months the waiting items fall in are fetched, and every item whose id the \
            server already has is dropped (a POST whose answer was lost may have been saved). The \
            rest is sent batch by batch, each with the Idempotency-Key it was queued with, and a \
            batch leaves the outbox only once the server's answer has been read. Exit status 0 when \
            the outbox is empty afterwards, 75 when items remain. Running it twice sends nothing twice.

            A batch whose POST got no answer (a timeout, a lost connection) may still be running on the \
            server: an Apps Script execution lasts up to 6 minutes, and the script cannot see the \
            Idempotency-Key. Unless the server already shows its items, such a batch is sent again only \
            once that time has passed since its POST (serverMaxExecutionSeconds in the config file); until \
            then sync says when it becomes safe and exits 75. --force sends it at once.
            """,
        options: [CommonOptions.format.spec, force.spec],
        run: run)

    static func run(_ invocation: Invocation, _ context: Context) async throws {
        let config = try context.config()
        let outbox = context.outbox(config)
        let (entries, problems) = try outbox.entries()
        guard !entries.isEmpty || !problems.isEmpty else {
            let format = CommonOptions.outputFormat(invocation)
            if format != .table { context.printItems([], format, config) }
            context.note("The outbox of the \(config.environment.value.rawValue) environment is empty; nothing to send.")
            return
        }
        let client = try context.client(config)
        let finished: Void? = try await FileLock.withLockIfFree(outbox.syncLock) {
            try await send(outbox: outbox, client: client, repository: context.repository(config), invocation, context,
                           config: config)
        }
        if finished == nil {
            context.io.stderr.write("Error: another `expense-log sync` is sending this environment's outbox (it holds "
                                    + "\(outbox.syncLock.path)). Let it finish, then run `expense-log pending` to see what is left.\n")
            throw CommandExit(code: .temporaryFailure)
        }
    }

    /// The work done under the sync lock; another process may have sent entries meanwhile, so the outbox is read again.
    static func send(outbox: Outbox, client: ExpenseLogAPIClient, repository: LocalRepository,
                     _ invocation: Invocation, _ context: Context, config: AppConfig) async throws {
        let verifyAnswers = config.environment.value != .dummy
        let delivery = OutboxDelivery(client: client, outbox: outbox)
        outbox.tidy()
        let (entries, problems) = try outbox.entries()
        for problem in problems { context.warn(problem) }
        let format = CommonOptions.outputFormat(invocation)
        let waiting = entries.reduce(0) { $0 + $1.itemCount }
        func remaining(_ done: Int) -> String { "\(waiting - done) item\(waiting - done == 1 ? "" : "s") remain in the outbox" }

        var saved = try SavedItems()
        var known = try await knownIDs(Set(entries.flatMap(\.months)).sorted(), client: client, repository: repository, context,
                                       remaining: remaining(0))
        // The saved items are cached and printed once: before an error is explained, else at the end.
        var sent = 0, keepFailure: StoreError?
        func finish(printEmpty: Bool = false) async {
            guard keepFailure == nil, let failure = await saved.finish(in: repository, context, config, printEmpty: printEmpty) else { return }
            keepFailure = failure
            context.warn(saved.warning(for: failure, registered: sent))
        }
        var done = 0, skipped = 0, posts = 0, busy = 0
        var rejected: [(file: URL, error: APIError)] = []
        var unsafe: [(key: String, count: Int, sent: Date, safe: Date)] = []
        let wait = config.resendWait.value, force = invocation[force], now = Date()
        do {
            for listed in entries {
                // A register run still sending this entry holds its lock; it queues what it cannot send, so leave it be.
                guard let (entry, hold) = try outbox.hold(listed) else {
                    busy += listed.itemCount
                    continue
                }
                defer { hold.release() }
                done += listed.itemCount - entry.itemCount
                let tried = outbox.attempts(in: entry)
                for queued in entry.batches {
                    // One batch in memory at a time.
                    let batch = try outbox.batch(queued, of: entry)
                    let fresh = batch.items.filter { !known.contains(SheetText.key($0.id)) }
                    skipped += batch.items.count - fresh.count
                    if fresh.isEmpty {
                        try outbox.markSent(batch.key, in: entry)
                        done += batch.items.count
                        continue
                    }
                    if let sent = tried[batch.key], now < wait.safe(after: sent) {
                        guard force else {
                            unsafe.append((batch.key, fresh.count, sent, wait.safe(after: sent)))
                            continue
                        }
                        context.warn("sending the batch \(batch.key) again although its POST at \(Self.time(sent)) may still be "
                                     + "running on the server (--force); if it is, its items will be registered twice")
                    }
                    posts += 1
                    switch try await delivery.deliver(batch, of: entry, sending: fresh, verifyAnswer: verifyAnswers) {
                    case .delivered(let answer):
                        sent += fresh.count
                        saved.keep(answer)
                        known.formUnion(fresh.map { SheetText.key($0.id) })
                        known.formUnion(answer.map { SheetText.key($0.id) })
                    case let .rejected(error, file):
                        rejected.append((file, error))
                    case let .failed(error, _):
                        await finish()
                        context.io.stderr.write("Error: \(error)\nThe batch \(batch.key) of \(entry.file.path) was not "
                                                + "confirmed; \(remaining(done)). Run sync again later"
                                                + (error.isTransient ? ".\n" : " once the cause is fixed.\n"))
                        throw CommandExit(code: error.isTransient ? .temporaryFailure : ExitCode(for: error))
                    }
                    done += batch.items.count
                }
            }
        } catch {
            await finish()  // an outbox that cannot record a batch still leaves the earlier batches cached
            throw error
        }
        await finish(printEmpty: format != .table)
        await context.flushWarnings(repository)
        for (file, error) in rejected {
            context.io.stderr.write("Error: \(error)\nThe refused items were moved to \(file.path); fix them there and register that file.\n")
        }
        for batch in unsafe {
            context.warn("The batch \(batch.key) (\(batch.count) item\(batch.count == 1 ? "" : "s")) was sent at \(Self.time(batch.sent)) "
                         + "and its answer never came: the server may still be running it (up to \(Int(wait.seconds)) s), so it is "
                         + "sent again only from \(Self.time(batch.safe)), unless the server shows it by then. Run sync again "
                         + "then; --force sends it now, at the risk of registering it twice.")
        }
        let left = !unsafe.isEmpty ? "\(unsafe.reduce(0) { $0 + $1.count }) item\(unsafe.count == 1 && unsafe[0].count == 1 ? " waits" : "s wait") until the server cannot still be running them."
            : busy > 0 ? "\(busy) item\(busy == 1 ? " was" : "s were") not sent now: a register run is sending \(busy == 1 ? "it" : "them"), "
                + "or \(busy == 1 ? "its" : "their") outbox entry changed while this sync ran; run sync again."
            : problems.isEmpty ? "The outbox is empty." : "Unreadable outbox entries remain (see the warnings above)."
        context.note("Sent \(sent) item\(sent == 1 ? "" : "s") in \(posts) request\(posts == 1 ? "" : "s"); "
                     + "skipped \(skipped) the server already had. " + left)
        if let first = rejected.first { throw CommandExit(code: ExitCode(for: first.error)) }
        if !problems.isEmpty || busy > 0 || !unsafe.isEmpty { throw CommandExit(code: .temporaryFailure) }
        if keepFailure != nil { throw CommandExit(code: .ioError) }
    }

    /// The Sheet keys of every id the server shows in the months the waiting items fall in, all read at once (nothing is
    /// sent before the server was asked about every waiting item); also of rows that cannot be read, and of items dated
    /// outside their sheet's month (a date edited by hand): an item whose id the sheet shows in any form is not sent again.
    /// Only the keys are kept, not the months' items.
    static func knownIDs(_ months: [YearMonth], client: ExpenseLogAPIClient, repository: LocalRepository, _ context: Context,
                         remaining: String) async throws -> Set<String> {
        var known = Set<String>()
        for month in await MonthLoader(client: client, repository: repository).load(months, policy: .refresh) {
            if let failure = month.missing {
                context.io.stderr.write("Error: \(failure)\nNothing was sent: \(month.month) must be read from the server first, "
                                        + "so that no item is registered twice. \(remaining); run sync again later.\n")
                throw CommandExit(code: failure.isTransient ? .temporaryFailure : ExitCode(for: failure))
            }
            if let rows = month.rows { context.report(rows, of: month.month) }
            if let cacheFailure = month.cacheFailure { context.warn("the cache could not be updated: \(cacheFailure)") }
            known.formUnion((month.items + month.outside).map { SheetText.key($0.id) })
            known.formUnion(month.unreadable.compactMap(\.id))
        }
        return known
    }

    /// `2026-11-23T11:52:08Z`: when a batch was sent, or becomes safe to send again.
    static func time(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }
}
