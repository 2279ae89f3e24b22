import ExpenseLogModel
import Foundation

extension Context {
    /// The calendar day fixed costs and default periods are reckoned from: `EXPENSE_LOG_TODAY` (a day such as 2027-01-15:
    /// a forecast as of another day, and tests that must not depend on the date they run), else today in the local
    /// time zone.
    var today: Day {
        givenToday ?? Day.today()
    }

    /// Noon of `today` when `EXPENSE_LOG_TODAY` sets it, else the present moment: what "this month" is read against.
    var now: Date {
        guard let day = givenToday else { return Date() }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12)) ?? Date()
    }

    private var givenToday: Day? {
        environment["EXPENSE_LOG_TODAY"].flatMap { Day(parsing: $0.trimmingSpaces()) }
    }
}
