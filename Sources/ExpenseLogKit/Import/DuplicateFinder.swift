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
/// when the server has only one of them.
public struct DuplicateFinder: Sendable {
    private struct Key: Hashable {
        let date: Day
        let price: Int
        let name: String
    }

    private var byID: [String: KnownItem] = [:]
    private var byContent: [Key: [KnownItem]] = [:]

    /// A finder over known items; the first of several with one id wins.
    public init(known: [KnownItem]) {
        for entry in known {
            if byID[entry.item.id] == nil { byID[entry.item.id] = entry }
            byContent[Self.key(entry.item), default: []].append(entry)
        }
    }

    /// The verdict for the next input item; a content match is used up, so it cannot match another input item.
    public mutating func verdict(for item: Item) -> DuplicateVerdict {
        // An id is definitive, so it is looked up every time; only the content match is used up.
        if let known = byID[item.id] {
            remove(known)
            return .sameID(known)
        }
        let key = Self.key(item)
        guard var candidates = byContent[key], !candidates.isEmpty else { return .new }
        let known = candidates.removeFirst()
        byContent[key] = candidates
        return .likely(known)
    }

    private mutating func remove(_ known: KnownItem) {
        let key = Self.key(known.item)
        if let index = byContent[key]?.firstIndex(of: known) { byContent[key]?.remove(at: index) }
    }

    private static func key(_ item: Item) -> Key {
        Key(date: item.date, price: item.price, name: item.name.trimmingCharacters(in: .whitespaces))
    }
}
