import ExpenseLogKit
import Foundation

/// `fetch`'s arguments, decoded and checked once.
struct FetchOptions {
    let month: YearMonth
    /// `--offline`, `--refresh`, or the server with the cache to fall back on.
    let policy: MonthLoader.Policy
    let strict: Bool
    /// `--sort`, `--reverse`, `--category`, `--sub`: what is printed, never what is cached.
    let query: ItemQuery
    let format: OutputFormat

    /// Decodes the invocation; `--offline` with `--refresh`, or `--sub` without `--category`, is a usage error.
    init(_ invocation: Invocation) throws {
        typealias Command = FetchCommand
        month = try CommonOptions.yearMonth(invocation)
        format = CommonOptions.outputFormat(invocation)
        if invocation[Command.offline], invocation[Command.refresh] {
            throw UsageError(path: invocation.path, message: "--offline and --refresh cannot be used together")
        }
        policy = invocation[Command.offline] ? .offline : invocation[Command.refresh] ? .refresh : .preferServer
        strict = invocation[CommonOptions.strict]
        let category = invocation[Command.category], sub = invocation[Command.sub]
        // The same sub number names a different thing in each category (1 is Drink in Food, Transportation in Entertainment).
        if sub != nil, category == nil {
            throw UsageError(path: invocation.path, message: "--sub needs --category: sub-category numbers mean something only within a category")
        }
        query = ItemQuery(sort: invocation[Command.sort], reverse: invocation[Command.reverse], category: category, sub: sub)
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
