/// A calendar day (year, month, day) with no time zone, so nothing can move a purchase to another day.
public struct Day: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The Gregorian year.
    public let year: Int
    /// The month, 1–12.
    public let month: Int
    /// The day of the month, 1–31.
    public let day: Int

    /// A day when the three numbers name a real Gregorian date, else nil.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Day.daysIn(year: year, month: month)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// A day known to be real (the first of a month of a `YearMonth`).
    init(uncheckedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses the wire form `yyyyMMdd`, or the import forms `yyyy-MM-dd` and `yyyy/M/d`.
    public init?(parsing text: String) {
        let utf8 = Array(text.utf8)
        if utf8.count == 8, let value = Day.number(utf8[...]) {
            self.init(year: value / 10000, month: value / 100 % 100, day: value % 100)
            return
        }
        for separator in [UInt8(ascii: "-"), UInt8(ascii: "/")] {
            let parts = utf8.split(separator: separator, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4,
                (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
                let y = Day.number(parts[0]), let m = Day.number(parts[1]), let d = Day.number(parts[2])
            else { continue }
            // yyyy-MM-dd is ISO: two digits each; yyyy/M/d allows one.
            if separator == UInt8(ascii: "-"), parts[1].count != 2 || parts[2].count != 2 { return nil }
            self.init(year: y, month: m, day: d)
            return
        }
        return nil
    }

    /// The wire form, `yyyyMMdd`.
    public var compact: String { Day.pad(year, 4) + Day.pad(month, 2) + Day.pad(day, 2) }
    /// The readable form, `yyyy-MM-dd`.
    public var description: String { Day.pad(year, 4) + "-" + Day.pad(month, 2) + "-" + Day.pad(day, 2) }
    /// The month this day falls in.
    public var yearMonth: YearMonth { YearMonth(uncheckedYear: year, month: month) }

    /// Earlier first.
    public static func < (lhs: Day, rhs: Day) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// The number of days in a month of the Gregorian calendar.
    public static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (negative before it), by Howard Hinnant's days-from-civil algorithm.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// ASCII digits only: `Int("+1")` and friends would accept signs.
    public static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }

    /// `value` in decimal with leading zeros to `width` digits (`pad(5, 2)` is `05`).
    public static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// A month of a year: the unit the server's sheets and the cache's files are cut in.
public struct YearMonth: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, 1–9999.
    public let year: Int
    /// The month, 1–12.
    public let month: Int

    /// A month when both numbers are in range, else nil.
    public init?(year: Int, month: Int) {
        guard (1...9999).contains(year), (1...12).contains(month) else { return nil }
        self.year = year
        self.month = month
    }

    init(uncheckedYear year: Int, month: Int) {
        self.year = year
        self.month = month
    }

    /// Parses `yyyy-MM`, the cache file's name.
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
            let y = Day.number(ArraySlice(parts[0].utf8)), let m = Day.number(ArraySlice(parts[1].utf8))
        else { return nil }
        self.init(year: y, month: m)
    }

    /// `yyyy-MM`.
    public var description: String { Day.pad(year, 4) + "-" + Day.pad(month, 2) }
    /// The month's first day.
    public var firstDay: Day { Day(uncheckedYear: year, month: month, day: 1) }
    /// The `yyyyMM` prefix every wire date of this month starts with.
    public var compactPrefix: String { Day.pad(year, 4) + Day.pad(month, 2) }

    /// Earlier first.
    public static func < (lhs: YearMonth, rhs: YearMonth) -> Bool {
        (lhs.year, lhs.month) < (rhs.year, rhs.month)
    }
}

extension YearMonth {
    /// The months given, oldest first, each once: sorted, then each run kept once (hashing every item's month cost
    /// more; a batch of 500 items is queued for every 500 rows of an import).
    public static func distinct(_ months: [YearMonth]) -> [YearMonth] {
        var distinct: [YearMonth] = []
        for month in months.sorted() where distinct.last != month { distinct.append(month) }
        return distinct
    }
}
