import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// `fetch`: a month (or a year, or a range) from the server (or the cache with `--offline`), printed and cached.
enum FetchCommand: Command {
    static let offline = Flag("offline", help: "Read the cache only; never touch the network.")
    static let refresh = Flag("refresh", help: "Read the server only; fail instead of falling back to the cache.")
    static let sort = Option<ItemSort>(choice: "sort", "key", help: "Print the items sorted by date or price; ties keep the server's order.")
    static let reverse = Flag("reverse", help: "Print the items in reverse order (after --sort).")
    static let category = Option<String>("category", "name", .suggest(CommonOptions.categoryWords), help: "Print only this category: a name (food, 食費, a unique prefix), "
                                         + "a number, or category/sub (food/drink); see categories.")
    static let sub = Option<String>("sub", "name", .suggest(CommonOptions.subWords), help: "Print only this sub-category (a name or number); needs --category.")
    static let name = Option<String>("name", "text", help: "Print only items whose name holds this text (case, full- and half-width ignored).")
    static let min = Option<Int>("min", "yen", .integer(Int.min...Int.max), help: "Print only items of at least this price.")
    static let sentOnly = Flag("sent-only", help: "Leave out the items still waiting in the outbox (shown as waiting by default).")
    static let ids = Flag("ids", help: "Start the table with each item's short id (its first 4 or more characters), which edit and delete take.")
    static let max = Option<Int>("max", "yen", .integer(Int.min...Int.max), help: "Print only items of at most this price.")

    static let spec = CommandSpec(
        name: "fetch",
        abstract: "Fetch a month's items (this month by default, or a year, or a range) from the server, cache and print them.",
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
            """,
        options: [CommonOptions.year.spec, CommonOptions.month.spec, CommonOptions.from.spec, CommonOptions.to.spec, CommonOptions.format.spec, offline.spec,
                  refresh.spec, CommonOptions.strict.spec, sort.spec, reverse.spec, category.spec, sub.spec, name.spec, min.spec, max.spec,
                  ids.spec, sentOnly.spec],
        arguments: [CommonOptions.period.spec])

    static func run(_ invocation: Invocation, _ context: Context) async throws {
        let options = try FetchOptions(invocation)
        let offline = options.policy == .offline
        let config = try context.config()
        let query = try options.query(config.catalogue.value, invocation)
        let repository = context.repository(config)
        let edits = EditText.waiting(context, config)
        let loader = MonthLoader(client: offline ? nil : try context.client(config), repository: repository, strict: options.strict, edits: edits)
        // Made once the months are loaded: the short ids are unique among what the cache then holds.
        func text() async -> FetchText {
            FetchText(context: context, config: config, shortIDs: await shortIDs(invocation, CacheContents(repository)),
                      showsWaiting: !invocation[sentOnly], edits: edits, period: options.period)
        }
        guard case .month(let month) = options.period else {
            let loaded = await loader.load(options.period.months, policy: options.policy)
            await context.flushWarnings(repository)
            EditText.noteWaiting(edits, in: options.period.months, context)
            return try await text().months(loaded, query, options.format)
        }
        let loaded = await loader.load(month, policy: options.policy)
        await context.flushWarnings(repository)
        try await text().month(loaded, query, options.format, edits: edits, offline: offline)
    }

    /// `--ids`: the short id of every cached item, unique among all of them (as edit and delete look them up).
    static func shortIDs(_ invocation: Invocation, _ cache: CacheContents) async -> [String: String]? {
        invocation[ids] ? EditTargets.shortIDs(await cache.items().map(\.id)) : nil
    }
}
