/// A fixed cost (固定費) that comes back on one day every month or every year: rent on the 27th, a yearly insurance
/// premium in April. Its occurrences are what `recurring post` registers, each once, under an id made from the rule and
/// the month it falls in (issue 49).
public struct RecurringRule: Sendable, Equatable {
    /// How often it comes back.
    public enum Every: String, Sendable, CaseIterable {
        case month, year
    }

    /// The rule's own id, which its occurrences' ids are made from (kept when the rule is edited).
    public var id: String
    /// The name each occurrence is registered under.
    public var name: String
    /// The yen each occurrence costs.
    public var price: Int
    /// The range a statement row's amount may fall in and still be this rule's occurrence (`--about`); nil: the price
    /// only.
    public var about: ClosedRange<Int>?
    /// The day of the month, 1–31: a day past a month's end falls on its last day (the 31st on February 28th).
    public var day: Int
    /// Monthly or yearly.
    public var every: Every
    /// A yearly rule's month, 1–12 (nil for a monthly one).
    public var month: Int?
    /// The category each occurrence takes.
    public var category: Int
    /// The sub-category, or nil.
    public var categorySub: Int?
    /// The first month it applies to, if any.
    public var from: YearMonth?
    /// The last month it applies to, if any.
    public var until: YearMonth?

    /// A rule with every part given.
    public init(
        id: String, name: String, price: Int, about: ClosedRange<Int>? = nil, day: Int, every: Every = .month,
        month: Int? = nil, category: Int, categorySub: Int? = nil, from: YearMonth? = nil, until: YearMonth? = nil
    ) {
        (self.id, self.name, self.price, self.about, self.day) = (id, name, price, about, day)
        (self.every, self.month, self.category, self.categorySub) = (every, month, category, categorySub)
        (self.from, self.until) = (from, until)
    }

    /// Its occurrence in `month`, or nil when it has none there (another month of a yearly rule, or outside
    /// `from`…`until`).
    public func occurrence(in month: YearMonth) -> RecurringOccurrence? {
        if let from, month < from { return nil }
        if let until, until < month { return nil }
        if every == .year, month.month != (self.month ?? 1) { return nil }
        let last = month.lastDay.day
        guard let date = Day(year: month.year, month: month.month, day: min(max(day, 1), last)) else { return nil }
        return RecurringOccurrence(rule: self, month: month, date: date)
    }

    /// Its occurrences dated from `start` through `end`, oldest first.
    public func occurrences(from start: Day, through end: Day) -> [RecurringOccurrence] {
        guard start <= end else { return [] }
        var found: [RecurringOccurrence] = []
        var month = start.yearMonth
        while month <= end.yearMonth {
            if let occurrence = occurrence(in: month), start <= occurrence.date, occurrence.date <= end {
                found.append(occurrence)
            }
            month = month.next
        }
        return found
    }

    /// Whether a statement row's amount is this rule's: its price, or within `about`.
    public func accepts(price: Int) -> Bool {
        price == self.price || about?.contains(price) == true
    }
}

/// One occurrence of a rule: the month it falls in and its day there.
public struct RecurringOccurrence: Sendable, Equatable {
    /// The rule it is of.
    public let rule: RecurringRule
    /// The month it falls in.
    public let month: YearMonth
    /// Its day (a rule's day past the month's end falls on the last day).
    public let date: Day

    /// The id it is registered under: made from the rule's id and the month alone, so a second `recurring post`, another
    /// machine's, or one after an edit of the rule's price names the same item and never registers it twice.
    public var id: String {
        DerivedID.make(content: Array("recurring \(rule.id) \(month)".utf8), occurrence: 1)
    }

    /// The item it registers.
    public var item: Item {
        Item(
            id: id, date: date, name: rule.name, price: rule.price, category: rule.category,
            categorySub: rule.categorySub)
    }
}
