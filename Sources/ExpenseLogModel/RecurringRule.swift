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
    /// Other words a statement names it by (`ﾔﾏﾀﾞﾌﾄﾞｳｻﾝ` for rent paid to a landlord), besides its name.
    public var match: [String]

    /// A rule with every part given.
    public init(
        id: String, name: String, price: Int, about: ClosedRange<Int>? = nil, day: Int, every: Every = .month,
        month: Int? = nil, category: Int, categorySub: Int? = nil, from: YearMonth? = nil, until: YearMonth? = nil,
        match: [String] = []
    ) {
        (self.id, self.name, self.price, self.about, self.day) = (id, name, price, about, day)
        (self.every, self.month, self.category, self.categorySub) = (every, month, category, categorySub)
        (self.from, self.until, self.match) = (from, until, match)
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

    /// Whether a statement row's name is this rule's: it holds the rule's name or one of its `match` words (NFKC, case
    /// and kana folded, spaces left out; a word of one character names nothing). Not the reverse: a row `AMAZON` is not
    /// the rule `Amazonプライム`.
    public func relates(to name: String) -> Bool {
        let row = Self.folded(name)
        guard !row.isEmpty else { return false }
        return ([self.name] + match).contains { word in
            let folded = Self.folded(word)
            return folded.count >= 2 && row.contains(folded)
        }
    }

    /// `¥4,000–¥12,000`: the amounts a statement row may show, when a range is set.
    public var aboutText: String? {
        about.map { "\(PriceText.yen($0.lowerBound))–\(PriceText.yen($0.upperBound))" }
    }

    private static func folded(_ text: String) -> String {
        NameFolding.fold(text).filter { !$0.isWhitespace }
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

    /// The id it is registered under: made from the rule's id and its period alone (the month; a yearly rule's year),
    /// so a second `recurring post`, another machine's, or one after an edit of the rule's price, day or (yearly) month
    /// names the same item and never registers it twice.
    public var id: String {
        let period = rule.every == .year ? String(month.year) : month.description
        return DerivedID.make(content: Array("recurring \(rule.id) \(period)".utf8), occurrence: 1)
    }

    /// The item it registers.
    public var item: Item {
        Item(
            id: id, date: date, name: rule.name, price: rule.price, category: rule.category,
            categorySub: rule.categorySub)
    }
}

extension RecurringRule {
    /// Its occurrences due by `end`: from its first month (`from`; without one, the month before `end`'s: a rule with
    /// no first month is not posted for years back, and a run that missed a month's end still posts it) through `end`.
    public func due(through end: Day) -> [RecurringOccurrence] {
        occurrences(from: (from ?? end.yearMonth.previous).firstDay, through: end)
    }

    /// Its occurrences in `month` (none or one).
    public func occurrences(in month: YearMonth) -> [RecurringOccurrence] {
        occurrence(in: month).map { [$0] } ?? []
    }
}

extension RecurringOccurrence {
    /// The item among `items` that is this occurrence: the one with its id, else one a person typed or a statement
    /// brought for it (a related name, an amount the rule accepts, at most `window` days from its day) that is no other
    /// month's occurrence of the rule.
    /// `others` are the ids of other occurrences (other rules', other months'), which never hold this one.
    public func holder(among items: [Item], window: Int, others: Set<String> = []) -> Item? {
        let own = id
        if let item = items.first(where: { $0.id == own }) { return item }
        let neighbours = others.union([month.previous, month.next].compactMap { rule.occurrence(in: $0)?.id })
        return
            items
            .filter {
                !neighbours.contains($0.id) && rule.relates(to: $0.name) && rule.accepts(price: $0.price)
                    && abs($0.date.daysSinceEpoch - date.daysSinceEpoch) <= window
            }
            .min {
                abs($0.date.daysSinceEpoch - date.daysSinceEpoch) < abs($1.date.daysSinceEpoch - date.daysSinceEpoch)
            }
    }

    /// The window `holder` and statement matching look within by default: a bank books a transfer a day or two later,
    /// and a day falling on a weekend moves.
    public static let window = 3
}

extension RecurringOccurrence {
    /// The occurrences of `rules` in `months` from `first` on that no item of `items` holds yet (`holder`): what a
    /// month is still expected to cost, in date order. Months before `first` (the past) expect nothing.
    public static func expected(
        _ rules: [RecurringRule], in months: [YearMonth], among items: [Item], from first: YearMonth
    ) -> [RecurringOccurrence] {
        let all = months.filter { $0 >= first }.flatMap { month in rules.compactMap { $0.occurrence(in: month) } }
        let ids = Set(all.map(\.id))
        return all.filter { $0.holder(among: items, window: window, others: ids.subtracting([$0.id])) == nil }.sorted {
            ($0.date, $0.rule.name) < ($1.date, $1.rule.name)
        }
    }
}
