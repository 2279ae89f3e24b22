/// How a summary's rows are cut.
public enum SummaryGrouping: String, Sendable, CaseIterable {
    /// A row per category.
    case category
    /// A row per category and sub-category; items with no sub-category have a row of their own.
    case sub
    /// A row per person who paid (`PayerTotals`), and one for the household's items (no payer).
    case payer
}

/// What each person paid in a period: a row per payer (by name), then the household's items (no payer), with the
/// personal part of each (one person's own spending).
public struct PayerTotals: Sendable, Equatable {
    /// One payer's row; `payer` nil for the household.
    public struct Line: Sendable, Equatable {
        /// Who paid, or nil for the household.
        public let payer: String?
        /// How many items.
        public let count: Int
        /// Their total.
        public let total: Int
        /// The total of those that were one person's own.
        public let personal: Int
    }

    /// The rows, payers by name, the household last.
    public let lines: [Line]
    /// The total of every item.
    public let total: Int

    /// The totals of `items`.
    public init(items: [Item]) {
        var sums: [String?: (count: Int, total: Int, personal: Int)] = [:]
        for item in items {
            var sum = sums[item.payer] ?? (0, 0, 0)
            sum.count += 1
            sum.total += item.price
            if item.personal { sum.personal += item.price }
            sums[item.payer] = sum
        }
        lines = sums.keys.sorted { ($0 == nil ? 1 : 0, $0 ?? "") < ($1 == nil ? 1 : 0, $1 ?? "") }.map { payer in
            let sum = sums[payer] ?? (0, 0, 0)
            return Line(payer: payer, count: sum.count, total: sum.total, personal: sum.personal)
        }
        total = items.reduce(0) { $0 + $1.price }
    }
}

/// What a summary row counts: a category, and with `.sub` grouping one of its sub-categories (nil: items with none).
public struct SummaryKey: Sendable, Hashable {
    /// The category number.
    public let category: Int
    /// The sub-category number; always nil with `.category` grouping.
    public let sub: Int?

    /// A key for a category and an optional sub-category.
    public init(category: Int, sub: Int? = nil) {
        self.category = category
        self.sub = sub
    }
}

/// One row of a summary: how many items and how much.
public struct SummaryLine: Sendable, Equatable {
    /// The category (and sub-category) counted.
    public let key: SummaryKey
    /// The number of items.
    public let count: Int
    /// The sum of their prices in yen; refunds are negative and reduce it.
    public let total: Int128
    /// The share of the whole in tenths of a percent (425 is 42.5 %), nil when the whole is 0 or negative.
    public let shareTenths: Int128?
}

/// The totals of some items: a line per category (or sub-category) in catalogue order, then unknown ones by number.
public struct SummaryTotals: Sendable, Equatable {
    /// The rows; every catalogue category (and sub-category) has one, even when empty, so shapes stay stable.
    public let lines: [SummaryLine]
    /// The number of items.
    public let count: Int
    /// The sum of every price in yen.
    public let total: Int128

    /// Groups and sums items; names come later, from the same catalogue, when the totals are written.
    public init(items: [Item], grouping: SummaryGrouping, catalogue: CategoryCatalogue) {
        var sums: [SummaryKey: (count: Int, total: Int128)] = [:]
        for item in items {
            let key = SummaryKey(category: item.category, sub: grouping == .sub ? item.categorySub : nil)
            let sum = sums[key, default: (0, 0)]
            sums[key] = (sum.count + 1, sum.total + Int128(item.price))
        }
        let total = sums.values.reduce(Int128(0)) { $0 + $1.total }
        lines = Self.order(Set(sums.keys), grouping: grouping, catalogue: catalogue).map { key in
            let sum = sums[key, default: (0, 0)]
            return SummaryLine(
                key: key, count: sum.count, total: sum.total, shareTenths: Self.shareTenths(of: sum.total, in: total))
        }
        count = items.count
        self.total = total
    }

    /// A part of a whole in tenths of a percent, rounded half away from zero; nil when the whole is 0 or negative.
    public static func shareTenths(of part: Int128, in whole: Int128) -> Int128? {
        // A share of a negative total (more refunded than spent) has no meaning, and of 0 no value.
        guard whole > 0 else { return nil }
        let tenths = (2 * part.magnitude * 1000 + whole.magnitude) / (2 * whole.magnitude)
        return part < 0 ? -Int128(tenths) : Int128(tenths)
    }

    /// Catalogue categories (and their sub-categories) always, in catalogue order; unknown ones after, by number.
    static func order(
        _ present: Set<SummaryKey>, grouping: SummaryGrouping, catalogue: CategoryCatalogue
    ) -> [SummaryKey] {
        var keys: [SummaryKey] = []
        var seen = Set<SummaryKey>()
        func add(_ key: SummaryKey) {
            if seen.insert(key).inserted { keys.append(key) }
        }
        let known = catalogue.categories.map(\.id)
        let unknown = Set(present.map(\.category)).subtracting(known).sorted()
        for id in known + unknown {
            guard grouping == .sub else {
                add(SummaryKey(category: id))
                continue
            }
            let listed = catalogue.category(id)?.subs.map(\.id) ?? []
            for sub in listed { add(SummaryKey(category: id, sub: sub)) }
            let others = present.filter { $0.category == id }.compactMap(\.sub).filter { !listed.contains($0) }.sorted()
            for sub in others { add(SummaryKey(category: id, sub: sub)) }
            // A catalogue category with no sub-categories still gets a row, so that every category shows.
            let none = SummaryKey(category: id, sub: nil)
            if present.contains(none) || (listed.isEmpty && others.isEmpty) { add(none) }
        }
        return keys
    }
}
