import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// `fetch`'s arguments, decoded and checked once.
struct FetchOptions {
    /// A month, a year, or the range `--from`/`--to` name.
    let period: Period
    /// `--offline`, `--refresh`, or the server with the cache to fall back on.
    let policy: MonthLoader.Policy
    let strict: Bool
    let format: OutputFormat
    private let category: String?, sub: String?
    private let sort: ItemSort?, reverse: Bool
    private let name: String?, minPrice: Int?, maxPrice: Int?

    /// Decodes the invocation; `--offline` with `--refresh`, `--sub` without `--category`, or a range with another
    /// period is a usage error.
    init(_ invocation: Invocation) throws {
        typealias Command = FetchCommand
        let fail = { (message: String) in UsageError(path: invocation.path, message: message) }
        period = try CommonOptions.range(invocation) ?? CommonOptions.period(invocation)
        format = CommonOptions.outputFormat(invocation)
        if invocation[Command.offline], invocation[Command.refresh] { throw fail("--offline and --refresh cannot be used together") }
        policy = invocation[Command.offline] ? .offline : invocation[Command.refresh] ? .refresh : .preferServer
        strict = invocation[CommonOptions.strict]
        (category, sub) = (invocation[Command.category], invocation[Command.sub])
        // The same sub number names a different thing in each category (1 is Drink in Food, Transportation in Entertainment).
        if sub != nil, category == nil { throw fail("--sub needs --category: a sub-category means something only within a category") }
        (sort, reverse) = (invocation[Command.sort], invocation[Command.reverse])
        (name, minPrice, maxPrice) = (invocation[Command.name], invocation[Command.min], invocation[Command.max])
    }

    /// What is printed: the filters, with category names read from the catalogue in force (an unknown one is a usage
    /// error naming what it has).
    func query(_ catalogue: CategoryCatalogue, _ invocation: Invocation) throws -> ItemQuery {
        var categoryNumber: Int?, subNumber: Int?
        do {
            if let category {
                (categoryNumber, subNumber) = try catalogue.resolve(category)
                if let sub, let number = categoryNumber { subNumber = try catalogue.resolveSub(sub, in: number) }
            }
        } catch {
            throw UsageError(path: invocation.path, message: "\(error.message) (`expense-log categories` lists them)")
        }
        return ItemQuery(sort: sort, reverse: reverse, category: categoryNumber, sub: subNumber, name: name, minPrice: minPrice,
                         maxPrice: maxPrice, from: period.dayBounds?.from, to: period.dayBounds?.to)
    }
}

/// "5 minutes ago", "3 hours ago", "2 days ago": how stale a cached copy is, at a glance.
enum Age {
    /// The time from `date` to `now` in its largest sensible unit.
    static func text(of date: Date, now: Date = Date()) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        let (value, unit) = seconds < 120 ? (seconds, "second") : seconds < 7200 ? (seconds / 60, "minute")
            : seconds < 172_800 ? (seconds / 3600, "hour") : (seconds / 86_400, "day")
        return "\(value) \(unit)\(value == 1 ? "" : "s") ago"
    }
}
