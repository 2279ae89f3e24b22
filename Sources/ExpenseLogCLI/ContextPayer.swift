import ExpenseLogModel
import ExpenseLogUseCases

extension Context {
    /// Asks the server once (and remembers) whether it keeps who paid, so that the months read next carry it; a
    /// server that cannot be asked is read as before, without.
    func learnWhoPaid() async {
        _ = try? await ledger().availability(of: "payer", link: try link())
    }

    /// A period's first and last day (a month's or a year's whole), today's when it has no months.
    func span(of period: Period) -> (from: Day, to: Day) {
        period.dayBounds ?? (period.months.first?.firstDay ?? today, period.months.last?.lastDay ?? today)
    }
}
