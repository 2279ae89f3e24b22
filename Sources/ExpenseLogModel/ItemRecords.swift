/// Items kept somewhere and read back one at a time (a large import's spool on disk), as a renderer reads them: it
/// needs their count, their total and one pass, never where they are kept.
public protocol ItemRecords {
    /// How many items there are.
    var count: Int { get }
    /// The sum of their prices.
    var totalPrice: Int128 { get }
    /// Hands each item to `body`, in order.
    func forEachItem(_ body: (Item) throws -> Void) throws
    /// Hands each item's fields to `body`, in order, without making a String of each (a table of many rows).
    func forEachFields(_ body: (ItemFields) throws -> Void) throws
}
