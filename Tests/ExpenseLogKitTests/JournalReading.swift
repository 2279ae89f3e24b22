import ExpenseLogModel
import ExpenseLogStore

extension Journal {
    /// The entries of items with batches left and the problems of the files that cannot be read, oldest first.
    func entries() throws -> (entries: [ItemEntry], problems: [String]) {
        let listed = try listing()
        return (listed.itemEntries, listed.problems)
    }

    /// The changes and the problems of the files that cannot be read, oldest first.
    func edits() throws -> (edits: [QueuedEdit], problems: [String]) {
        let listed = try listing()
        return (listed.changes, listed.problems)
    }
}
