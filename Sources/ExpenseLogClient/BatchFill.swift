import ExpenseLogFormats
import ExpenseLogModel
import Foundation

extension BatchLimit {
    /// The next batch of the items `next` hands over, encoded as it fills so each item is encoded once; it ends when
    /// full by count or by body size (`size(of:)` counts the same bytes, so `batchCount` agrees). Nil when `next` has
    /// no item left.
    public func fill(key: String, from next: () throws -> Item?) rethrows -> OutboxBatch? {
        var body = ItemJSON.ArrayBytes(reserving: min(items, 1_000)), batch: [Item] = []
        while !isFull(count: batch.count, bytes: body.bytes.count), let item = try next() {
            body.append(item)
            batch.append(item)
        }
        guard !batch.isEmpty else { return nil }
        body.close()
        return OutboxBatch(key: key, items: batch, body: Data(body.bytes))
    }
}
