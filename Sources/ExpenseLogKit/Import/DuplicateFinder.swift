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
    private struct Key: Hashable {
        let date: Day
        let price: Int
        let name: String
    }

    private let known: [KnownItem]

    /// A finder over known items; an id known twice (on the server and still in the outbox) counts once, the server's.
    public init(known: [KnownItem]) {
        var seen: Set<String> = []
        self.known = (known.filter { $0.place == .server } + known.filter { $0.place != .server }).filter { seen.insert($0.item.id).inserted }
    }

    /// The verdict for each input item, in order.
    public func verdicts(for items: [Item]) -> [DuplicateVerdict] {
        let found = matches(for: items)
        return items.indices.map { found[$0] ?? .new }
    }

    /// The verdicts that are not `.new`, by the input item's index: a large import of new items costs no verdict each.
    public func matches(for items: [Item]) -> [Int: DuplicateVerdict] {
        guard !known.isEmpty else { return [:] }
        let byID = Dictionary(known.map { ($0.item.id, $0) }, uniquingKeysWith: { first, _ in first })
        var found: [Int: DuplicateVerdict] = [:]
        // A known item matched by id is accounted for; the rest may each answer for one input item of the same content.
        var claimed: Set<String> = []
        for (index, item) in items.enumerated() {
            guard let match = byID[item.id] else { continue }
            found[index] = .sameID(match)
            claimed.insert(match.item.id)
        }
        var byContent: [Key: [KnownItem]] = [:]
        for entry in known where !claimed.contains(entry.item.id) { byContent[Self.key(entry.item), default: []].append(entry) }
        guard !byContent.isEmpty else { return found }
        for (index, item) in items.enumerated() where found[index] == nil {
            let key = Self.key(item)
            guard var candidates = byContent[key], !candidates.isEmpty else { continue }
            found[index] = .likely(candidates.removeFirst())
            byContent[key] = candidates
        }
        return found
    }

    private static func key(_ item: Item) -> Key {
        Key(date: item.date, price: item.price, name: item.name.trimmingSpaces())
    }
}
