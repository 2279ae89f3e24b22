import ExpenseLogModel

/// One month of a summary.
public struct MonthSummary: Sendable, Equatable {
    /// The month.
    public let month: YearMonth
    /// Its totals (empty when missing).
    public let totals: SummaryTotals
    /// Where its items came from.
    public let source: MonthSource
    /// Why the cached copy was used instead of the server's, if it was.
    public let fallback: MonthFailure?

    /// Whether neither the server nor the cache could give it.
    public var isMissing: Bool {
        if case .missing = source { return true }
        return false
    }
}

/// A month's or a year's totals, with each month's own and where it came from.
public struct Summary: Sendable, Equatable {
    /// The period asked for: a month, a year, or a range of days.
    public let period: Period
    /// The year (a range's first).
    public var year: Int { period.months.first?.year ?? 0 }
    /// The month asked for, or nil for a year or a range (each month is then shown).
    public var month: Int? {
        if case .month(let month) = period { return month.month }
        return nil
    }
    /// How the rows are cut.
    public let grouping: SummaryGrouping
    /// Each month asked for, in order.
    public let months: [MonthSummary]
    /// The totals of every month that is not missing.
    public let totals: SummaryTotals
    /// How the period did against the budgets, when they were asked for.
    public let budget: BudgetReport?

    /// Sums loaded months (one for a month, twelve for a year, those of a range with only its days' items), and
    /// compares them with `budgets` counted `budgetMonths` times when given.
    public init(
        period: Period, grouping: SummaryGrouping, catalogue: CategoryCatalogue, loaded: [LoadedMonth],
        budgets: Budgets? = nil, budgetMonths: Int = 1
    ) {
        self.period = period
        let loaded =
            period.dayBounds.map { bounds in loaded.map { $0.keeping(from: bounds.from, to: bounds.to) } } ?? loaded
        self.grouping = grouping
        months = loaded.map {
            MonthSummary(
                month: $0.month, totals: SummaryTotals(items: $0.items, grouping: grouping, catalogue: catalogue),
                source: $0.source, fallback: $0.fallback)
        }
        totals = SummaryTotals(items: loaded.flatMap(\.items), grouping: grouping, catalogue: catalogue)
        budget = budgets.map { BudgetReport(items: loaded.flatMap(\.items), budgets: $0, months: budgetMonths) }
    }

    /// The months that could not be loaded.
    public var missingMonths: [YearMonth] { months.filter(\.isMissing).map(\.month) }
}
