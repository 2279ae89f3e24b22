import ExpenseLogModel
import Foundation

/// An item already known, on the server (as cached or just fetched) or waiting in the outbox.
public struct KnownItem: Sendable, Equatable {
    /// Where a known item is.
    public enum Place: String, Sendable {
        /// On the server (its month as cached or fetched).
        case server
        /// In the outbox, not yet confirmed by the server.
        case outbox
    }

    /// The item.
    public let item: Item
    /// Where it is.
    public let place: Place

    /// A known item.
    public init(item: Item, place: Place) {
        self.item = item
        self.place = place
    }

    /// A row of the server's month that cannot be read as an item but shows an id: an item with that id is there.
    public static func unreadableRow(id: String, in month: YearMonth) -> KnownItem {
        KnownItem(item: Item(id: id, date: month.firstDay, name: "(a row of the sheet that cannot be read)", price: 0,
                             category: 0, categorySub: nil), place: .server)
    }
}

/// What an input item is, compared with what is already known.
public enum DuplicateVerdict: Sendable, Equatable {
    /// Nothing known matches it.
    case new
    /// A known item has its id: it was registered (or queued) before.
    case sameID(KnownItem)
    /// A known item has its date, price and name: probably the same purchase entered again.
    case likely(KnownItem)
}

/// Finds input items that are already on the server or in the outbox, by id and by date + price + name.
///
/// Each known item answers for at most one input item, so two identical coffees on one day can both be imported
/// when the server has only one of them. Ids are matched first, so the answer never depends on the rows' order.
public struct DuplicateFinder: Sendable {
    fileprivate struct Key: Hashable, Sendable {
        let date: Day
        let price: Int
        let name: String
    }

    private let known: [KnownItem]
    /// The known ids by Sheet key.
    private let knownIDs: Set<String>

    /// A finder over known items; an id known twice (on the server and still in the outbox) counts once, the server's.
    /// Ids are compared as a Sheet shows them (`SheetText.key`).
    public init(known: [KnownItem]) {
        var seen: Set<String> = []
        self.known = (known.filter { $0.place == .server } + known.filter { $0.place != .server }).filter { seen.insert(SheetText.key($0.item.id)).inserted }
        knownIDs = seen
    }

    /// Whether an item with this id is known.
    public func knows(id: String) -> Bool { knownIDs.contains(SheetText.key(id)) }

    /// The verdict for each input item, in order.
    public func verdicts(for items: [Item]) -> [DuplicateVerdict] {
        let found = matches(for: items)
        return items.indices.map { found[$0] ?? .new }
    }

    /// Whether nothing is known, so every input item is new.
    public var isEmpty: Bool { known.isEmpty }

    /// The verdicts that are not `.new`, by the input item's index: a large import of new items costs no verdict each.
    public func matches(for items: [Item]) -> [Int: DuplicateVerdict] {
        guard !known.isEmpty else { return [:] }
        var matcher = matcher(inputIDs: items.map(\.id))
        var found: [Int: DuplicateVerdict] = [:]
        for (index, item) in items.enumerated() {
            let verdict = matcher.verdict(for: item)
            if verdict != .new { found[index] = verdict }
        }
        return found
    }

    /// A matcher that takes the input one item at a time, for inputs too large to hold; `inputIDs` are every id the
    /// input gave, so the known items they match are set aside first and the answer does not depend on the order.
    public func matcher(inputIDs: some Sequence<String>) -> Matcher {
        // Ids by Sheet key: the server's spreadsheet shows the id `00123` as 123, and it is the same item.
        let byID = Dictionary(known.map { (SheetText.key($0.item.id), $0) }, uniquingKeysWith: { first, _ in first })
        // A known item matched by id is accounted for; the rest may each answer for one input item of the same content.
        let claimed = Set(inputIDs.lazy.map(SheetText.key).filter { byID[$0] != nil })
        var byContent: [Key: [KnownItem]] = [:]
        for entry in known where !claimed.contains(SheetText.key(entry.item.id)) { byContent[Self.key(entry.item), default: []].append(entry) }
        return Matcher(byID: byID, byContent: byContent)
    }

    /// Verdicts for input items in input order, each known item answering for at most one of them.
    public struct Matcher: Sendable {
        fileprivate let byID: [String: KnownItem]
        fileprivate var byContent: [Key: [KnownItem]]

        /// The verdict for the next input item.
        public mutating func verdict(for item: Item) -> DuplicateVerdict {
            if let match = byID[SheetText.key(item.id)] { return .sameID(match) }
            guard !byContent.isEmpty else { return .new }
            let key = DuplicateFinder.key(item)
            guard var candidates = byContent[key], !candidates.isEmpty else { return .new }
            let match = candidates.removeFirst()
            byContent[key] = candidates
            return .likely(match)
        }
    }

    fileprivate static func key(_ item: Item) -> Key {
        // As a Sheet shows it (the sheet hands back the name `0120` as 120 and `TRUE` as true), in NFKC: a statement's
        // half-width ﾄﾞﾄｰﾙ is the ドトール typed into the app. Case still tells names apart, as it always has.
        Key(date: item.date, price: item.price, name: CellFolding.compatible(SheetText.key(item.name.trimmingSpaces())))
    }
}
