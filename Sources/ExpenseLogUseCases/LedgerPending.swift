import ExpenseLogModel
import Foundation

extension Ledger {
    /// `pending`: every write waiting for the server, read once (the items on disk, the changes in order).
    public nonisolated func pending() throws -> PendingListing {
        try PendingListing(journal)
    }

    /// `pending drop` and `pending clear`: removes the writes that touch `ids` (every write when nil) under the journal's
    /// lock; nothing is removed while another run sends the journal.
    public nonisolated func drop(ids: Set<String>?) async throws -> DroppedWrites {
        try await DroppedWrites(ids: ids, from: journal)
    }

    /// The waiting ids each text names: itself when a write waits for it, else the waiting ids it is a prefix of.
    public nonisolated func waitingIDs(named texts: [String]) throws -> [String: [String]] {
        try DroppedWrites.ids(named: texts, in: journal)
    }
}
