import ExpenseLogKit
import Foundation

/// `fetch`: one month from the server (or the cache with `--offline`), printed and cached.
enum FetchCommand {
    static let offline = Flag("offline", help: "Read the cache only; never touch the network.")
    static let refresh = Flag("refresh", help: "Read the server only; fail instead of falling back to the cache.")
    static let sort = Option<ItemSort>(choice: "sort", "key", help: "Print the items sorted by date or price; ties keep the server's order.")
    static let reverse = Flag("reverse", help: "Print the items in reverse order (after --sort).")
    static let category = Option<Int>("category", "n", .integer(Int.min...Int.max),
                                      help: "Print only the items of this category number (see categories).")
    static let sub = Option<Int>("sub", "n", .integer(Int.min...Int.max),
                                 help: "Print only the items of this sub-category number; needs --category.")

    static let spec = CommandSpec(
        name: "fetch",
        abstract: "Fetch a month's items from the server, cache them and print them.",
        discussion: """
            When the server cannot be reached (or answers 429 or 5xx after the retries) and the month \
            is cached, the cached items are printed with a warning saying when they were fetched, and \
            the exit status is 0.

            A row of the server's answer that cannot be read as an item (a price typed as text in the \
            sheet, a date that is no day) is left out and named on stderr with its position and raw value; \
            the readable items are printed and cached, and the exit status is 65. With --strict such an \
            answer is refused whole: nothing is printed or cached, and the exit status is 76. Blank rows \
            (cleared by hand) are skipped without a word.

            --sort, --reverse, --category and --sub shape only what is printed (and the table's \
            total): the cache always receives the whole month.

            EXAMPLES:
              expense-log fetch --year 2024 --month 1
              expense-log fetch --year 2024 --month 1 --format csv > 2024-01.csv
              expense-log fetch --year 2024 --month 1 --offline
              expense-log fetch --year 2024 --month 1 --category 0 --sub 1 --sort price --reverse
            """,
        options: [CommonOptions.year.spec, CommonOptions.month.spec, CommonOptions.format.spec, offline.spec, refresh.spec,
                  CommonOptions.strict.spec, sort.spec, reverse.spec, category.spec, sub.spec],
        run: run)

    static func run(_ invocation: Invocation, _ context: Context) async throws {
        let options = try FetchOptions(invocation)
        let (month, offline) = (options.month, options.policy == .offline)
        let config = try context.config()
        let repository = context.repository(config)
        let loader = MonthLoader(client: offline ? nil : try context.client(config), repository: repository, strict: options.strict)
        let loaded = await loader.load(month, policy: options.policy)
        await context.flushWarnings(repository)

        switch loaded.source {
        case .missing(.notCached) where offline:
            context.io.stderr.write("Error: \(month) is not cached for the \(config.environment.value.rawValue) environment "
                                    + "(\(config.cacheDirectory.path)). Run without --offline to fetch it.\n")
            throw CommandExit(code: .unavailable)
        case .missing(let failure):
            if let cacheFailure = loaded.cacheFailure { context.warn("the cache cannot serve \(month) either: \(cacheFailure)") }
            throw failure
        case .cache(let fetchedAt, let complete):
            if let fallback = loaded.fallback {
                let when = fetchedAt.map { "as fetched \(Age.text(of: $0)) (\($0.formatted(Date.ISO8601FormatStyle())))" } ?? "from the cache"
                context.warn("\(fallback)\nShowing \(month) \(when); run again when the server is back (or use --refresh to never fall back)")
            }
            if !complete { context.warn("\(month) was never fetched whole; only the items registered from here are shown") }
            context.printItems(options.query.apply(loaded.items), options.format, config)
        case .server:
            if let rows = loaded.rows {
                context.report(rows, of: month)
                context.reportLeftOut(rows.unreadable.count)
            }
            let answered = loaded.items + loaded.outside
            if !loaded.outside.isEmpty {
                context.warn("\(loaded.outside.count) of the \(answered.count) items the server returned are dated outside "
                             + "\(month); they are printed but not cached (the cache of \(month) keeps only its own items)")
            }
            // The server's answer is printed whatever happens to the cache: a disk problem must not hide the data.
            context.printItems(options.query.apply(answered), options.format, config)
            if let cacheFailure = loaded.cacheFailure {
                context.warn("\(month) was fetched and printed, but not cached: \(cacheFailure) (exit status 74; --offline will not have it)")
            }
            if !loaded.unreadable.isEmpty { throw CommandExit(code: .dataError) }
            if loaded.cacheFailure != nil { throw CommandExit(code: .ioError) }
        }
    }
}
