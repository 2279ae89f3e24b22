import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// `delete ID…`: removes items from the server (the bundled web app's extension) and from the cache.
struct DeleteCommand: ParsableCommand {
    @Flg("yes", short: "y", help: "Delete without asking (needed when stdin is not a terminal).") var yes: Bool
    @Flg("all", help: "Delete every item a text matches, not just one (still shown and asked for).") var all: Bool
    @Opt(CommonOptions.from) var from: String?
    @Opt(CommonOptions.to) var to: String?
    @Arg(
        variadic: "id",
        help: "The items to delete: ids, their first 4 or more characters (fetch --ids), "
            + "or part of a name, searched in this month's items.") var ids: [String]

    static let about = CommandAbout(
        name: "delete",
        abstract: "Delete items from the server by id (needs the bundled web app: expense-log server script).",
        discussion: """
            The items are found in the cache by id, the first 4 or more characters of one (fetch --ids shows \
            them), or part of a name (case and widths ignored) among this month's items or --from/--to's; or among \
            the items waiting in the outbox (the deletion then waits behind them), so their months are known. \
            Several found for one text are numbered to pick from on a terminal, listed with their short ids \
            elsewhere (exit 65, nothing deleted), or all taken with --all. A server without the extensions (the original app's script) is told apart with \
            GET ?action=info, remembered per server in the cache, and nothing is sent to it. On a terminal the \
            items are listed and the deletion asked for; elsewhere --yes is needed. Deleted items leave the \
            cache too; an id the server no longer had is said so (and leaves the cache as well).

            When the server cannot be reached, or its answer is lost, the deletion waits in the queue of \
            changes (pending lists it, sync sends it; exit 75) and the items leave the cache at once. \
            Changes are sent in the order they were made, and sending one again is safe.

            EXAMPLES:
              expense-log fetch --ids
              expense-log delete 7B2A
              expense-log delete たこ焼き
              expense-log delete --yes ID1 ID2
            """)

    func run(_ context: Context) async throws -> ExitCode {
        let config = try context.config()
        // A person at a terminal, as with add: a server that cannot be reached at all is not retried, the change waits.
        let (ledger, link) = (try context.ledger(), try context.link(queuesUnreachable: true))
        let found = try await NamedItems.find(
            ids, all: all, in: try CommonOptions.range(from: from, to: to, context), ledger, context, config
        ).items
        let reachable = try await ServerEdits.requireAction("delete", ledger, link, context)
        if !yes {
            guard context.canAsk else {
                throw UsageError(
                    path: context.invocation.path, message: "Deleting needs --yes when stdin is not a terminal")
            }
            for item in found { context.io.stderr.write("  \(ServerEdits.describe(item, config, context))\n") }
            let what = found.count == 1 ? "this item" : "these \(found.count) items",
                japaneseWhat = found.count == 1 ? "この項目" : "この\(found.count)件"
            let question =
                reachable
                ? context.say(
                    "Delete \(what) from the server? This cannot be undone", ja: "\(japaneseWhat)をサーバーから削除しますか? 元に戻せません"
                )
                : context.say(
                    "Delete \(what)? The server cannot be reached: the deletion waits for `expense-log sync` (`pending drop` undoes it)",
                    ja: "\(japaneseWhat)を削除しますか? サーバーに届かないため、削除は `expense-log sync` まで待ちます (`pending drop` で取り消せます)")
            guard try await context.confirm(question, yesByDefault: false) else {
                context.io.stderr.write(context.say("Nothing was deleted.", ja: "何も削除していません。") + "\n")
                throw CommandExit(code: .failure)
            }
        }
        // A row typed into the sheet by hand has no id a deletion could name: it gets one first, once the deletion is agreed.
        let items = try await ServerEdits.withIDs(found, ledger, link, context, config)
        try await EditText.submit(.delete(items), reachable: reachable, link: link, context, config)
        return .success
    }
}
