import Foundation

/// A stretch of time a person names on the command line: a month, a year, or a range of months or days.
public enum Period: Sendable, Equatable {
    /// One month.
    case month(YearMonth)
    /// A whole year.
    case year(Int)
    /// From one day to another, both included (a range of months runs from the first's first day to the last's last).
    case days(from: Day, to: Day)

    /// Reads `2024` or `2024年` (a year), `2024-01`, `2024/1`, `202401` or `2024年1月` (a month), `10月` (that month,
    /// this year's or last year's when still to come), `今月`/`this-month`, `先月`/`last-month`, `今年`/`this-year`,
    /// `去年`/`last-year`, full-width digits too; nil for anything else.
    public init?(parsing text: String, now: Date = Date(), in zone: TimeZone = .current) {
        let trimmed = text.trimmingSpaces().precomposedStringWithCompatibilityMapping.lowercased()
        let current = YearMonth.current(now, in: zone)
        switch trimmed {
        case "今月", "this-month": self = .month(current)
        case "先月", "last-month": self = .month(current.previous)
        case "今年", "this-year": self = .year(current.year)
        case "去年", "昨年", "last-year": self = .year(current.year - 1)
        default:
            var plain = trimmed
            if plain.hasSuffix("月"), plain.contains("年") {
                // 2024年1月 → 2024-1
                plain = String(plain.dropLast()).replacingOccurrences(of: "年", with: "-")
            } else if plain.hasSuffix("年") {
                plain.removeLast()
            } else if plain.hasSuffix("月"), let number = Int(plain.dropLast()),
                let month = YearMonth(year: current.year, month: number)
            {
                // 10月 alone: this year's, or last year's when this year's has not come yet.
                self = .month(month > current ? YearMonth(year: current.year - 1, month: number) ?? month : month)
                return
            }
            if plain.count == 4, plain.allSatisfy(\.isASCIIDigit), let year = Int(plain),
                YearMonth(year: year, month: 1) != nil
            {
                self = .year(year)
            } else if let month = YearMonth(personText: plain) {
                self = .month(month)
            } else {
                return nil
            }
        }
    }

    /// How a title names it: `2024-01`, `2024`, `2024-01-15 – 2024-03-31`; in Japanese `2024年1月`, `2024年`,
    /// `2024年1月15日〜2024年3月31日`.
    public func title(japanese: Bool) -> String {
        func day(_ day: Day) -> String { japanese ? "\(day.year)年\(day.month)月\(day.day)日" : day.description }
        switch self {
        case .month(let month): return japanese ? "\(month.year)年\(month.month)月" : month.description
        case .year(let year): return japanese ? "\(year)年" : String(year)
        case let .days(from, to): return japanese ? day(from) + "〜" + day(to) : "\(day(from)) – \(day(to))"
        }
    }

    /// The months it touches, in order.
    public var months: [YearMonth] {
        switch self {
        case .month(let month): return [month]
        case .year(let year): return (1...12).compactMap { YearMonth(year: year, month: $0) }
        case let .days(from, to):
            var months: [YearMonth] = []
            var month = from.yearMonth
            while month <= to.yearMonth {
                months.append(month)
                month = month.next
            }
            return months
        }
    }

    /// The first and last day it holds, when it does not follow month edges (nil for a month or a year).
    public var dayBounds: (from: Day, to: Day)? {
        if case let .days(from, to) = self { return (from, to) }
        return nil
    }
}

extension Period {
    /// The range `--from`/`--to` name: each a day as a person gives it (`2024-01-15`, `11/20`, `昨日`), a month
    /// (`2024-01`, `10月`, `先月`: from its first day, to its last) or a year; nil when either is none of them, or the
    /// range runs backwards.
    public static func range(from: String, to: String, now: Date = Date(), in zone: TimeZone = .current) -> Period? {
        guard let start = Day(personBound: from, end: false, now: now, in: zone),
            let end = Day(personBound: to, end: true, now: now, in: zone),
            start <= end
        else { return nil }
        return .days(from: start, to: end)
    }

    /// Its first day (`end` false) or last.
    func bound(end: Bool) -> Day {
        switch self {
        case .month(let month): return end ? month.lastDay : month.firstDay
        case .year(let year): return Day(uncheckedYear: year, month: end ? 12 : 1, day: end ? 31 : 1)
        case let .days(from, to): return end ? to : from
        }
    }
}

