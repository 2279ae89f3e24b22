import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogRendering
import Foundation

/// Options several commands share, declared once.
enum CommonOptions {
    static let format = Option<OutputFormat>(
        choice: "format", short: "f", "format", default: .table, help: "How to print the items.")
    static let year = Option<Int>("year", "year", .year, help: "The year, four digits (2024); alone, the whole year.")
    static let month = Option<Int>("month", "month", .integer(1...12), help: "The month, 1 to 12; alone, of this year.")
    /// The standard catalogue's names as completion offers them: `food`, `食費`, `food/drink`, `食費/飲料`…
    static let categoryWords: [String] = CategoryCatalogue.standard.categories.flatMap { category in
        [category.english.lowercased(), category.japanese]
            + category.subs.flatMap {
                ["\(category.english.lowercased())/\($0.english.lowercased())", "\(category.japanese)/\($0.japanese)"]
            }
    }
    /// The standard catalogue's sub-category names as completion offers them for `--sub`: `drink`, `飲料`…
    static let subWords: [String] = CategoryCatalogue.standard.categories.flatMap { category in
        category.subs.flatMap { [$0.english.lowercased(), $0.japanese] }
    }
    static let period = Argument<String?>(
        optional: "period", help: "A month (2024-01, 2024年1月, 10月, 先月) or a year (2024, 今年); default: this month.")
    /// `--format` of a listing (`config show`, `cache list`): a table for people, JSON for scripts.
    static let listingFormat = Option<ListingFormat>(
        choice: "format", short: "f", "format", default: .table, help: "How to print it.")
    static let from = Option<String>(
        "from", "day-or-month",
        help: "From this day (2024-01-15, 11/20, 昨日) or month (2024-01, 10月, 先月) on; "
            + "with --to, a range.")
    static let to = Option<String>(
        "to", "day-or-month", help: "Up to this day or month (default: this month); needs --from.")
    static let strict = Flag(
        "strict", help: "Refuse a month whole (exit 76) when a row of the server's answer cannot be read.")

    /// The period a reading command is about: the `period` argument, or `--year`/`--month` (either alone: the whole year,
    /// or that month of this year), else the month `now` falls in (local time, so `TZ` is honoured). Both forms at once,
    /// or an argument that is no period, is a usage error.
    static func period(
        _ text: String?, year: Int?, month: Int?, _ context: Context, now: Date = Date()
    ) throws -> Period {
        if let text {
            guard year == nil, month == nil else {
                throw UsageError(
                    path: context.invocation.path,
                    message: "Give the period as '\(text)' or with --year/--month, not both")
            }
            guard let period = Period(parsing: text, now: now) else {
                throw UsageError(
                    path: context.invocation.path,
                    message: "'\(text)' is not a month (2024-01, 2024年1月, 10月, 先月) or a year (2024, 今年)")
            }
            return period
        }
        let current = YearMonth.current(now)
        switch (year, month) {
        case let (year?, month?): return YearMonth(year: year, month: month).map(Period.month) ?? .year(year)
        case let (year?, nil): return .year(year)
        case let (nil, month?): return YearMonth(year: current.year, month: month).map(Period.month) ?? .month(current)
        case (nil, nil): return .month(current)
        }
    }
}

extension CommonOptions {
    /// The range `--from`/`--to` give (nil when neither is given): a usage error when it runs backwards, names an
    /// impossible day, spans more than ten years, or comes with another period (`otherPeriod`: the period argument or
    /// `--year`/`--month`).
    static func range(
        from: String?, to: String?, _ context: Context, otherPeriod: Bool = false, now: Date = Date()
    ) throws -> Period? {
        let fail = { (message: String) in UsageError(path: context.invocation.path, message: message) }
        guard let from else {
            if to != nil { throw fail("--to needs --from") }
            return nil
        }
        let to = to ?? YearMonth.current(now).description
        guard !otherPeriod else {
            throw fail("--from/--to give the period; leave out the period argument and --year/--month")
        }
        for (option, text) in [("--from", from), ("--to", to)] where Period.range(from: text, to: text, now: now) == nil
        {
            throw fail(
                "\(option) "
                    + (Day.impossibility(of: text) ?? "\(Day.refusal(of: text)), or a month (2024-01, 10月, 先月)"))
        }
        guard let range = Period.range(from: from, to: to, now: now) else {
            throw fail("--from \(from) --to \(to) runs backwards: the range starts after it ends")
        }
        // A typo such as --from 2004-01 would send hundreds of requests to the web app: ten years is plenty.
        guard range.months.count <= 120 else {
            throw fail(
                "--from \(from) --to \(to) spans \(range.months.count) months; a range is at most 120 (ten years)")
        }
        return range
    }
}

/// How a listing is printed.
enum ListingFormat: String, CaseIterable, Sendable {
    /// Aligned columns with a heading.
    case table
    /// One JSON document.
    case json
}
