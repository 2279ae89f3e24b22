import ExpenseLogModel

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
        KnownItem(
            item: Item(
                id: id, date: month.firstDay, name: "(a row of the sheet that cannot be read)", price: 0,
                category: 0, categorySub: nil), place: .server)
    }
}

/// Finds input items that are already on the server or in the outbox by id, and the known items left for statement
/// matching (`StatementMatcher`) once the input's ids have claimed theirs.
public struct DuplicateFinder: Sendable {
    /// Every known item, the server's first; an id known twice (on the server and still in the outbox) counts once.
    public let known: [KnownItem]
    /// The known items by Sheet key.
    private let byID: [String: KnownItem]

    /// A finder over known items; an id known twice (on the server and still in the outbox) counts once, the server's.
    /// Ids are compared as a Sheet shows them (`SheetText.key`: the sheet shows the id `00123` as 123, the same item).
    public init(known: [KnownItem]) {
        var seen: Set<String> = []
        self.known = (known.filter { $0.place == .server } + known.filter { $0.place != .server }).filter {
            seen.insert(SheetText.key($0.item.id)).inserted
        }
        byID = Dictionary(self.known.map { (SheetText.key($0.item.id), $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether an item with this id is known.
    public func knows(id: String) -> Bool { byID[SheetText.key(id)] != nil }

    /// The known item with this id.
    public func item(withID id: String) -> KnownItem? { byID[SheetText.key(id)] }

    /// Whether nothing is known, so every input item is new.
    public var isEmpty: Bool { known.isEmpty }

    /// The known items that none of `ids` names (an input item with a known id is that item, so it matches no other row).
    public func unclaimed(by ids: Set<String>) -> [KnownItem] {
        let keys = Set(ids.map(SheetText.key))
        return known.filter { !keys.contains(SheetText.key($0.item.id)) }
    }
}
