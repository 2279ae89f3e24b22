import ExpenseLogKit
import Foundation

/// `pending`: the items waiting in the outbox of the current environment.
enum PendingCommand {
    static let spec = CommandSpec(
        name: "pending",
        abstract: "List the items waiting in the outbox for `sync`.",
        discussion: """
            Items land in the outbox when register cannot confirm them (the server is down, or the \
            answer was lost). The json, ndjson and csv output can be fed back to register.
            """,
        options: [CommonOptions.format],
        run: run)

    static func run(_ invocation: Invocation, _ context: Context) async throws {
        let config = try context.config()
        let outbox = context.outbox(config)
        let (entries, problems) = try outbox.entries()
        for problem in problems { context.warn(problem) }
        let format = CommonOptions.outputFormat(invocation)
        guard let oldest = entries.first else {
            if format != .table { context.printItems([], format, config) }
            context.note("The outbox of the \(config.environment.value.rawValue) environment is empty.")
            return
        }
        // A batch at a time through a spool on disk: an offline import of millions of rows is listed in flat memory.
        let items = try ItemSpool()
        for entry in entries {
            for queued in entry.batches {
                for item in try outbox.batch(queued, of: entry).items { try items.append(item, tag: 0) }
            }
        }
        context.printItems(items, format, config)
        let batches = entries.reduce(0) { $0 + $1.batches.count }
        context.note("\(items.count) item\(items.count == 1 ? "" : "s") in \(batches) batch\(batches == 1 ? "" : "es") "
                     + "\(items.count == 1 ? "waits" : "wait") in \(outbox.directory.path), the oldest queued "
                     + "\(oldest.queuedAt.formatted(Date.ISO8601FormatStyle())). Run `expense-log sync` to send them.")
    }
}
