import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// `report`: a month's or a year's spending as one self-contained HTML page with charts, written to a file.
struct ReportCommand: ParsableCommand {
    @Opt(CommonOptions.year) var year: Int?
    @Opt(CommonOptions.month) var month: Int?
    @Opt(
        "output", short: "o", "file", .path,
        help: "The page to write (default: expense-log-PERIOD.html here; - for stdout).")
    var output: String?
    @Flg(SummaryCommand.offline) var offline: Bool
    @Flg(SummaryCommand.refresh) var refresh: Bool
    @Flg(SummaryCommand.sentOnly) var sentOnly: Bool
    @Arg(CommonOptions.period) var period: String?

    static let about = CommandAbout(
        name: "report",
        abstract: "Write a month's (this month by default) or a year's spending as an HTML page with charts.",
        discussion: """
            The page is one file with everything inside: charts drawn as SVG, no script, no font or \
            stylesheet from the network, so it opens offline, prints on A4 and reads on a phone. A month \
            has a donut by category and one by sub-category, a table of totals and shares, and the items \
            by date; a year has a bar per month stacked by category with its total above it, and a table \
            per month. A category keeps its colour on every page (Okabe and Ito's palette, told apart with \
            the common colour-vision deficiencies). With budgets in the config file, a chart compares them \
            with what was spent, and a year's bars show the monthly budget as a line. Months are loaded as \
            summary loads them (the server first, the cache when it fails), and the page says which came \
            from the cache and when they were fetched. Words follow the locale (LANG=ja_JP.UTF-8: Japanese).

            EXAMPLES:
              expense-log report
              expense-log report 2024-01 -o january.html
              expense-log report 2024 --offline
              expense-log report 2024 -o - | gzip > 2024.html.gz
            """)

    func run(_ context: Context) async throws -> ExitCode {
        let (period, policy) = try SummaryCommand.periodAndPolicy(
            try CommonOptions.period(self.period, year: year, month: month, context, now: context.now),
            offline: offline, refresh: refresh, context)
        let config = try context.config()
        // Who paid comes only from a script known to keep it: asked once (and remembered).
        if policy != .offline { await context.learnWhoPaid() }
        // Read once: counted (unless --sent-only), and among the ids a month's short ids are told apart from.
        let read = try await context.readMonths(period.months, policy: policy, strict: false, withWaiting: true)
        let waiting = read.waiting
        let loaded = sentOnly ? read.loaded : WaitingCount.counted(read.loaded, waiting: waiting, context)
        // A month's fixed costs still to come are drawn apart in its items, not counted.
        let expected =
            sentOnly || period.months.count != 1
            ? [] : ExpectedCosts.find(read.loaded, waiting: waiting, context).map(\.item)
        let name = output ?? "expense-log-\(period.title(japanese: false)).html"
        var failure: (any Error)?
        // A page that could not be written is the worse news: 74, even when a month was missing (69).
        defer {
            if let failure {
                context.io.stderr.write(
                    context.say(
                        "Error: could not write \(ArgumentBytes.display(name)): ",
                        ja: "エラー: \(ArgumentBytes.display(name)) に書けません: ")
                        + context.describe(failure) + "\n")
            }
        }
        do {
            // A month's item table starts with short ids, unique among everything edit and delete search.
            let ids =
                if case .month = period { await ReportIDs.of(waiting: waiting, context, config) } else {
                    ([String: String](), Set<String>())
                }
            try Self.show(
                loaded, context, config, period: period, ids: ids, expected: expected,
                defaults: try SettleCommand.defaults(config, context), name: name, failure: &failure)
        } catch  where failure != nil {
            throw CommandExit(code: .ioError)
        }
        if failure != nil { throw CommandExit(code: .ioError) }
        return .success
    }

    private static func show(
        _ loaded: [LoadedMonth], _ context: Context, _ config: AppConfig, period: Period,
        ids: (short: [String: String], waiting: Set<String>), expected: [Item], defaults: ShareDefaults,
        name: String, failure: inout (any Error)?
    ) throws {
        try SummarySources.show(loaded, context, config, subject: "the report", verb: "shown") {
            let catalogue = config.catalogue.value
            let summary = Summary(
                period: period, grouping: .category, catalogue: catalogue, loaded: loaded,
                budgets: config.budgets?.value,
                budgetMonths: BudgetReport.months(
                    of: period.months, missing: Set(loaded.filter { $0.missing != nil }.map(\.month)),
                    now: YearMonth.current()))
            var report = ReportPage(catalogue: catalogue, japanese: context.japanese)
            (report.shortIDs, report.waitingIDs, report.expected) = (ids.short, ids.waiting, expected)
            let bounds = context.span(of: period)
            report.payers = PayerTotals(
                items: loaded.flatMap(\.items).filter { $0.date >= bounds.from && $0.date <= bounds.to }
                    .map(defaults.applied(to:)))
            let page = report.render(summary, loaded: loaded)
            do { try write(page, to: name, context) } catch { failure = error }
        }
    }

    /// Writes the page (atomically, so an open browser never reads half of it), or prints it for `-`.
    private static func write(_ page: String, to name: String, _ context: Context) throws {
        guard name != "-" else {
            context.io.stdout.write(page)
            return
        }
        let url = URL(fileURLWithPath: name)
        try DocumentFile.save(page, to: url)
        context.note(
            context.say(
                "Wrote \(url.standardizedFileURL.path); open it in a browser (file://\(url.standardizedFileURL.path)).",
                ja: "\(url.standardizedFileURL.path) に書きました。ブラウザーで開いてください (file://\(url.standardizedFileURL.path))。"))
    }
}
