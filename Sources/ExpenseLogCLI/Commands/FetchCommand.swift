import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// `fetch`: a month (or a year, or a range) from the server (or the cache with `--offline`), printed and cached.
struct FetchCommand: ParsableCommand {
    @Opt(CommonOptions.year) var year: Int?
    @Opt(CommonOptions.month) var month: Int?
    @Opt(CommonOptions.from) var from: String?
    @Opt(CommonOptions.to) var to: String?
    @Opt(CommonOptions.format) var format: OutputFormat?
    @Flg("offline", help: "Read the cache only; never touch the network.") var offline: Bool
    @Flg("refresh", help: "Read the server only; fail instead of falling back to the cache.") var refresh: Bool
    @Flg(CommonOptions.strict) var strict: Bool
    @Opt(
        choice: "sort", "key",
        help: "Print the items sorted by date (the default) or price; ties keep the server's order.") var sort:
        ItemSort?
    @Flg("reverse", help: "Print the items in reverse order (after --sort).") var reverse: Bool
    @Opt(
        "category", "name", .suggest(CommonOptions.categoryWords),
        help: "Print only this category: a name (food, 食費, a unique prefix), "
            + "a number, or category/sub (food/drink); see categories.") var category: String?
    @Opt(
        "sub", "name", .suggest(CommonOptions.subWords),
        help: "Print only this sub-category (a name or number); needs --category.")
    var sub: String?
    @Opt("name", "text", help: "Print only items whose name holds this text (case, full- and half-width ignored).")
    var name: String?
    @Opt(
        "payer", "name",
        help: "Print only items this person paid (kept by the bundled script; none: the household's).") var payer:
        String?
    @Opt(Option("min", "yen", .integer(Int.min...Int.max), help: "Print only items of at least this price.")) var min:
        Int?
    @Opt(Option("max", "yen", .integer(Int.min...Int.max), help: "Print only items of at most this price.")) var max:
        Int?
    @Flg(
        "ids",
        help: "Start the table with each item's short id (its first 4 or more characters), which edit and delete take.")
    var ids: Bool
    @Flg("sent-only", help: "Leave out the items still waiting in the outbox (shown as waiting by default).")
    var sentOnly: Bool
    @Arg(CommonOptions.period) var period: String?

    static let about = CommandAbout(
        name: "fetch",
        abstract:
            "Fetch a month's items (this month by default, or a year, or a range) from the server, cache and print them.",
        discussion: """
            When the server cannot be reached (or answers 429 or 5xx after the retries) and the month \
            is cached, the cached items are printed with a warning saying when they were fetched, and \
            the exit status is 0.

            A row of the server's answer that cannot be read as an item (a price typed as text in the \
            sheet, a date that is no day) is left out and named on stderr with its position and raw value; \
            the readable items are printed and cached, and the exit status is 65. With --strict such an \
            answer is refused whole: nothing is printed or cached, and the exit status is 76. Blank rows \
            (cleared by hand) are skipped without a word.

            Without a period, this month (in the local time zone: TZ is honoured). A year, or --from/--to, \
            fetches each of its months (a few at a time) and prints them together; a month that cannot \
            be fetched falls back to its cached copy, with one warning for all of them.

            --sort, --reverse, --category, --sub, --name, --min and --max shape only what is printed (and \
            the table's total): the cache always receives whole months.

            EXAMPLES:
              expense-log fetch
              expense-log fetch 2024-01 --format csv > 2024-01.csv
              expense-log fetch --year 2024 --month 1 --offline
              expense-log fetch 2024 --name スターバックス
              expense-log fetch --from 2024-01-15 --to 2024-03 --min 1000
              expense-log fetch --category food/drink --sort price --reverse
            """)

    func run(_ context: Context) async throws -> ExitCode {
        let (period, policy) = try periodAndPolicy(context)
        let offline = policy == .offline
        let config = try context.config()
        let query = try query(period, config.catalogue.value, context)
        let format = format ?? .table
        let ledger = try context.ledger()
        // Who paid comes only from a script known to keep it: asked once (and remembered) when it is filtered on.
        if payer != nil, !offline { await context.learnWhoPaid() }
        let read = await ledger.read(
            period.months, policy: policy, strict: strict, link: offline ? nil : try context.link(),
            withWaiting: true)
        context.say(read)
        // Made once the months are read: the short ids are unique among what the cache then holds.
        let text = FetchText(
            context: context, config: config,
            shortIDs: ids ? EditTargets.shortIDs(await ledger.cachedItems().map(\.id)) : nil,
            showsWaiting: !sentOnly, waiting: read.waiting, period: period,
            expected: ExpectedCosts.find(read.loaded, waiting: read.waiting, context).map(\.item))
        guard case .month = period, let loaded = read.loaded.first else {
            EditText.noteWaiting(read.changes, in: period.months, context)
            try text.months(read.loaded, query, format)
            return .success
        }
        try text.month(loaded, query, format, edits: read.changes, offline: offline)
        return .success
    }
}