extension Day {
    /// One end of a range: a day as a person gives it, else the first or last day of a month or a year.
    init?(personBound text: String, end: Bool, now: Date, in zone: TimeZone) {
        guard
            let day = Day(personDate: text, now: now, in: zone)
                ?? Period(parsing: text, now: now, in: zone)?.bound(end: end)
        else { return nil }
        self = day
    }

    /// Why text is no day a person could mean, for a message: the impossible day named (`2024-02-30`), or the word it
    /// most likely meant (`yesterdy`), then the forms that are read.
    public static func refusal(of text: String) -> String {
        if let why = impossibility(of: text) { return why }
        let words = Array(daysBack.keys) + weekdays.flatMap { $0 }
        if let meant = ClosestWord.to(text.trimmingSpaces().lowercased(), among: words) {
            return "'\(text)' is not a day. Did you mean '\(meant)'? Give \(personForms)"
        }
        return "'\(text)' is not a day: give \(personForms)"
    }

    /// Why text written as a date (`2024-02-30`, `2024/13/1`, `2024年2月30日`, full-width too) is none, for a message
    /// that names the impossible day rather than calling it no date at all; nil when it is not so written.
    public static func impossibility(of text: String) -> String? {
        let plain = text.trimmingSpaces().precomposedStringWithCompatibilityMapping
            .replacingOccurrences(of: "日", with: "").replacingOccurrences(of: "年", with: "-").replacingOccurrences(
                of: "月", with: "-")
        let parts = plain.split(whereSeparator: { $0 == "-" || $0 == "/" || $0 == "." }).map(String.init)
        guard parts.count == 3, parts[0].count == 4,
            parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCIIDigit) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        guard let first = YearMonth(year: year, month: month) else {
            return "\(text) is no day: a year has months 1 to 12"
        }
        let days = first.lastDay.day
        guard !(1...days).contains(day) else { return nil }
        return "\(text) is no day: \(first) has days 1 to \(days)"
    }
}

extension YearMonth {
    /// Reads `2024-01`, `2024-1`, `2024/1` or `202401`.
    init?(personText text: String) {
        let utf8 = Array(text.utf8)
        if utf8.count == 6, let value = Day.number(utf8[...]) {
            self.init(year: value / 100, month: value % 100)
            return
        }
        for separator in [UInt8(ascii: "-"), UInt8(ascii: "/")] {
            let parts = utf8.split(separator: separator, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 4, (1...2).contains(parts[1].count),
                let year = Day.number(parts[0]), let month = Day.number(parts[1])
            else { continue }
            self.init(year: year, month: month)
            return
        }
        return nil
    }

    /// The month before this one.
    public var previous: YearMonth {
        month == 1 ? YearMonth(uncheckedYear: year - 1, month: 12) : YearMonth(uncheckedYear: year, month: month - 1)
    }

    /// The month after this one.
    public var next: YearMonth {
        month == 12 ? YearMonth(uncheckedYear: year + 1, month: 1) : YearMonth(uncheckedYear: year, month: month + 1)
    }

    /// The month's last day.
    public var lastDay: Day {
        Day(uncheckedYear: year, month: month, day: Day.daysIn(year: year, month: month))
    }

    /// The month `now` falls in, in `zone` (the local one by default, so `TZ` is honoured).
    public static func current(_ now: Date = Date(), in zone: TimeZone = .current) -> YearMonth {
        Day.today(now, in: zone).yearMonth
    }
}

extension Day {
    /// A day, or a month read as its first (`end` false) or last (`end` true) day.
    init?(personText text: String, end: Bool) {
        let trimmed = text.trimmingSpaces()
        if let day = Day(parsing: trimmed) {
            self = day
        } else if let month = YearMonth(personText: trimmed) {
            self = end ? month.lastDay : month.firstDay
        } else {
            return nil
        }
    }

    /// The forms `init(personDate:)` reads, for messages.
    public static let personForms =
        "2024-01-05, 2024年1月5日, 11/20, 11月20日, today/今日, yesterday/昨日, 一昨日, a weekday (monday, 月曜) or -3d"

