import ExpenseLogClient
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// What the server answered to one queued change.
public enum DeliveredEdit: Sendable {
    /// A deletion: the ids deleted, and those the server no longer had.
    case deleted(QueuedEdit, deleted: [String], missing: [String])
    /// An update: the item as the server saved it.
    case changed(QueuedEdit, saved: Item)
    /// An update that can never apply: the server no longer has the item in its month (deleted or moved elsewhere), or
    /// a field it changes was changed there since (a conflict, which it must not undo).
    case vanished(QueuedEdit, APIError)

    /// The change answered.
    public var edit: QueuedEdit {
        switch self {
        case .deleted(let edit, _, _), .changed(let edit, _), .vanished(let edit, _): edit
        }
    }
}

/// What a run of the queue did: the changes answered, in order, and the one that stopped it, if any.
public struct ChangeSendingOutcome: Sendable {
    /// The changes the server answered, which left the queue.
    public var delivered: [DeliveredEdit] = []
    /// The change the server could not be asked about, or refused; it and those after it stay queued.
    public var stop: (edit: QueuedEdit, error: APIError)?
    /// How many changes stay queued.
    public var remaining = 0
    /// A change the server answered that could not be taken off the queue: sending stopped there, since sending it again
    /// after a later change would undo that one.
    public var unrecorded: (answer: DeliveredEdit, error: StoreError)?
    /// Why the cache could not follow an answer (the queue did: the changes are made on the server).
    public var cacheFailures: [StoreError] = []
    /// What the server had to say besides (a year's spreadsheet found in the trash), each once.
    public var notices: [String] = []
}

/// Sends queued changes in the order they were queued, one POST each, then brings the cache in step with the answers; the
/// caller holds the outbox's sync lock.
public struct ChangeSending: Sendable {
    /// The client that sends.
    public let client: ExpenseLogAPIClient
    /// The cache updated with each answer.
    public let repository: LocalRepository
    /// The journal the changes leave once answered.
    public let journal: Journal

    /// A delivery over a client, a cache and a journal.
    public init(client: ExpenseLogAPIClient, repository: LocalRepository, journal: Journal) {
        (self.client, self.repository, self.journal) = (client, repository, journal)
    }

    /// Sends `edits` in order and stops at the first that is neither answered nor moot, so none overtakes another. The
    /// cache follows the answers once, at the end: it already shows every queued change made, so what it learns from the
    /// answers (the server's form of an item) can wait, and each month is written once however many changes touch it.
    public func send(_ edits: [QueuedEdit]) async -> ChangeSendingOutcome {
        var outcome = ChangeSendingOutcome()
        var stoppedAt = edits.endIndex
        for (index, edit) in edits.enumerated() {
            let answered: DeliveredEdit
            do {
                answered = try await deliver(edit, notices: &outcome.notices)
            } catch {
                outcome.stop = (edit, error as? APIError ?? .network(url: client.baseURL, reason: .other("\(error)")))
                outcome.remaining = edits.count - index
                stoppedAt = index
                break
            }
            do {
                try journal.remove(edit)
            } catch {
                outcome.unrecorded = (answered, StoreError.wrapping(error, path: edit.file.path, writing: true))
                outcome.remaining = edits.count - index
                stoppedAt = index
                break
            }
            outcome.delivered.append(answered)
        }
        do {
            try await cache(outcome.delivered, later: edits[stoppedAt...])
        } catch {
            outcome.cacheFailures.append(StoreError.wrapping(error, path: repository.directory.path, writing: true))
        }
        return outcome
    }

    /// Brings the cache in step with the answers, in order, and with the changes still queued after them, so the cache
    /// goes on showing what the queue will make of each item: one removal and one addition over the months touched.
    private func cache(_ answers: [DeliveredEdit], later: ArraySlice<QueuedEdit>) async throws {
        var gone: Set<String> = [], saved: [String: Item] = [:]
        for answer in answers {
            switch answer {
            case let .deleted(_, deleted, missing):
                for id in deleted + missing {
                    saved[id] = nil
                    gone.insert(id)
                }
            case let .changed(edit, item):
                saved[edit.ids[0]] = item
                gone.remove(edit.ids[0])
            case .vanished(let edit, _):
                for id in edit.ids {
                    saved[id] = nil
                    gone.insert(id)
                }
            }
        }
        guard !answers.isEmpty else { return }
        // A change still queued for an answered item is laid over its answer (a queued deletion removes it); a change of
        // an item no answer named is the cache's already, and `applied` would bring it in as queued: left out.
        let items = Array(later).applied(to: Array(saved.values)).filter { saved[$0.id] != nil }
        // An item whose date changed moves month: every answered copy leaves first, wherever it was, in the same lock.
        try await repository.replace(removing: gone.union(saved.keys), adding: items)
    }

    /// Sends one change: a deletion in batches of `ExpenseLogAPIClient.deleteBatch` (a batch sent again after a failure
    /// answers its ids as missing, so the change stays whole in the queue until every batch is answered).
    private func deliver(_ edit: QueuedEdit, notices: inout [String]) async throws -> DeliveredEdit {
        switch edit.change {
        case .delete(let items):
            var deleted: [String] = [], missing: [String] = []
            let references = items.map { ItemReference(id: $0.id, date: $0.date) }
            for start in stride(from: 0, to: references.count, by: ExpenseLogAPIClient.deleteBatch) {
                let answer = try await client.delete(
                    Array(references[start..<min(start + ExpenseLogAPIClient.deleteBatch, references.count)]))
                deleted += answer.deleted
                missing += answer.missing
                notices += answer.notices.filter { !notices.contains($0) }
            }
            return .deleted(edit, deleted: deleted, missing: missing)
        case let .update(item, changed, fields):
            do {
                // unique: the time, the process and a random part
                let name = edit.file.deletingPathExtension().lastPathComponent
                return .changed(edit, saved: try await client.update(item, to: changed, fields: fields, change: name))
            } catch let error as APIError where error.isNotFound || error.isConflict {
                return .vanished(edit, error)
            }
        }
    }
}
