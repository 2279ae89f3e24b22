import ExpenseLogModel

/// What statement matching found for a row.
public enum StatementOutcome: Sendable, Equatable {
    /// The same purchase as this known item: the same amount, `days` apart, names `nameDistance` apart
    /// (`PurchaseName.distance`).
    case matched(KnownItem, days: Int, nameDistance: Int)
    /// Maybe the same purchase as one of these (closest first), maybe not: a person decides.
    case ambiguous([KnownItem])
}

/// Finds, for statement rows (rows that came without an id of their own), the items already known that are the same
/// purchase: the same amount (a refund only a refund), dates at most `window` days apart, and related names.
///
/// Matching is one-to-one over the whole import and does not depend on the rows' order: pairs are taken closest date
/// first, then closest name, then the earlier row and the earlier item. A row is **matched** when it got an item no
/// other row had an equal claim to; **ambiguous** when another row had an equal claim to its item, when its only
/// candidates went to rows with an equal claim, or when its possible matches within a day (`unrelatedNameWindow`) have
/// unrelated names and no row has a better claim to them (a person typed `本` for the card's `紀伊國屋書店`).
/// Rows that are interchangeable (the same day, amount and name: two coffees) never make each other ambiguous: which
/// of them is sent changes nothing.
public struct StatementMatcher: Sendable {
    /// The most days a statement's date may be from the day the purchase was typed (a card books it a day or more later).
    public let window: Int

    /// The default window: three days either side.
    public static let defaultWindow = 3

    /// The most days apart a row and an item of the same amount but unrelated names may be and still be held for a
    /// person: `本 1,500` typed on the 27th may be the card's `紀伊國屋書店 新宿本店 1,500` booked on the 28th.
    public static let unrelatedNameWindow = 1

    /// A matcher over a window of days.
    public init(window: Int = defaultWindow) {
        self.window = window
    }

    /// A row to match: its place in the input and its item.
    public struct Row: Sendable {
        /// Its place in the input.
        public let index: Int
        /// Its item.
        public let item: Item
        let name: PurchaseName

        /// A row at `index` of the input.
        public init(index: Int, item: Item) {
            (self.index, self.item, name) = (index, item, PurchaseName(item.name))
        }

        fileprivate func interchangeable(with other: Row) -> Bool {
            item.date == other.item.date && item.price == other.item.price && name == other.name
        }
    }

    private struct Pair {
        let row: Int
        let known: Int
        let days: Int
        let nameDistance: Int
        var rank: (Int, Int) { (days, nameDistance) }
    }

    /// Whether any known item could match a row of this price and day: a large import keeps only those rows.
    public func mayMatch(_ item: Item, amongPricesAndDays index: [Int: [Int]]) -> Bool {
        index[item.price]?.contains { abs($0 - item.date.daysSinceEpoch) <= window } ?? false
    }

    /// The known items' days by price, for `mayMatch`.
    public static func daysByPrice(_ known: [KnownItem]) -> [Int: [Int]] {
        Dictionary(grouping: known.map { ($0.item.price, $0.item.date.daysSinceEpoch) }, by: \.0).mapValues {
            $0.map(\.1)
        }
    }

    /// The outcome of each row that is not simply new, by the row's index.
    public func outcomes(rows: [Row], known: [KnownItem]) -> [Int: StatementOutcome] {
        let names = known.map { PurchaseName($0.item.name) }
        let byPrice = Dictionary(grouping: known.indices, by: { known[$0].item.price })
        var strong: [Pair] = [], weak: [Pair] = []
        for (r, row) in rows.enumerated() {
            for k in byPrice[row.item.price] ?? [] {
                let days = abs(known[k].item.date.daysSinceEpoch - row.item.date.daysSinceEpoch)
                guard days <= window else { continue }
                if let distance = row.name.distance(to: names[k]) {
                    strong.append(Pair(row: r, known: k, days: days, nameDistance: distance))
                } else if days <= Self.unrelatedNameWindow {
                    weak.append(Pair(row: r, known: k, days: days, nameDistance: Int.max))
                }
            }
        }
        // Closest first; ties by the earlier row, then the earlier item: the same input always pairs the same way.
        strong.sort { ($0.days, $0.nameDistance, $0.row, $0.known) < ($1.days, $1.nameDistance, $1.row, $1.known) }
        var rowTaken: [Int: Pair] = [:], knownTaken: [Int: Pair] = [:]
        for pair in strong where rowTaken[pair.row] == nil && knownTaken[pair.known] == nil {
            rowTaken[pair.row] = pair
            knownTaken[pair.known] = pair
        }
        // A row left without an item it could have had gets one when the row holding it can move to another of its
        // own (an augmenting path): as many rows as possible are matched, none dropped for another's closer claim.
        let byRow = Dictionary(grouping: strong, by: \.row)
        func augment(_ row: Int, _ visited: inout Set<Int>) -> Bool {
            for pair in byRow[row] ?? [] where visited.insert(pair.known).inserted {
                if let holder = knownTaken[pair.known], !augment(holder.row, &visited) { continue }
                rowTaken[row] = pair
                knownTaken[pair.known] = pair
                return true
            }
            return false
        }
        for row in rows.indices where rowTaken[row] == nil && byRow[row] != nil {
            var visited = Set<Int>()
            _ = augment(row, &visited)
        }

        var ambiguous: [Int: [Int]] = [:]  // row → candidate known items
        // An equal claim on a taken item by a row that is not interchangeable with the one that got it: both rows wait.
        for pair in strong where rowTaken[pair.row] == nil {
            guard let winner = knownTaken[pair.known], winner.rank == pair.rank,
                !rows[winner.row].interchangeable(with: rows[pair.row])
            else { continue }
            ambiguous[pair.row, default: []].append(pair.known)
            ambiguous[winner.row, default: []].append(pair.known)
        }
        // A row left without a match whose item of its amount within a day has another name: maybe that purchase,
        // typed under another (generic) name, maybe not.
        for pair in weak where rowTaken[pair.row] == nil && knownTaken[pair.known] == nil {
            ambiguous[pair.row, default: []].append(pair.known)
        }

        var outcomes: [Int: StatementOutcome] = [:]
        for (r, row) in rows.enumerated() {
            if let candidates = ambiguous[r] {
                // Every item it could be, the closest first, each once.
                let all = strong.filter { $0.row == r }.map(\.known) + candidates
                var seen = Set<Int>()
                outcomes[row.index] = .ambiguous(all.filter { seen.insert($0).inserted }.map { known[$0] })
            } else if let pair = rowTaken[r] {
                outcomes[row.index] = .matched(known[pair.known], days: pair.days, nameDistance: pair.nameDistance)
            }
        }
        return outcomes
    }
}
