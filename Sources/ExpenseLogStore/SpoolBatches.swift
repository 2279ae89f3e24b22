import ExpenseLogFormats
import Foundation

extension BatchLimit {
    /// How many batches a spool's items make.
    public func batchCount(_ spool: ItemSpool) throws -> Int {
        var reader = try spool.reader(), batches = 0, count = 0, bytes = 0
        while let (item, _) = try reader.next() {
            if count == 0 { batches += 1 }
            count += 1
            bytes += Self.size(of: item)
            if isFull(count: count, bytes: bytes) { (count, bytes) = (0, 0) }
        }
        return batches
    }
}
