import ExpenseLogClient
import ExpenseLogConfig
import ExpenseLogStore
import ExpenseLogUseCases
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
            the outbox is empty afterwards, 75 when items remain that a later run can send, 74 when an \
            outbox entry cannot be read (fix or move it away). Running it twice sends nothing twice.

            Then the edits and deletions queued by edit and delete are sent, one at a time in the order \
            they were made (each is safe to send again). An edit of an item the server no longer has is \
            dropped with its cached copy and said so (exit 65); a server without the bundled script's \
            extensions keeps them queued (exit 69).

            A batch whose POST got no answer (a timeout, a lost connection) may still be running on the \
            server: an Apps Script execution lasts up to 6 minutes, and the script cannot see the \
            Idempotency-Key. Unless the server already shows its items, such a batch is sent again only \
            once that time has passed since its POST (serverMaxExecutionSeconds in the config file); until \
            then sync says when it becomes safe and exits 75. --force sends it at once. The bundled web app \
            (expense-log server script) saves an id only once, so to it such a batch is sent again at once.
            """,
        options: [CommonOptions.format.spec, force.spec])

    static func run(_ invocation: Invocation, _ context: Context) async throws {
        let config = try context.config()
        let outbox = context.outbox(config)
        let (entries, problems) = try outbox.entries()
        let (edits, editProblems) = try context.editQueue(config).edits()
        guard !entries.isEmpty || !problems.isEmpty || !edits.isEmpty || !editProblems.isEmpty else {
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
            context.io.stderr.write("Error: another run (a sync, or an edit or delete sending its queue) is sending this environment's outbox (it holds "
                                    + "\(outbox.syncLock.path)). Let it finish, then run `expense-log pending` to see what is left.\n")
            throw CommandExit(code: .temporaryFailure)
        }
    }

    /// The work done under the sync lock: the outbox's items, then the queued edits and deletions (which only touch
    /// items the server had, so they never wait on an item being registered). Another process may have sent some
    /// meanwhile, so both are read again.
    static func send(outbox: Outbox, client: ExpenseLogAPIClient, repository: LocalRepository,
                     _ invocation: Invocation, _ context: Context, config: AppConfig) async throws {
        outbox.tidy()
        let (entries, problems) = try outbox.entries()
        let queue = context.editQueue(config)
        let format = CommonOptions.outputFormat(invocation)
        var itemsExit: CommandExit?, stoppedOnServer = false
        let queued = try queue.listing()
        let editsWait = !queued.edits.isEmpty || !queued.problems.isEmpty
        if !entries.isEmpty || !problems.isEmpty || !editsWait {
            do {
                try await sendItems(entries, problems, outbox: outbox, client: client, repository: repository, invocation, context,
                                    config: config, edits: queued.edits, stoppedOnServer: &stoppedOnServer)
            } catch let exit as CommandExit {
                itemsExit = exit
            }
        } else if format != .table {
            context.printItems([], format, config)
        }
        // A server that could not be read or refused a batch would fail the edits the same way; anything else (a refused
        // batch set aside, a batch that must wait, an unreadable entry) leaves it to them.
        if let itemsExit, stoppedOnServer {
            if editsWait { context.note("The queued edits and deletions wait too (`expense-log pending` lists them).") }
            throw itemsExit
        }
        var editsExit: CommandExit?
        do {
            try await sendEdits(queue, client: client, repository: repository, context, config: config)
        } catch let exit as CommandExit {
            editsExit = exit
        }
        if let exit = itemsExit ?? editsExit { throw exit }
    }

    /// Sends the queued edits and deletions in order, once the server is known to take them; the queue is read again, for
    /// the changes an `edit` queued while the items were sent.
    static func sendEdits(_ queue: EditQueue, client: ExpenseLogAPIClient, repository: LocalRepository, _ context: Context,
                          config: AppConfig) async throws {
        let listed = try queue.listing()
        let (edits, blocker) = (listed.sendable, listed.blocker)
        guard !edits.isEmpty else {
            guard let blocker else { return }
            context.io.stderr.write("Error: \(blocker).\n")
            throw CommandExit(code: .ioError)
        }
        for action in Set(edits.map { $0.isDelete ? "delete" : "update" }).sorted() {
            guard try await ServerEdits.requireAction(action, client, repository, context) else {
                context.io.stderr.write("\(edits.count) change\(edits.count == 1 ? " waits" : "s wait") in \(queue.directory.path); "
                                        + "run sync again once the server can be reached.\n")
                throw CommandExit(code: .temporaryFailure)
            }
        }
        try await EditSending.sendQueue(listed: listed, client, repository, context, config)
        context.note("The queue of edits is empty.")
    }

    /// Sends the outbox's items, the queued `edits` made on the months it reads.
    static func sendItems(_ entries: [OutboxEntry], _ problems: [String], outbox: Outbox, client: ExpenseLogAPIClient,
                          repository: LocalRepository, _ invocation: Invocation, _ context: Context, config: AppConfig,
                          edits: [QueuedEdit], stoppedOnServer: inout Bool) async throws {
        for problem in problems { context.warn(problem) }
        let format = CommonOptions.outputFormat(invocation)
        let wait = await ResendPolicy.wait(for: entries, outbox, client, repository, config, context)
        let sender = OutboxSender(delivery: OutboxDelivery(client: client, outbox: outbox), repository: repository,
                                  resendWait: wait, verifyAnswers: config.environment.value != .dummy,
                                  edits: edits)
        var saved = try SavedItems()
        var outcome = SyncOutcome()
        // What the server saved is cached and printed once: before an error is explained, else at the end.
        var keepFailure: StoreError?, registered = 0  // counted as they come: a run that throws returns no outcome
        func finish(printEmpty: Bool = false) async {
            guard keepFailure == nil, let failure = await saved.finish(in: repository, printEmpty: printEmpty, print: { context.printItems($0, format, config) }) else { return }
            keepFailure = failure
            context.warn(saved.warning(for: failure, registered: registered))
        }
        do {
            outcome = try await sender.send(entries, force: invocation[force], keep: { saved.keep($0); registered += $0.count }) { event in
                switch event {
                case let .rows(rows, month): context.report(rows, of: month)
                case .cacheFailure(let failure): context.warn("the cache could not be updated: \(failure)")
                case let .forced(key, sentAt):
                    context.warn("sending the batch \(key) again although its POST at \(Self.time(sentAt)) may still be "
                                 + "running on the server (--force); if it is, its items will be registered twice")
                }
            }
        } catch {
            await finish()  // an outbox that cannot record a batch still leaves the earlier batches cached
            throw error
        }
        let remaining = "\(outcome.remaining) item\(outcome.remaining == 1 ? " remains" : "s remain") in the outbox"
        switch outcome.stop {
        case .some(.monthUnreadable(let month, let failure)):
            stoppedOnServer = true
            context.io.stderr.write("Error: \(failure)\nNothing was sent: \(month) must be read from the server first, "
                                    + "so that no item is registered twice. \(remaining); run sync again "
                                    + (failure.isTransient ? "later.\n" : "once the cause is fixed.\n"))
            throw CommandExit(code: failure.isTransient ? .temporaryFailure : ExitCode(for: failure))
        case .some(.batchFailed(let key, let entry, let error)):
            stoppedOnServer = true
            await finish()
            context.io.stderr.write("Error: \(error)\nThe batch \(key) of \(entry.path) was not confirmed; \(remaining). "
                                    + "Run sync again later" + (error.isTransient ? ".\n" : " once the cause is fixed.\n"))
            throw CommandExit(code: error.isTransient ? .temporaryFailure : ExitCode(for: error))
        case .none:
            await finish(printEmpty: format != .table)
        }
        await context.flushWarnings(repository)
        try report(outcome, problems: problems, wait: wait, context)
        if keepFailure != nil { throw CommandExit(code: .ioError) }
    }
}
