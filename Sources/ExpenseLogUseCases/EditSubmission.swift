import ExpenseLogStore
import Foundation

/// What became of an edit or deletion handed to `EditSubmission`.
public enum SubmittedEdit: Sendable {
    /// The server could not be asked: the change waits in the queue.
    case waiting(QueuedEdit)
    /// Another run holds the sync lock and may send it: the change waits in the queue meanwhile.
    case busy(QueuedEdit)
    /// The queue was sent in order, up to its first change that could not be read (`blocker`), with the outcome.
    case sent(QueuedEdit, EditOutcome, blocker: String?)

    /// The change as queued.
    public var own: QueuedEdit {
        switch self {
        case .waiting(let edit), .busy(let edit), .sent(let edit, _, _): edit
        }
    }
}

/// `edit` and `delete`: queue the change behind any waiting, bring the cache in step, and send the whole queue in
/// order when the server can be asked and no other run is sending, so that no change overtakes an older one.
public struct EditSubmission: Sendable {
    /// What sends the queue, over the client, the cache and the queue.
    public let delivery: EditDelivery
    /// The lock that senders of this environment's queues take (the outbox's sync lock).
    public let syncLock: URL

    /// A submission over a delivery and the sync lock.
    public init(delivery: EditDelivery, syncLock: URL) {
        (self.delivery, self.syncLock) = (delivery, syncLock)
    }

    /// Queues `change` and sends the queue when `reachable`; a cache that cannot follow is said in `cacheFailure`
    /// (the change is queued all the same), and a queue that cannot be written or listed is thrown.
    public func submit(_ change: QueuedEdit.Change, reachable: Bool,
                       cacheFailure: (any Error) -> Void = { _ in }) async throws -> SubmittedEdit {
        let own = try delivery.queue.enqueue(change)
        do {
            switch change {
            case .delete(let items): _ = try await delivery.repository.remove(ids: Set(items.map(\.id)))
            case let .update(item, changed, _): try await delivery.repository.replace(id: item.id, with: changed)
            }
        } catch {
            cacheFailure(error)
        }
        guard reachable else { return .waiting(own) }
        let sent: SubmittedEdit? = try await FileLock.withLockIfFree(syncLock) {
            let listed = try delivery.queue.listing()
            return .sent(own, await delivery.send(listed.sendable), blocker: listed.blocker)
        }
        return sent ?? .busy(own)
    }
}
