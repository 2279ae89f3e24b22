import ExpenseLogModel
import Foundation

/// What the outbox keeps of a batch when queuing it: its key and body, and of its items only how many there are and
/// which months they fall in. An import makes it straight from its spool's records, without an `Item` per row.
public struct BatchBody: Sendable {
    /// The batch's key.
    public let key: String
    /// The JSON array POSTed.
    public let body: Data
    /// How many items the body holds.
    public let count: Int
    /// The months the items fall in, oldest first, each once.
    public let months: [YearMonth]

    /// A body of `count` items in `months`.
    public init(key: String, body: Data, count: Int, months: [YearMonth]) {
        (self.key, self.body, self.count, self.months) = (key, body, count, months)
    }
}

extension OutboxBatch {
    /// The batch as the outbox queues it.
    public var queued: BatchBody { BatchBody(key: key, body: body, count: items.count, months: items.months) }
}
