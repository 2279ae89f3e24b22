import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// `pending`: every write waiting for the server, read once: the items to register (a spool, so an offline import of
/// millions of rows is listed in flat memory) and the changes to items, each in queue order.
public struct PendingListing {
    /// The items waiting to be registered, in the journal's order.
    public let items: ItemSpool
    /// How many batches they make.
    public let batches: Int
    /// When the oldest entry of items was queued, if any waits.
    public let oldest: Date?
    /// A message for each journal entry that cannot be read (left in place): the listing is incomplete.
    public let problems: [String]
    /// The changes waiting, oldest first.
    public let edits: [QueuedEdit]

    /// Reads what waits in the journal; a journal that cannot be listed is thrown.
    public init(_ journal: Journal) throws {
        let listed = try journal.listing()
        let spool = try ItemSpool()
        var batches = 0
        for entry in listed.itemEntries {
            let mark = spool.mark
            // An entry that a sync finished since it was listed is left out whole: its items are on the server.
            let read = try journal.forEachBatch(of: entry) { batch in
                for item in batch.items { try spool.append(item, tag: 0) }
            }
            if read { batches += entry.batches.count } else { try spool.truncate(to: mark) }
        }
        (items, self.batches, oldest) = (spool, batches, listed.itemEntries.first?.queuedAt)
        (problems, edits) = (listed.problems, listed.changes)
    }

    /// How many items wait in the outbox.
    public var itemCount: Int { items.count }

    /// Whether nothing could be read as waiting.
    public var isEmpty: Bool { items.count == 0 && edits.isEmpty }
}

/// What `pending drop` and `pending clear` removed.
public struct DroppedWrites: Sendable {
    /// The items removed, in the journal's order.
    public let items: [Item]
    /// How many removed items were in a batch whose last POST got no answer: the server may have saved them.
    public let maybeOnServer: Int
    /// Journal entries another run was sending (or that changed since they were listed), left as they were.
    public let busyEntries: Int
    /// The changes removed, or nil when another run holds the lock and the journal was left alone.
    public let edits: [QueuedEdit]?

    /// Removes the writes that touch these ids (every write when nil) under the journal's lock (and each entry's of
    /// items), so no sender reads the journal half changed; nothing is removed while another run sends it.
    public init(ids: Set<String>?, from journal: Journal) async throws {
        let removed = try await FileLock.withLockIfFree(journal.lock) {
            (items: try journal.drop(ids: ids), edits: try journal.dropChanges(ids: ids))
        }
        (items, maybeOnServer, busyEntries) = (
            removed?.items.removed ?? [], removed?.items.maybeOnServer ?? 0, removed?.items.busy ?? 0
        )
        edits = removed?.edits
    }

    /// Whether another run left something alone.
    public var busy: Bool { busyEntries > 0 || edits == nil }

    /// The ids asked for that nothing waiting had.
    public func missing(of ids: Set<String>) -> Set<String> {
        ids.subtracting(items.map(\.id) + (edits ?? []).flatMap(\.ids))
    }
}

extension DroppedWrites {
    /// The waiting ids each text names (`EditTargets.expand`): itself when an item or a queued change waits for it,
    /// else the waiting ids it is a prefix of, as `git` takes a short hash; none when neither.
    public static func ids(named texts: [String], in journal: Journal) throws -> [String: [String]] {
        let edits = (try? journal.listing().changes) ?? []
        let prefixes = texts.map { $0.uppercased() }
        // Only the waiting items some text could name are kept: an offline import may have queued millions.
        let items = try journal.waitingItems { item in
            let id = item.id.uppercased()
            return prefixes.contains { id.hasPrefix($0) }
        }
        let waiting = Set(items.map(\.id) + edits.flatMap(\.ids))
        return Dictionary(
            texts.map { ($0, EditTargets.expand($0, among: waiting)) }, uniquingKeysWith: { first, _ in first })
    }
}
