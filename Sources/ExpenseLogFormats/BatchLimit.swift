import ExpenseLogModel
import Foundation

/// How large one POST may grow: at most so many items, and a body of about so many bytes, whichever comes first.
///
/// Apps Script takes 0.5–3 s per execution whatever it is sent, so each POST should carry as much as is safe; what
/// bounds it is the script's 6-minute execution limit (a script writing row by row takes ~0.1 s a row) and what one
/// lost answer leaves to reconcile. 500 items and 512 KiB keep a batch far inside both.
public struct BatchLimit: Sendable, Equatable {
    /// Items per POST unless `--batch-size` says otherwise.
    public static let defaultItems = 500
    /// The body size at which a batch ends, whatever its item count.
    public static let defaultBytes = 512 << 10

    /// The most items in one batch.
    public let items: Int
    /// The body size at which a batch ends (it passes it by one item at most).
    public let bytes: Int

    /// A limit of so many items and bytes.
    public init(items: Int = BatchLimit.defaultItems, bytes: Int = BatchLimit.defaultBytes) {
        (self.items, self.bytes) = (max(1, items), max(1, bytes))
    }

    /// The bytes an item adds to a body, escapes included: its object as the body holds it, and the separator.
    public static func size(of item: Item) -> Int {
        var object: [UInt8] = []
        object.reserveCapacity(192)
        ItemJSON.appendObject(item, to: &object)
        return object.count + 4
    }

    /// Whether a batch of `count` items and about `bytes` of body is full.
    public func isFull(count: Int, bytes: Int) -> Bool {
        count >= items || bytes >= self.bytes
    }
}
