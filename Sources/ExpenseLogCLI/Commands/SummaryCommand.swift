import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// `summary`: totals per category for a month or a year, from the server first (as `fetch`), else from the cache.
struct SummaryCommand: ParsableCommand {
    static let offline = Flag("offline", help: "Read the cache only; months not cached are reported missing.")
    static let refresh = Flag(
        "refresh", help: "Never fall back to the cache: a month that cannot be fetched is missing.")
    static let sentOnly = Flag(
        "sent-only", help: "Count only what the server has, not the items still waiting in the outbox.")

    @Opt(CommonOptions.year) var year: Int?
    @Opt(CommonOptions.month) var month: Int?
    @Opt(CommonOptions.from) var from: String?
    @Opt(CommonOptions.to) var to: String?
    @Opt(
        choice: "by", "grouping", default: .category,
        help: "Rows per category, (sub) per category and sub-category, or (payer) per person who paid."
    )
    var grouping: SummaryGrouping?
    @Opt(choice: "format", "format", default: .table, help: "How to print the summary.") var format: SummaryFormat?
    @Flg(SummaryCommand.offline) var offline: Bool
    @Flg(SummaryCommand.refresh) var refresh: Bool
    @Flg(SummaryCommand.sentOnly) var sentOnly: Bool
    @Flg("budget", help: "Compare with the config file's budgets; exit 3 when one is overspent.") var budget: Bool
    @Opt(
        Option(
            "forecast", "months", .integer(0...120),
            help: "Add this many months after the period and count the fixed costs they expect (and this month's)."))
    var forecast: Int?
    @Flg(CommonOptions.strict) var strict: Bool
    @Arg(CommonOptions.period) var period: String?

    static let about = CommandAbout(
        name: "summary",
        abstract: "Total a month's (this month by default) or a year's items per category, with counts and shares.",
        discussion: """
            Every month is fetched from the server, as fetch does (a year's twelve months at once), and \
            cached, so items another device added are counted. A month that cannot be fetched (network, \
            429, 5xx) is read from the cache if it is there, with a warning (and "source": "cache" in \
            JSON); if it is not, the other months are summarised, the missing ones are named, and the exit \
            status is 69. --offline reads the cache only. Rows of the server's answer that cannot be read \
            are left out and named, and the exit status is 65 (--strict: the month is refused, 76). \
            Refunds (negative prices) reduce the totals; a share of a total that is 0 or negative is left out.

            FIXED COSTS (`expense-log recurring`): an occurrence due this month and not yet registered is named on \
            stderr, not counted. --forecast N adds N months after the period and counts what the fixed costs \
            expect in this month and those (each named), whatever real items those months already have; a period \
            wholly to come (next year's March) is a forecast too. The rules are those this machine last read \
            (`recurring list` reads them again): a summary asks the server nothing more.

            Without a period, this month (local time: TZ is honoured); --year alone is the whole year month by \
            month, --month alone that month of this year.

            EXAMPLES:
              expense-log summary
              expense-log summary 2024-01
              expense-log summary 2024
              expense-log summary --year 2024 --month 1 --by sub
              expense-log summary --year 2024 --format csv > 2024-summary.csv
              expense-log summary --year 2024 --format json | jq '.months[] | {month, total}'
              expense-log summary --year 2024 --offline
              expense-log summary --budget; [ $? -eq 3 ] && notify-send "over budget"
              expense-log summary --forecast 2 --budget
              expense-log summary 2024 --format svg > 2024.svg

            BUDGETS: the config file's "budgets" give yen per month for the total, a category or a \
            category/sub (expense-log config set budgets.食費 30000). --budget adds a table (or a "budget" \
            object in JSON) of budget, spent, left and the share used; a year counts each monthly budget for \
            its months up to this one (with --forecast, every month asked). The exit status is 3 when a budget is overspent (after the output), so \
            a cron job or CI can alert on it; an error's own status wins.
            """)

    func run(_ context: Context) async throws -> ExitCode {
        let range = try CommonOptions.range(
            from: from, to: to, context, otherPeriod: self.period != nil || year != nil || month != nil)
        var (period, policy) = try Self.periodAndPolicy(
            range ?? CommonOptions.period(self.period, year: year, month: month, context, now: context.now),
            offline: offline, refresh: refresh, context)
        let now = context.today.yearMonth
        if forecast != nil, sentOnly {
            throw UsageError(
                path: context.invocation.path,
                message: "--forecast counts fixed costs not yet registered, --sent-only only what the server has: "
                    + "give one of them")
        }
        if let forecast, forecast > 0, let first = period.months.first, let last = period.months.last {
            var end = last
            for _ in 0..<forecast { end = end.next }
            period = .days(from: first.firstDay, to: end.lastDay)
        }
        // A forecast counts what the months expect: asked for, or a period wholly to come (2027-03 in 2026).
        let forecasting = forecast != nil || (period.months.first.map { $0 > now } ?? false)
        let months = period.months
        let grouping = grouping ?? .category
        let format = format ?? .table

        let config = try context.config()
        // A budget is a month's: a range that cuts a month would compare part of a month with all of its budget.
        if budget, let bounds = period.dayBounds, bounds.from.day != 1 || bounds.to != bounds.to.yearMonth.lastDay {
            throw UsageError(
                path: context.invocation.path,
                message: "--budget compares whole months; give --from/--to as months "
                    + "(2026-01), or leave them out")
        }
        let budgets = try budget ? Self.budgets(config, format: format, context) : nil
        if grouping == .payer {
            guard format == .table || format == .json, !budget, forecast == nil else {
                throw UsageError(
                    path: context.invocation.path,
                    message: "--by payer prints a table or JSON, without --budget or --forecast")
            }
            // Who paid comes only from a script known to keep it: asked once (and remembered).
            if policy != .offline {
                await context.learnWhoPaid()
            }
        }
        let read = try await context.readMonths(months, policy: policy, strict: strict, withWaiting: !sentOnly)
        var loaded = sentOnly ? read.loaded : WaitingCount.counted(read.loaded, waiting: read.waiting, context)
        if !sentOnly {
            let expected = ExpectedCosts.find(loaded, waiting: read.waiting, context)
            if forecasting {
                loaded = ExpectedCosts.counted(loaded, expected, context)
            } else {
                ExpectedCosts.say(expected, counted: false, context)
            }
        }

        if grouping == .payer {
            try PayerTotalsText.summary(loaded, period: period, json: format == .json, config, context)
            return .success
        }
        var over = false
        try SummarySources.show(loaded, context, config, subject: "the summary", verb: "counted") {
            let catalogue = config.catalogue.value
            let summary = Summary(
                period: period, grouping: grouping, catalogue: catalogue, loaded: loaded, budgets: budgets,
                budgetMonths: BudgetReport.months(
                    of: months, missing: Set(loaded.filter { $0.missing != nil }.map(\.month)),
                    now: forecasting ? max(now, months.last ?? now) : now))
            context.title(period, format == .table ? .table : .json)
            context.io.stdout.write(
                SummaryWriter(catalogue: catalogue, japanese: context.japanese).render(summary, as: format))
            over = summary.budget?.isOver ?? false
        }
        if over { throw CommandExit(code: .overBudget) }
        return .success
    }
}
