import Foundation

/// What one monthly budget is for: the whole, a category, or a sub-category of one.
public enum BudgetKey: Sendable, Hashable {
    /// Every item.
    case total
    /// The items of a category.
    case category(Int)
    /// The items of a sub-category of a category.
    case sub(Int, Int)

    /// Whether an item counts against this budget.
    func counts(_ item: Item) -> Bool {
        switch self {
        case .total: return true
        case .category(let category): return item.category == category
        case .sub(let category, let sub): return item.category == category && item.categorySub == sub
        }
    }
}

/// A household's budgets, in yen per month: `{"total": 80000, "食費": 30000, "娯楽費/交通費": 10000}` in the config file.
public struct Budgets: Sendable, Equatable {
    /// One budget.
    public struct Entry: Sendable, Equatable {
        /// What it is for.
        public let key: BudgetKey
        /// The name as the config file gives it (`total`, `食費`, `0/1`).
        public let name: String
        /// Yen per month.
        public let monthly: Int
    }

    /// The budgets: the total first, then categories in catalogue order, each followed by its sub-categories.
    public let entries: [Entry]

    /// Reads the config file's object of names to yen; a name the catalogue lacks, or an amount that is not a whole
    /// number of yen above 0, throws a message naming it.
    public init(_ amounts: [(name: String, yen: Any)], catalogue: CategoryCatalogue) throws(BudgetError) {
        var entries: [Entry] = []
        for (name, value) in amounts {
            guard let yen = Self.yen(value) else {
                throw BudgetError(
                    message: "'budgets.\(name)' must be a whole number of yen above 0 per month, e.g. 30000")
            }
            let key: BudgetKey
            if name.lowercased() == "total" || name == "合計" {
                key = .total
            } else {
                do {
                    let (category, sub) = try catalogue.resolve(name)
                    key = sub.map { .sub(category, $0) } ?? .category(category)
                } catch {
                    throw BudgetError(
                        message: "'budgets.\(name)': \(error.message); use \"total\", a category or a category/sub "
                            + "(`expense-log categories` lists them)")
                }
            }
            if let twice = entries.first(where: { $0.key == key }) {
                throw BudgetError(
                    message: "'budgets.\(name)' names what 'budgets.\(twice.name)' already budgets; keep one")
            }
            entries.append(Entry(key: key, name: name, monthly: yen))
        }
        self.entries = entries.sorted {
            Self.order($0.key, catalogue).lexicographicallyPrecedes(Self.order($1.key, catalogue))
        }
    }

    /// Whether there is no budget at all.
    public var isEmpty: Bool { entries.isEmpty }

    private static func yen(_ value: Any) -> Int? {
        // JSON's true is a number to Foundation: it is no amount of yen.
        if let number = value as? NSNumber, String(cString: number.objCType) == "c" { return nil }
        if let number = value as? Int, number > 0 { return number }
        if let number = value as? Double, number > 0, number <= 1e15, number == number.rounded() { return Int(number) }
        if let text = value as? String, let number = PriceText.parse(text), number > 0 { return number }
        return nil
    }

    /// The total first, then catalogue order (a category before its subs), unknown numbers last.
    private static func order(_ key: BudgetKey, _ catalogue: CategoryCatalogue) -> [Int] {
        func place(_ category: Int) -> Int {
            catalogue.categories.firstIndex { $0.id == category } ?? catalogue.categories.count + category
        }
        switch key {
        case .total: return [-1]
        case .category(let category): return [place(category), -1]
        case .sub(let category, let sub): return [place(category), sub]
        }
    }
}

/// A budget that cannot be read, and why.
public struct BudgetError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and what is expected.
    public let message: String
    /// The message.
    public var description: String { message }
}

/// How a period did against its budgets: a line per budget.
public struct BudgetReport: Sendable, Equatable {
    /// One budget's line.
    public struct Line: Sendable, Equatable {
        /// The budget.
        public let entry: Budgets.Entry
        /// The budget for the period: the monthly amount times the months counted.
        public let budget: Int128
        /// What the period's items spent against it (refunds reduce it).
        public let spent: Int128
        /// The budget less what was spent; negative when over.
        public var left: Int128 { budget - spent }
        /// What was spent, in tenths of a percent of the budget (1043 is 104.3 %), rounded half away from zero.
        public var usedTenths: Int128 { SummaryTotals.shareTenths(of: spent, in: budget) ?? 0 }
        /// Whether more was spent than budgeted.
        public var isOver: Bool { spent > budget }
    }

    /// The lines, in the budgets' order.
    public let lines: [Line]
    /// How many months each monthly budget was counted for (1 for a month; for a year, its months up to this one).
    public let months: Int

    /// Compares the items of a period with the budgets, each counted `months` times (at least once).
    public init(items: [Item], budgets: Budgets, months: Int) {
        self.months = max(months, 1)
        lines = budgets.entries.map { entry in
            let spent = items.reduce(Int128(0)) { entry.key.counts($1) ? $0 + Int128($1.price) : $0 }
            return Line(entry: entry, budget: Int128(entry.monthly) * Int128(max(months, 1)), spent: spent)
        }
    }

    /// Whether any budget was overspent.
    public var isOver: Bool { lines.contains(where: \.isOver) }

    /// The months of a year a budget counts: every month of a past year, this year's up to this month, none of a later year
    /// (counted as one, so a budget line still shows).
    public static func months(ofYear year: Int, now: YearMonth) -> Int {
        year < now.year ? 12 : year == now.year ? now.month : 1
    }

    /// The months a budget counts for a period: one for a month; for a year, its months up to this one that were
    /// loaded (a month neither the server nor the cache gave spent nothing that can be counted against it).
    public static func months(of months: [YearMonth], missing: Set<YearMonth>, now: YearMonth) -> Int {
        guard months.count > 1, let year = months.first?.year else { return 1 }
        let counted = months.prefix(Self.months(ofYear: year, now: now)).filter { !missing.contains($0) }.count
        return max(counted, 1)
    }
}
