import ExpenseLogFormats
import ExpenseLogModel
import Foundation

/// A batch of items sent in one POST, with the `Idempotency-Key` it keeps on every re-send.
public struct OutboxBatch: Sendable, Equatable {
    /// The key (an uppercase UUID) sent as `Idempotency-Key`, the same on every attempt and every `sync`.
    public let key: String
    /// The items, in input order.
    public let items: [Item]
    /// The items as the JSON array that is POSTed and queued: encoded once, here, for both.
    public let body: Data

    /// A batch with a given key.
    public init(key: String, items: [Item]) {
        self.key = key
        self.items = items
        body = Data(ItemJSON.arrayBytes(items))
    }

    /// A batch whose body was already encoded from these items (and queued), so it is not encoded again.
    public init(key: String, items: [Item], body: Data) {
        (self.key, self.items, self.body) = (key, items, body)
    }

    /// The same batch with fewer items. Its key is derived from the original key and the items' ids, so a re-send of
    /// the same narrowed batch repeats the key, while a server that honours keys never sees one key with two bodies.
    public func narrowed(to items: [Item]) -> OutboxBatch {
        guard items.map(\.id) != self.items.map(\.id) else { return self }
        let text = ([key] + items.map(\.id)).joined(separator: "\u{1F}")
        func fnv1a(_ seed: UInt64) -> UInt64 {
            text.utf8.reduce(seed) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
        }
        let high = fnv1a(0xCBF2_9CE4_8422_2325), low = fnv1a(0x8422_2325_CBF2_9CE4)
        let hex =
            String(high, radix: 16, uppercase: true).leftPadded(16)
            + String(low, radix: 16, uppercase: true).leftPadded(16)
        let parts = [
            hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4),
            hex.dropFirst(20),
        ]
        return OutboxBatch(key: parts.joined(separator: "-"), items: items)
    }

    /// Splits items into batches of at most `size`, each with a fresh key.
    public static func split(_ items: [Item], size: Int) -> [OutboxBatch] {
        let size = max(1, size)
        return stride(from: 0, to: items.count, by: size).map { start in
            OutboxBatch(key: RandomID.make(), items: Array(items[start..<min(start + size, items.count)]))
        }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
