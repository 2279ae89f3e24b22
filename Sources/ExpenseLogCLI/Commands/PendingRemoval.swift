import ExpenseLogConfig
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// `pending drop` and `pending clear`: what waits for some ids, or everything, removed after asking.
extension PendingCommand {
    /// `pending drop`.
    struct Drop: ParsableCommand {
        @Flg(PendingCommand.yes) var yes: Bool
        @Arg(
            variadic: "id",
            help: "The ids of the items to remove, or the first 4 or more characters of each (pending shows them).")
        var ids: [String]

        static let about = CommandAbout(
            name: "drop",
            abstract: "Remove waiting items by id or the first 4 or more characters of one, asking first on a terminal."
        )

        func run(_ context: Context) async throws -> ExitCode {
            try await PendingCommand.remove(Set(try PendingText.ids(named: ids, context)), yes: yes, context)
            return .success
        }
    }

    /// `pending clear`.
    struct Clear: ParsableCommand {
        @Flg(PendingCommand.yes) var yes: Bool

        static let about = CommandAbout(
            name: "clear", abstract: "Remove every waiting item, asking first on a terminal.")

        func run(_ context: Context) async throws -> ExitCode {
            try await PendingCommand.remove(nil, yes: yes, context)
            return .success
        }
    }

    /// Removes what waits for these ids (everything when nil) after asking, and says what went; an id that waits
    /// nowhere is an error (65), so a typo is never taken for a removal.
    fileprivate static func remove(_ ids: Set<String>?, yes: Bool, _ context: Context) async throws {
        let config = try context.config()
        let ledger = try context.ledger()
        let what =
            ids.map { "what waits for \($0.count == 1 ? "the id" : "the ids") \($0.sorted().joined(separator: ", "))" }
            ?? "every waiting item and queued change"
        if !yes {
            guard context.canAsk else {
                throw UsageError(
                    path: context.invocation.path,
                    message: "Removing from the outbox needs --yes when stdin is not a terminal")
            }
            guard
                try await context.confirm(
                    "Remove \(what) from the outbox (\(config.journalDirectory.path))? They will not be sent",
                    yesByDefault: false)
            else {
                context.io.stderr.write(
                    context.say("Cancelled; nothing was removed.", ja: "取り消しました。何も取り除いていません。") + "\n")
                throw CommandExit(code: .failure)
            }
        }
        let dropped = try await ledger.drop(ids: ids)
        PendingText(context: context, config: config).dropped(dropped, all: ids == nil)
        let missing = ids.map(dropped.missing) ?? []
        if !missing.isEmpty, dropped.busy {
            context.io.stderr.write(
                context.say(
                    "Error: \(missing.sorted().joined(separator: ", ")) may wait in an entry or a queue another run is sending; "
                        + "run `expense-log pending` once it ends.",
                    ja: "エラー: \(missing.sorted().joined(separator: "、")) は別の実行が送っている送信待ちにあるかもしれません。"
                        + "終わってから `expense-log pending` を実行してください。") + "\n")
            throw CommandExit(code: .temporaryFailure)
        }
        if !missing.isEmpty {
            context.io.stderr.write(
                context.say(
                    "Error: no waiting item has the id \(missing.sorted().joined(separator: ", ")); `expense-log pending` lists them.",
                    ja:
                        "エラー: ID が \(missing.sorted().joined(separator: "、")) の送信待ちはありません。`expense-log pending` で一覧できます。"
                ) + "\n")
            throw CommandExit(code: .dataError)
        }
        if dropped.busy { throw CommandExit(code: .temporaryFailure) }
    }
}
