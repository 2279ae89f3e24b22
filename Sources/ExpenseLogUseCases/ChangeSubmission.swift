import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// What became of an edit or deletion handed to `ChangeSubmission`.
public enum SubmittedEdit: Sendable {
    /// The server could not be asked: the change waits in the queue.
    case waiting(QueuedEdit)
    /// Another run holds the lock of the pending writes and may send it: the change waits in the queue meanwhile.
    case busy(QueuedEdit)
    /// The changes queued up to it were sent in order, after the waiting items they touch, with the result.
    case sent(QueuedEdit, JournalSendingOutcome)

    /// The change as queued.
    public var own: QueuedEdit {
        switch self {
        case .waiting(let edit), .busy(let edit), .sent(let edit, _): edit
        }
    }
}

/// `edit` and `delete`: queue the change behind the changes waiting, bring the cache in step, and send the changes up to
/// it in order, after the waiting items they touch, when the server can be asked and no other run is sending: no change
/// overtakes an older one, and an edit of an item still waiting to be registered goes out after it.
public struct ChangeSubmission: Sendable {
    /// What sends the pending writes.
    public let sync: JournalSending
    /// Where a deletion of a statement's row is kept as a decision, so that importing the statement again leaves the row
    /// out; nil keeps none.
    public let decisions: ImportDecisions?

    /// A submission over a run of the pending writes, keeping deletions of statement rows in `decisions`.
    public init(sync: JournalSending, decisions: ImportDecisions? = nil) {
        (self.sync, self.decisions) = (sync, decisions)
    }

    /// Queues `change` and sends what was queued up to it when `reachable`; `saved` keeps the items the server saved on
    /// the way. A cache that cannot follow is said in `cacheFailure` (the change is queued all the same), and a queue
    /// that cannot be written or listed is thrown.
    public func submit(
        _ change: QueuedEdit.Change, reachable: Bool, saved: inout SavedItems,
        cacheFailure: (any Error) -> Void = { _ in }, event: (SyncEvent) -> Void = { _ in }
    ) async throws -> SubmittedEdit {
        let own = try sync.journal.append(change)
        // A deleted statement row stays deleted: later imports of the statement skip it, as a person decided. A typed
        // item (a random id) is in no statement.
        if case .delete(let items) = change, let decisions {
            // A typed item deleted: the statement rows decided to be it are purchases again (else they would be lost).
            try await decisions.release(sameAs: Set(items.filter { RandomID.isTyped($0.id) }.map(\.id)))
            let rows = items.filter { !RandomID.isTyped($0.id) }
            try await decisions.record(
                Dictionary(
                    rows.map { ($0.id, RowDecision(.skip, item: nil, by: .deletion, on: Day.today().description)) },
                    uniquingKeysWith: { first, _ in first }))
        }
        do {
            switch change {
            case .delete(let items): _ = try await sync.repository.remove(ids: Set(items.map(\.id)))
            case let .update(item, changed, _): try await sync.repository.replace(id: item.id, with: changed)
            }
        } catch {
            cacheFailure(error)
        }
        guard reachable else { return .waiting(own) }
        let result = try await sync.runIfFree(
            force: false, through: own.file.lastPathComponent, saved: &saved, event: event)
        return result.map { .sent(own, $0) } ?? .busy(own)
    }
}
