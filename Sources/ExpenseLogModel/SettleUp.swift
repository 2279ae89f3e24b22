/// What one partner paid the other to settle a period, as `settle --record` keeps it (the bundled script's sheet 精算).
public struct Settlement: Sendable, Equatable {
    /// Its own id (a retried record adds nothing).
    public let id: String
    /// The period's first day.
    public let from: Day
    /// The period's last day.
    public let to: Day
    /// Who paid the settlement.
    public let payer: String
    /// Who received it.
    public let payee: String
    /// Yen.
    public let amount: Int
    /// The split it was made with (`60:40`), as words.
    public let ratio: String
    /// When it was recorded, as words.
    public let recorded: String

    /// A settlement with every part given.
    public init(
        id: String, from: Day, to: Day, payer: String, payee: String, amount: Int, ratio: String, recorded: String
    ) {
        (self.id, self.from, self.to, self.payer, self.payee) = (id, from, to, payer, payee)
        (self.amount, self.ratio, self.recorded) = (amount, ratio, recorded)
    }
}

/// How shared items are split between two people: the first person's part and the second's (`60:40`).
public struct Split: Sendable, Equatable {
    /// The first person's part.
    public let first: Int
    /// The second person's part.
    public let second: Int

    /// A split of two parts, not both 0, each at most 10,000 (so that no total overflows).
    public init?(_ first: Int, _ second: Int) {
        guard (0...10_000).contains(first), (0...10_000).contains(second), first + second > 0 else { return nil }
        (self.first, self.second) = (first, second)
    }

    /// Even: 50:50.
    public static let even = Split(uncheckedFirst: 50, second: 50)

    private init(uncheckedFirst first: Int, second: Int) {
        (self.first, self.second) = (first, second)
    }

    /// `60:40`, `６０：４０` or `60/40`; nil for anything else.
    public init?(parsing text: String) {
        let parts = NameFolding.compatible(text).split(whereSeparator: { ":/-".contains($0) }).map {
            Int($0.trimmingSpaces())
        }
        guard parts.count == 2, let first = parts[0], let second = parts[1] else { return nil }
        self.init(first, second)
    }

    /// `60:40`.
    public var description: String { "\(first):\(second)" }
}

/// Settling up between two partners: what each paid for shared items (an item with a payer that is not `personal`),
/// what each should have paid at their split, what settlements recorded for the period moved, and who owes whom.
///
/// Each person's share is the shared total times their part of the split, rounded to the yen, half away from zero
/// (so ¥1,001 at 50:50 is ¥501 for the first person and ¥500 for the second: the second share is what is left, and the
/// two always add up to the total).
public struct SettleUp: Sendable, Equatable {
    /// One person's side.
    public struct Side: Sendable, Equatable {
        /// The name.
        public let name: String
        /// What they paid for shared items.
        public let paid: Int
        /// What they should have paid at the split.
        public let share: Int
        /// What settlements recorded for the period moved: plus what they paid the other, minus what they received.
        public let settled: Int
        /// What they paid beyond their share: positive, the other owes them this.
        public var balance: Int { paid + settled - share }
    }

    /// The two people, in the split's order.
    public let sides: [Side]
    /// The split: the first person's part and the second's.
    public let ratio: Split
    /// The shared items' total.
    public let shared: Int
    /// How many shared items were counted.
    public let count: Int

    /// Who owes whom how much, or nil when they are even.
    public var owes: (from: String, to: String, amount: Int)? {
        let first = sides[0].balance
        if first > 0 { return (sides[1].name, sides[0].name, first) }
        if first < 0 { return (sides[0].name, sides[1].name, -first) }
        return nil
    }

    /// Settles `items` (those with a payer of `people` and not personal count) between `people` at `ratio`, after
    /// `settlements` recorded between them.
    public init(
        items: [Item], people: (String, String), ratio: Split, settlements: [Settlement] = []
    ) {
        let names = [people.0, people.1]
        let shared = items.filter { item in !item.personal && item.payer.map(names.contains) == true }
        var paid = [0, 0]
        for item in shared { paid[item.payer == names[0] ? 0 : 1] += item.price }
        let total = paid[0] + paid[1]
        let parts = ratio.first + ratio.second
        // The first share rounded half away from zero; the second is the rest, so the two make the total.
        let doubled = 2 * total * ratio.first
        let first =
            parts == 0 ? 0 : (doubled >= 0 ? (doubled + parts) / (2 * parts) : -((-doubled + parts) / (2 * parts)))
        var settled = [0, 0]
        for settlement in settlements {
            guard let from = names.firstIndex(of: settlement.payer), let to = names.firstIndex(of: settlement.payee),
                from != to
            else { continue }
            settled[from] += settlement.amount
            settled[to] -= settlement.amount
        }
        sides = [
            Side(name: names[0], paid: paid[0], share: first, settled: settled[0]),
            Side(name: names[1], paid: paid[1], share: total - first, settled: settled[1]),
        ]
        (self.ratio, self.shared, count) = (ratio, total, shared.count)
    }
}

/// What the configuration says of items that say nothing themselves: the app's items (it sends no payer) were paid by
/// `appPayer`, and items of the `personal` categories are one person's own.
public struct ShareDefaults: Sendable, Equatable {
    /// Who paid the app's items (`payer.app`), if set.
    public var appPayer: String?
    /// The categories (a sub-category, or nil for the whole category) whose items are personal by default.
    public var personal: [Category]

    /// A category, or one of its sub-categories.
    public struct Category: Sendable, Equatable {
        /// The category number.
        public let category: Int
        /// The sub-category, or nil for the whole category.
        public let sub: Int?

        /// A category or sub-category.
        public init(category: Int, sub: Int?) {
            (self.category, self.sub) = (category, sub)
        }
    }

    /// Defaults from the configuration's values.
    public init(appPayer: String? = nil, personal: [Category] = []) {
        (self.appPayer, self.personal) = (appPayer, personal)
    }

    /// `item` with the defaults applied: a typed item with no payer (the app's) takes `appPayer`, and an item of a
    /// personal category is personal.
    public func applied(to item: Item) -> Item {
        var item = item
        if item.payer == nil, let appPayer, RandomID.isTyped(item.id) { item.payer = appPayer }
        // An item said to be shared stays shared whatever its category.
        if !item.shared,
            personal.contains(where: { $0.category == item.category && ($0.sub == nil || $0.sub == item.categorySub) })
        {
            item.personal = true
        }
        return item
    }
}
