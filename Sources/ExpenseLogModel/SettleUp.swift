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
    public let ratio: (first: Int, second: Int)
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
        items: [Item], people: (String, String), ratio: (first: Int, second: Int), settlements: [Settlement] = []
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

    /// The same sides, split and totals (a tuple is not `Equatable` by itself).
    public static func == (lhs: SettleUp, rhs: SettleUp) -> Bool {
        lhs.sides == rhs.sides && lhs.ratio == rhs.ratio && lhs.shared == rhs.shared && lhs.count == rhs.count
    }
}
