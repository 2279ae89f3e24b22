import ExpenseLogKit
import Foundation

/// `pending`: the items waiting in the outbox of the current environment.
enum PendingCommand {
    static let spec = CommandSpec(
        name: "pending",
        abstract: "List the items waiting in the outbox for `sync`.",
        discussion: """
            Items land in the outbox when register cannot confirm them (the server is down, or the \
            answer was lost). The json, ndjson and csv output can be fed back to register. An outbox \
            entry that cannot be read is named on stderr and the exit status is 74: the list is incomplete.
            """,
        options: [CommonOptions.format.spec])

    static func run(_ invocation: Invocation, _ context: Context) async throws {
        let config = try context.config()
        let outbox = context.outbox(config)
        let (entries, problems) = try outbox.entries()
        for problem in problems { context.warn(problem) }
        let format = CommonOptions.outputFormat(invocation)
        // An entry that cannot be read still waits: the listing is then incomplete, and says so with 74.
        let unreadable = problems.isEmpty ? "" : " \(problems.count) outbox entr\(problems.count == 1 ? "y" : "ies") cannot be read "
            + "(see above) and \(problems.count == 1 ? "is" : "are") not listed; fix or move \(problems.count == 1 ? "it" : "them") away."
        guard let oldest = entries.first else {
            if format != .table { context.printItems([], format, config) }
            context.note(problems.isEmpty ? "The outbox of the \(config.environment.value.rawValue) environment is empty."
                         : "No readable item waits in \(outbox.directory.path)." + unreadable)
            if !problems.isEmpty { throw CommandExit(code: .ioError) }
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
        context.printItems(items, format, config)
        context.note("\(items.count) item\(items.count == 1 ? "" : "s") in \(batches) batch\(batches == 1 ? "" : "es") "
                     + "\(items.count == 1 ? "waits" : "wait") in \(outbox.directory.path), the oldest queued "
                     + "\(oldest.queuedAt.formatted(Date.ISO8601FormatStyle())). Run `expense-log sync` to send them." + unreadable)
        if !problems.isEmpty { throw CommandExit(code: .ioError) }
    }
}
