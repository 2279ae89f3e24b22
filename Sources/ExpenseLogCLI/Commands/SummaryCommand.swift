import ExpenseLogKit
import Foundation

/// `summary`: totals per category for a month or a year, from the server first (as `fetch`), else from the cache.
enum SummaryCommand {
    static let month = Option<Int>("month", "month", .integer(1...12), help: "The month, 1 to 12; without it, the whole year month by month.")
    static let grouping = Option<SummaryGrouping>(choice: "by", "grouping", default: .category,
                                                  help: "Rows per category, or (sub) per category and sub-category.")
    static let format = Option<SummaryFormat>(choice: "format", "format", default: .table, help: "How to print the summary.")
    static let offline = Flag("offline", help: "Read the cache only; months not cached are reported missing.")
    static let refresh = Flag("refresh", help: "Never fall back to the cache: a month that cannot be fetched is missing.")

    static let spec = CommandSpec(
        name: "summary",
        abstract: "Total a month's or a year's items per category, with counts and shares.",
        discussion: """
            Every month is fetched from the server, as fetch does (a year's twelve months at once), and \
            cached, so items another device added are counted. A month that cannot be fetched (network, \
            429, 5xx) is read from the cache if it is there, with a warning (and "source": "cache" in \
            JSON); if it is not, the other months are summarised, the missing ones are named, and the exit \
            status is 69. --offline reads the cache only. Rows of the server's answer that cannot be read \
            are left out and named, and the exit status is 65 (--strict: the month is refused, 76). \
            Refunds (negative prices) reduce the totals; a share of a total that is 0 or negative is left out.

            EXAMPLES:
              expense-log summary --year 2024 --month 1
              expense-log summary --year 2024
              expense-log summary --year 2024 --month 1 --by sub
              expense-log summary --year 2024 --format csv > 2024-summary.csv
              expense-log summary --year 2024 --format json | jq '.months[] | {month, total}'
              expense-log summary --year 2024 --offline
            """,
        options: [CommonOptions.year.spec, month.spec, grouping.spec, format.spec, offline.spec, refresh.spec, CommonOptions.strict.spec],
        run: run)

    static func run(_ invocation: Invocation, _ context: Context) async throws {
        guard let year = invocation[CommonOptions.year] else {
            throw UsageError(path: invocation.path, message: "Missing expected argument '--year <year>'")
        }
        if invocation[offline], invocation[refresh] {
            throw UsageError(path: invocation.path, message: "--offline and --refresh cannot be used together")
        }
        let monthNumber = invocation[month]
        let months = (monthNumber.map { [$0] } ?? Array(1...12)).compactMap { YearMonth(year: year, month: $0) }
        let grouping = invocation[grouping] ?? .category
        let format = invocation[format] ?? .table
        let policy: MonthLoader.Policy = invocation[offline] ? .offline : invocation[refresh] ? .refresh : .preferServer

        let config = try context.config()
        let repository = context.repository(config)
        // Offline needs no base URL, as `fetch --offline`.
        let client = policy == .offline ? nil : try context.client(config)
        let loaded = await MonthLoader(client: client, repository: repository, strict: invocation[CommonOptions.strict])
            .load(months, policy: policy)
        await context.flushWarnings(repository)

        // What waiting will not fix (401/403, 404, a non-JSON answer, an unreadable cache) is never summarised around.
        if let permanent = loaded.compactMap(\.missing).first(where: { !$0.isTransient }) {
            switch permanent {
            case .api(let error): throw error
            case .store(let error): throw error
            case .notCached: break
            }
        }
        let missing = loaded.filter { $0.missing != nil }
        // With every month missing there is nothing to summarise: an all-zero summary would look like a month of no spending.
        if missing.count < loaded.count {
            let catalogue = config.catalogue.value
            let summary = Summary(year: year, month: monthNumber, grouping: grouping, catalogue: catalogue, loaded: loaded)
            context.io.stdout.write(SummaryWriter(catalogue: catalogue, japanese: context.japanese).render(summary, as: format))
        }
        SummarySources.report(loaded, context, config)
        for month in loaded { if let rows = month.rows { context.report(rows, of: month.month) } }
        context.reportLeftOut(loaded.reduce(0) { $0 + $1.unreadable.count })
        if !missing.isEmpty { throw CommandExit(code: .unavailable) }
        if loaded.contains(where: { !$0.unreadable.isEmpty }) { throw CommandExit(code: .dataError) }
        if loaded.contains(where: { $0.cacheFailure != nil }) { throw CommandExit(code: .ioError) }
    }
}
