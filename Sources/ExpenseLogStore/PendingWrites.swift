import ExpenseLogModel
import Foundation

/// One write waiting for the server: a run's items to register, or a change to items.
public enum PendingWrite: Sendable {
    /// An outbox entry: the batches one run could not confirm.
    case items(OutboxEntry)
    /// A queued edit or deletion.
    case edit(QueuedEdit)

    /// Its file's name, which sorts by the time it was queued (both queues name their files so).
    public var order: String {
        switch self {
        case .items(let entry): entry.file.lastPathComponent
        case .edit(let edit): edit.file.lastPathComponent
        }
    }
}

/// Every write of one environment waiting for the server: items to register (the outbox) and changes to items (the
/// queue of edits), under one lock, listed in the order they were queued. Items are sent first, then the changes in
/// order; a change of an item still waiting to be registered waits behind it (and the changes after it behind that
/// one). Each kind keeps its folder and file format, so what earlier versions queued is read and sent as before.
public struct PendingWrites: Sendable {
    /// The items waiting to be registered.
    public let outbox: Outbox
    /// The edits and deletions waiting to be sent.
    public let edits: EditQueue

    /// The pending writes kept in these two folders.
    public init(outbox: Outbox, edits: EditQueue) {
        (self.outbox, self.edits) = (outbox, edits)
    }

    /// The lock every sender of these writes holds (`sync`, and `edit`/`delete` sending the queue).
    public var syncLock: URL { outbox.syncLock }

    /// Every write that can be read, oldest first, and a message for each file that cannot be read (left in place).
    public func listing() throws -> (writes: [PendingWrite], problems: [String]) {
        let (entries, problems) = try outbox.entries()
        let queued = try edits.listing()
        let writes = (entries.map(PendingWrite.items) + queued.edits.map(PendingWrite.edit)).sorted {
            $0.order < $1.order
        }
        return (writes, problems + queued.problems)
    }

    /// The items waiting in `entries` (every outbox entry when nil) with these ids, each once, in queue order: read one
    /// batch at a time, keeping only those (an outbox of millions of items stays flat in memory); an entry a sync
    /// finished since it was listed holds none.
    public func waitingItems(_ ids: Set<String>, in entries: [OutboxEntry]? = nil) throws -> [Item] {
        guard !ids.isEmpty else { return [] }
        return try waitingItems(in: entries) { ids.contains($0.id) }
    }

    /// The items waiting to be registered that are dated in `months`, each once (`fetch` shows them, marked).
    public func waitingItems(in months: Set<YearMonth>) throws -> [Item] {
        try waitingItems(in: nil) { months.contains($0.date.yearMonth) }
    }

    /// The items waiting to be registered that `wanted` keeps, each once, from `entries` (all, when nil).
    public func waitingItems(in entries: [OutboxEntry]? = nil, where wanted: (Item) -> Bool) throws -> [Item] {
        var found: [Item] = [], seen = Set<String>()
        for entry in try entries ?? outbox.entries().entries {
            _ = try outbox.forEachBatch(of: entry) { batch in
                for item in batch.items where wanted(item) && seen.insert(item.id).inserted { found.append(item) }
            }
        }
        return found
    }

    /// Which of `ids` wait in `entries`.
    public func waiting(_ ids: Set<String>, in entries: [OutboxEntry]) throws -> Set<String> {
        Set(try waitingItems(ids, in: entries).map(\.id))
    }

    /// The changes of `edits` (in queue order) that may be sent now: those before the first that touches an item still
    /// waiting (`waiting`, whatever the clocks said when each was queued), or that was queued after an outbox entry that
    /// cannot be read (`unreadable`: what it holds is unknown, so it may hold that change's item). `behind` counts the
    /// rest, which wait, since no change overtakes an older one.
    public static func ready(
        _ edits: [QueuedEdit], waiting: Set<String>, unreadable: [URL]
    ) -> (ready: [QueuedEdit], behind: Int) {
        let firstUnreadable = unreadable.map(\.lastPathComponent).min()
        let ready = edits.prefix { edit in
            waiting.isDisjoint(with: edit.ids) && firstUnreadable.map { edit.file.lastPathComponent < $0 } ?? true
        }
        return (Array(ready), edits.count - ready.count)
    }
}
