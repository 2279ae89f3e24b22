import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// What `fetch`'s options mean together, checked once: the period, how to load it, and the filters.
extension FetchCommand {
    /// A month, a year, or the range `--from`/`--to` name; `--offline`, `--refresh`, or the server with the cache to fall
    /// back on. `--offline` with `--refresh`, or a range with another period, is a usage error.
    func periodAndPolicy(_ context: Context) throws -> (Period, MonthLoader.Policy) {
        let period =
            try CommonOptions.range(
                from: from, to: to, context, otherPeriod: self.period != nil || year != nil || month != nil)
            ?? CommonOptions.period(self.period, year: year, month: month, context, now: context.now)
        if offline, refresh {
            throw UsageError(path: context.invocation.path, message: "--offline and --refresh cannot be used together")
        }
        return (period, offline ? .offline : refresh ? .refresh : .preferServer)
    }

    /// What is printed: the filters, with category names read from the catalogue in force (an unknown one is a usage
    /// error naming what it has); `--sub` without `--category` is one too.
    func query(_ period: Period, _ catalogue: CategoryCatalogue, _ context: Context) throws -> ItemQuery {
        // The same sub number names a different thing in each category (1 is Drink in Food, Transportation in Entertainment).
        if sub != nil, category == nil {
            throw UsageError(
                path: context.invocation.path,
                message: "--sub needs --category: a sub-category means something only within a category")
        }
        var categoryNumber: Int?, subNumber: Int?
        do {
            if let category {
                (categoryNumber, subNumber) = try catalogue.resolve(category)
                if let sub, let number = categoryNumber { subNumber = try catalogue.resolveSub(sub, in: number) }
            }
        } catch {
            throw UsageError(
                path: context.invocation.path, message: "\(error.message) (`expense-log categories` lists them)")
        }
        // By date unless asked otherwise: the sheet's order is the order rows were added, which a person never asked for.
        var query = ItemQuery(
            sort: sort ?? .date, reverse: reverse, category: categoryNumber, sub: subNumber, name: name, minPrice: min,
            maxPrice: max, from: period.dayBounds?.from, to: period.dayBounds?.to)
        query.payer = payer?.trimmingSpaces()
        if payer != nil { query.shareDefaults = try SettleCommand.defaults(try context.config(), context) }
        return query
    }
}

/// "5 minutes ago", "3 hours ago", "2 days ago": how stale a cached copy is, at a glance.
enum Age {
    /// The time from `date` to `now` in its largest sensible unit.
    static func text(of date: Date, now: Date = Date()) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        let (value, unit) =
            seconds < 120
            ? (seconds, "second")
            : seconds < 7200
                ? (seconds / 60, "minute")
                : seconds < 172_800 ? (seconds / 3600, "hour") : (seconds / 86_400, "day")
        return "\(value) \(unit)\(value == 1 ? "" : "s") ago"
    }
}
