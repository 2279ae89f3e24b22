import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// `pending`: the items waiting in the outbox of the current environment; `pending drop|clear` removes them.
enum PendingCommand {
    static let yes = Flag("yes", short: "y", help: "Remove without asking (needed when stdin is not a terminal).")

    static let spec = CommandSpec(
        name: "pending",
        abstract: "List the items waiting in the outbox for `sync` (drop or clear removes them).",
        discussion: """
            Items land in the outbox when register cannot confirm them (the server is down, or the \
            answer was lost). The table starts with each item's id, which pending drop takes; the json, \
            ndjson and csv output can be fed back to register. An outbox entry that cannot be read is named \
            on stderr and the exit status is 74: the list is incomplete. Edits and deletions waiting to be \
            sent are listed on stderr, one a line; drop and clear remove them too (by the item's id).

            EXAMPLES:
              expense-log pending
              expense-log pending drop 7F3A…-ID
              expense-log pending clear --yes
            """,
        options: [CommonOptions.format.spec],
        subcommands: [
            CommandSpec(name: "drop", abstract: "Remove waiting items by id, asking first on a terminal.", options: [yes.spec],
                        arguments: [ArgumentSpec("id", variadic: true, help: "The ids of the items to remove (pending shows them).")]),
            CommandSpec(name: "clear", abstract: "Remove every waiting item, asking first on a terminal.", options: [yes.spec]),
        ],
        runsAlone: true)

    static func run(_ invocation: Invocation, _ context: Context) async throws {
        let config = try context.config()
        let outbox = context.outbox(config)
        let (entries, problems) = try outbox.entries()
        for problem in problems { context.warn(problem) }
        let format = CommonOptions.outputFormat(invocation)
        // An entry that cannot be read still waits: the listing is then incomplete, and says so with 74.
        let unreadable = problems.isEmpty ? "" : " \(problems.count) outbox entr\(problems.count == 1 ? "y" : "ies") cannot be read "
            + "(see above) and \(problems.count == 1 ? "is" : "are") not listed; fix or move \(problems.count == 1 ? "it" : "them") away."
        let (editsWait, editsUnreadable) = try listEdits(context, config)
        guard let oldest = entries.first else {
            if format != .table { context.printItems([], format, config) }
            context.note(problems.isEmpty ? (editsWait ? "No item to register waits in the outbox." : "The outbox of the \(config.environment.value.rawValue) environment is empty.")
                         : "No readable item waits in \(outbox.directory.path)." + unreadable)
            if !problems.isEmpty || editsUnreadable { throw CommandExit(code: .ioError) }
            return
        }
        // A batch at a time through a spool on disk: an offline import of millions of rows is listed in flat memory.
        let items = try ItemSpool()
        var batches = 0
        for entry in entries {
            let mark = items.mark
            // An entry that a sync finished since it was listed is left out whole: its items are on the server.
            let listed = try outbox.forEachBatch(of: entry) { batch in
                for item in batch.items { try items.append(item, tag: 0) }
            }
            if listed { batches += entry.batches.count } else { try items.truncate(to: mark) }
        }
        context.printItems(items, format, config, showingIDs: true)
        context.note("\(items.count) item\(items.count == 1 ? "" : "s") in \(batches) batch\(batches == 1 ? "" : "es") "
                     + "\(items.count == 1 ? "waits" : "wait") in \(outbox.directory.path), the oldest queued "
                     + "\(oldest.queuedAt.formatted(Date.ISO8601FormatStyle())). Run `expense-log sync` to send them." + unreadable)
        if !problems.isEmpty || editsUnreadable { throw CommandExit(code: .ioError) }
    }

    /// Lists the queued edits and deletions on stderr, one line each, oldest first: whether any waits, and whether one cannot be read.
    private static func listEdits(_ context: Context, _ config: AppConfig) throws -> (wait: Bool, unreadable: Bool) {
        let queue = context.editQueue(config)
        let edits: [QueuedEdit], problems: [String]
        do {
            (edits, problems) = try queue.edits()
        } catch {
            context.warn("\(error)")  // the outbox is still listed
            return (false, true)
        }
        for problem in problems { context.warn(problem) }
        guard !edits.isEmpty else { return (false, !problems.isEmpty) }
        context.note("\(edits.count) change\(edits.count == 1 ? "" : "s") to items on the server \(edits.count == 1 ? "waits" : "wait") "
                     + "in \(queue.directory.path), sent in this order by `expense-log sync`:")
        for edit in edits {
            switch edit.change {
            case .delete(let items):
                for item in items { context.note("  delete \(PrintableText.of(item.id)): \(ServerEdits.describe(item, config, context))") }
            case let .update(item, changed, _):
                context.note("  edit \(PrintableText.of(item.id)): \(ServerEdits.describe(item, config, context)) → "
                             + ServerEdits.describe(changed, config, context))
            }
        }
        return (true, !problems.isEmpty)
    }

