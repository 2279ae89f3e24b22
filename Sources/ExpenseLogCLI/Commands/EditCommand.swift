import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// `edit ID [--name] [--price] [--date] [--category]`: changes an item on the server (the bundled web app's extension).
struct EditCommand: ParsableCommand {
    @Opt("name", "name", help: "The new name.") var name: String?
    @Opt("price", "yen", help: "The new price (1500, 1,500円, -300 for a refund).") var price: String?
    @Opt("date", short: "d", "day", help: "The new day: \(Day.personForms).") var date: String?
    @Opt(
        "category", short: "c", "name", .suggest(CommonOptions.categoryWords),
        help:
            "The new category (food, 食費, a unique prefix, a number) or category/sub; the sub is kept when the category is."
    )
    var category: String?
    @Opt("payer", short: "p", "name", help: "Who paid it (none: the household's); kept by the bundled script.")
    var payer: String?
    @Flg("personal", help: "Make it one person's own spending (left out of settling up).") var personal: Bool
    @Flg("shared", help: "Make it shared again (counted when settling up).") var shared: Bool
    @Flg(
        "give-id",
        help: "Give a row typed into the sheet by hand (✎, no id) an id, so that it can be changed and deleted like "
            + "any item (any other change does it first too).") var giveID: Bool
    @Flg("all", help: "Change every item the text matches (bulk re-categorising), not just one.") var all: Bool
    @Flg(
        "yes", short: "y",
        help: "Change what a search by name found without asking (needed when stdin is not a terminal).") var yes: Bool
    @Opt(CommonOptions.from) var from: String?
    @Opt(CommonOptions.to) var to: String?
    @Arg(
        "id",
        help: "The item to change: its id, the first 4 or more characters of it (fetch --ids), or part of its name, "
            + "searched in this month's items.") var id: String

    static let about = CommandAbout(
        name: "edit",
        abstract: "Change an item's name, price, date, category or payer on the server (needs the bundled web app).",
        discussion: """
            The item is found in the cache by its id, the first 4 or more characters of it (fetch --ids shows \
            them), or part of its name (case and widths ignored) among this month's items, or --from/--to's \
            (fetched first when never cached); or among the items waiting in the outbox (pending shows them: the \
            edit then waits behind the item). Found by name, it is shown and the change asked for on a terminal \
            (--yes elsewhere); several found are numbered to pick from on a terminal, listed with their short ids \
            elsewhere (exit 65, nothing changed), or all changed with --all. The fields given replace \
            its own, checked as add checks them, and the server's answer replaces it in the cache (in its \
            new month when the date moves it). A server without the extensions is told apart as for delete. \
            The script refuses an edit of a field changed on the server since the month was fetched here \
            (a conflict: exit 65; fetch and edit again).

            When the server cannot be reached, or its answer is lost, the edit waits in the queue of changes \
            (pending lists it, sync sends it; exit 75) and the cache shows it made, so a further edit starts \
            from it. Queued changes are sent first and in order, and sending one again is safe.

            EXAMPLES:
              expense-log edit 7B2A --price 980
              expense-log edit ラーメン --price 980
              expense-log edit 1000…-ID --date yesterday --category food/drink
              expense-log edit AMAZON --all --category 雑貨 --from 2026-01 --yes
            """)

    func run(_ context: Context) async throws -> ExitCode {
        let config = try context.config()
        guard
            name != nil || price != nil || date != nil || category != nil || payer != nil || personal || shared
                || giveID
        else {
            throw UsageError(
                path: context.invocation.path,
                message:
                    "Say what to change: --name, --price, --date, --category, --payer, --personal, --shared or --give-id"
            )
        }
        let period = try CommonOptions.range(from: from, to: to, context)
        // A person at a terminal, as with add: a server that cannot be reached at all is not retried, the change waits.
        let (ledger, link) = (try context.ledger(), try context.link(queuesUnreachable: true))
        let found = try await NamedItems.find([id], all: all, in: period, ledger, context, config)
        let asked = try found.items.compactMap { try change(to: $0, context, config) }
        if found.byName, !asked.isEmpty { try await confirm(asked, context, config) }
        // A row typed into the sheet by hand has no id a change could name: it gets one first, once the change is agreed.
        let items = try await ServerEdits.withIDs(found.items, ledger, link, context, config)
        let changes = try items.compactMap { try change(to: $0, context, config) }
        guard !changes.isEmpty else { return .success }
        let reachable = try await ServerEdits.requireAction("update", ledger, link, context)
        // Who paid is kept by a script that offers it (version 5): another would answer the change unmade.
        if reachable, changes.contains(where: \.changesShare) {
            _ = try await ServerEdits.requireAction("payer", ledger, link, context)
        }
        // After a change that waits (the server went away), the rest wait behind it rather than each trying again.
        var waiting: CommandExit?
        for change in changes {
            do {
                try await EditText.submit(
                    change, reachable: reachable && waiting == nil, link: link, context, config)
            } catch let exit as CommandExit where exit.code == .temporaryFailure {
                waiting = exit
            }
        }
        if let waiting { throw waiting }
        return .success
    }
}