    /// A day as a person gives it: `2024-01-05`, `20240105`, `2024/1/5`, `2024年1月5日`, `11/20` or `11月20日` (this
    /// year's, or last year's when this year's is more than a week ahead), `today`/`今日`, `yesterday`/`昨日`, `一昨日`, a weekday (the last one,
    /// today included), or `-3d` (three days before today), full-width digits too; today is the calendar day `now` falls
    /// on in `zone`.
    public init?(personDate text: String, now: Date = Date(), in zone: TimeZone = .current) {
        // Full-width digits and separators (２０２６－１１－２０, １１／２０) as a Japanese keyboard types them; the long
        // vowel mark a Japanese input method gives for a minus (ー3d) is read as one.
        var trimmed = text.trimmingSpaces().precomposedStringWithCompatibilityMapping.lowercased()
        if trimmed.hasPrefix("ー") { trimmed = "-" + trimmed.dropFirst() }
        if trimmed.contains("年"), trimmed.hasSuffix("日") {
            // 2024年1月5日 → 2024/1/5
            trimmed = String(trimmed.dropLast()).replacingOccurrences(of: "年", with: "/").replacingOccurrences(
                of: "月", with: "/")
        }
        let today = Day.today(now, in: zone)
        if let back = Self.daysBack[trimmed] {
            self = today.adding(days: -back)
        } else if let weekday = Self.weekdays.firstIndex(where: { $0.contains(trimmed) }) {
            // The last such day, today included: `monday` typed on a Wednesday is two days ago.
            self = today.adding(days: -((today.weekday - weekday + 7) % 7))
        } else if trimmed.hasPrefix("-"), trimmed.hasSuffix("d"), let days = Int(trimmed.dropFirst().dropLast()),
            (0...36_500).contains(days)
        {
            self = today.adding(days: -days)
        } else if let day = Day(parsing: trimmed) {
            self = day
        } else if let day = Self.monthAndDay(trimmed, today: today) {
            self = day
        } else {
            return nil
        }
    }

    /// Words for a day counted back from today, in English and Japanese (kanji and kana).
    static let daysBack: [String: Int] = [
        "today": 0, "今日": 0, "きょう": 0, "yesterday": 1, "昨日": 1, "きのう": 1,
        "一昨日": 2, "おととい": 2, "おとつい": 2,
    ]

    /// Each weekday's names, Sunday first (as `weekday` counts): English, short English, and Japanese with and without 曜日.
    static let weekdays: [Set<String>] = [
        ["sunday", "sun", "日曜", "日曜日"], ["monday", "mon", "月曜", "月曜日"], ["tuesday", "tue", "火曜", "火曜日"],
        ["wednesday", "wed", "水曜", "水曜日"], ["thursday", "thu", "木曜", "木曜日"], ["friday", "fri", "金曜", "金曜日"],
        ["saturday", "sat", "土曜", "土曜日"],
    ]

    /// How many days ahead a month and day may be and still be this year's: `12/8` typed on December 7th is tomorrow
    /// (a purchase booked ahead, or a slip of a key), not a day eleven months ago; further ahead than a week, last year's.
    static let daysAheadThisYear = 7

    /// `11/20` or `11-20` (and `11月20日`): that day this year, or last year when this year's is more than a week ahead
    /// (`12/30` typed on January 5th).
    static func monthAndDay(_ text: String, today: Day) -> Day? {
        let parts = text.replacingOccurrences(of: "日", with: "").split(whereSeparator: {
            $0 == "/" || $0 == "-" || $0 == "月"
        })
        guard parts.count == 2, parts.allSatisfy({ $0.count <= 2 && $0.allSatisfy(\.isASCIIDigit) }),
            let month = Int(parts[0]), let day = Int(parts[1])
        else { return nil }
        guard let this = Day(year: today.year, month: month, day: day) else {
            // 2/29 in a year without it: the last year that had it, if it was last year.
            return Day(year: today.year - 1, month: month, day: day)
        }
        return this.daysSinceEpoch - today.daysSinceEpoch > daysAheadThisYear
            ? Day(year: today.year - 1, month: month, day: day) : this
    }

    /// The day of the week, 0 for Sunday to 6 for Saturday.
    public var weekday: Int { ((daysSinceEpoch % 7) + 7 + 4) % 7 }

    /// The day `days` after this one (before, when negative).
    public func adding(days: Int) -> Day {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        guard let start = calendar.date(from: DateComponents(year: year, month: month, day: day)),
            let moved = calendar.date(byAdding: .day, value: days, to: start)
        else { return self }
        return Day.today(moved, in: calendar.timeZone)
    }

    /// The calendar day `now` falls on in `zone` (the local one by default, so `TZ` is honoured).
    public static func today(_ now: Date = Date(), in zone: TimeZone = .current) -> Day {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        return Day(uncheckedYear: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    }
}

extension Character {
    /// `0`…`9` only (not other scripts' digits).
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
