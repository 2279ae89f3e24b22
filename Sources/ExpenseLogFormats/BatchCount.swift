import ExpenseLogModel

extension BatchLimit {
    /// How many batches items make (a dry run says it), read back one at a time.
    public func batchCount(_ items: some ItemRecords) throws -> Int {
        var batches = 0, count = 0, bytes = 0
        try items.forEachItem { item in
            if count == 0 { batches += 1 }
            count += 1
            bytes += Self.size(of: item)
            if isFull(count: count, bytes: bytes) { (count, bytes) = (0, 0) }
        }
        return batches
    }
}
