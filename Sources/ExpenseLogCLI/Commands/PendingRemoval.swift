import ExpenseLogConfig
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// `pending drop` and `pending clear`: what waits for some ids, or everything, removed after asking.
extension PendingCommand {
    /// `pending drop`.
    enum Drop: Command {
        static let spec = CommandSpec(
            name: "drop", abstract: "Remove waiting items by id or the first 4 or more characters of one, asking first on a terminal.", options: [yes.spec],
            arguments: [ids.spec])

        static func run(_ invocation: Invocation, _ context: Context) async throws {
            try await remove(Set(try PendingText.ids(named: invocation[ids], context)), invocation, context)

        }
    }

    /// `pending clear`.
    enum Clear: Command {
        static let spec = CommandSpec(
            name: "clear", abstract: "Remove every waiting item, asking first on a terminal.", options: [yes.spec])

        static func run(_ invocation: Invocation, _ context: Context) async throws {
            try await remove(nil, invocation, context)

        }
    }

    /// Removes what waits for these ids (everything when nil) after asking, and says what went; an id that waits
    /// nowhere is an error (65), so a typo is never taken for a removal.
    private static func remove(_ ids: Set<String>?, _ invocation: Invocation, _ context: Context) async throws {
        let config = try context.config()
        let pending = context.pendingWrites(config)
        let what = ids.map { "what waits for \($0.count == 1 ? "the id" : "the ids") \($0.sorted().joined(separator: ", "))" } ?? "every waiting item and queued change"
        if !invocation[yes] {
            guard context.canAsk else {
                throw UsageError(path: invocation.path, message: "Removing from the outbox or the queue of edits needs --yes when stdin is not a terminal")
            }
            guard try await context.confirm("Remove \(what) from the outbox (\(config.outboxDirectory.path)) and the queue of edits? They will not be sent",
                                        yesByDefault: false) else {
                context.io.stderr.write("Cancelled; nothing was removed.\n")
                throw CommandExit(code: .failure)
            }
        }
        let dropped = try await DroppedWrites(ids: ids, from: pending)
        PendingText(context: context, config: config).dropped(dropped, all: ids == nil)
        let missing = ids.map(dropped.missing) ?? []
        if !missing.isEmpty, dropped.busy {
            context.io.stderr.write("Error: \(missing.sorted().joined(separator: ", ")) may wait in an entry or a queue another run is sending; "
                                    + "run `expense-log pending` once it ends.\n")
            throw CommandExit(code: .temporaryFailure)
        }
        if !missing.isEmpty {
            context.io.stderr.write("Error: no waiting item has the id \(missing.sorted().joined(separator: ", ")); `expense-log pending` lists them.\n")
            throw CommandExit(code: .dataError)
        }
        if dropped.busy { throw CommandExit(code: .temporaryFailure) }
    }
}