    static func drop(_ invocation: Invocation, _ context: Context) async throws {
        try await remove(Set(invocation.arguments), invocation, context)
    }

    static func clear(_ invocation: Invocation, _ context: Context) async throws {
        try await remove(nil, invocation, context)
    }

    /// Removes the queued changes to these ids (every change when nil) under the sync lock, says what went and that the
    /// cache still shows them made; nil when a sync holds the lock.
    private static func dropEdits(_ ids: Set<String>?, _ context: Context, _ config: AppConfig) async throws -> [QueuedEdit]? {
        let queue = context.editQueue(config)
        guard let dropped = try await FileLock.withLockIfFree(context.outbox(config).syncLock, { try queue.drop(ids: ids) }) else {
            context.warn("the queue of edits was left alone: another run (a sync, edit or delete) is sending it; run pending again once it ends")
            return nil
        }
        for edit in dropped {
            let what: String
            switch edit.change {
            case .delete(let items): what = "deletion of " + items.map { "\(PrintableText.of($0.id)) (\(ServerEdits.describe($0, config, context)))" }.joined(separator: ", ")
            case let .update(item, changed, _): what = "edit of \(PrintableText.of(item.id)) (to \(ServerEdits.describe(changed, config, context)))"
            }
            context.note("Removed the queued \(what); the cache still shows it made, until "
                         + edit.months.map { "`expense-log fetch --refresh \($0)`" }.joined(separator: " and ")
                         + ", which shows what the server has (it made the change if an earlier send of it lost its answer).")
        }
        return dropped
    }

    /// Removes the items with these ids (every item when nil) after asking, and says what went; an id that waits
    /// nowhere is an error (65), so a typo is never taken for a removal.
    private static func remove(_ ids: Set<String>?, _ invocation: Invocation, _ context: Context) async throws {
        let config = try context.config()
        let outbox = context.outbox(config)
        let what = ids.map { "what waits for \($0.count == 1 ? "the id" : "the ids") \($0.sorted().joined(separator: ", "))" } ?? "every waiting item and queued change"
        if !invocation[yes] {
            guard context.canAsk else {
                throw UsageError(path: invocation.path, message: "Removing from the outbox or the queue of edits needs --yes when stdin is not a terminal")
            }
            guard await context.confirm("Remove \(what) from the outbox (\(outbox.directory.path)) and the queue of edits? They will not be sent",
                                        yesByDefault: false) else {
                context.io.stderr.write("Cancelled; nothing was removed.\n")
                throw CommandExit(code: .failure)
            }
        }
        let dropped = try outbox.drop(ids: ids)
        let droppedEdits = try await dropEdits(ids, context, config)
        let busy = dropped.busy > 0 || droppedEdits == nil
        for item in dropped.removed {
            context.note("Removed \(PrintableText.of(item.id)): \(item.date) \(PrintableText.of(item.name)) \(PriceText.format(item.price))")
        }
        if !dropped.removed.isEmpty || (ids == nil && droppedEdits?.isEmpty != false) {
            context.note("Removed \(dropped.removed.count) item\(dropped.removed.count == 1 ? "" : "s") from the outbox.")
        }
        if dropped.maybeOnServer > 0 {
            context.warn("\(dropped.maybeOnServer) of them \(dropped.maybeOnServer == 1 ? "was" : "were") in a batch whose POST got no "
                         + "answer: the server may have saved \(dropped.maybeOnServer == 1 ? "it" : "them") anyway; `expense-log fetch` shows what it has")
        }
        if dropped.busy > 0 {
            context.warn("\(dropped.busy) outbox entr\(dropped.busy == 1 ? "y was" : "ies were") left alone: another run is sending "
                         + "\(dropped.busy == 1 ? "it" : "them") (or sent \(dropped.busy == 1 ? "it" : "them") meanwhile); run pending again once it ends")
        }
        let missing = (ids ?? []).subtracting(dropped.removed.map(\.id) + (droppedEdits ?? []).flatMap(\.ids))
        if !missing.isEmpty, busy {
            context.io.stderr.write("Error: \(missing.sorted().joined(separator: ", ")) may wait in an entry or a queue another run is sending; "
                                    + "run `expense-log pending` once it ends.\n")
            throw CommandExit(code: .temporaryFailure)
        }
        if !missing.isEmpty {
            context.io.stderr.write("Error: no waiting item has the id \(missing.sorted().joined(separator: ", ")); `expense-log pending` lists them.\n")
            throw CommandExit(code: .dataError)
        }
        if busy { throw CommandExit(code: .temporaryFailure) }
    }
}
