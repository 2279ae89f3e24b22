import ExpenseLogClient
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// Everything a run of the pending writes did, complete: what became of the items and the changes, what the server
/// saved (cached already), and what stopped the run if anything did.
public struct SyncOutcome {
    /// What became of the items and the changes; nil when `failure` stopped the run first.
    public let result: JournalSendingOutcome?
    /// What the server saved, cached already.
    public let saved: SavedItems
    /// Why the saved items could not all be kept or cached, if so.
    public let cacheFailure: StoreError?
    /// What stopped the run (the journal could not be listed, held, read back or recorded); what was sent before it
    /// stays recorded.
    public let failure: (any Error)?
}

/// Everything an `edit` or `delete` did, complete: the change as journaled and, when the journal was sent up to it,
/// that run's report.
public struct ChangeOutcome {
    /// What became of the change; nil when `failure` stopped it first.
    public let submitted: SubmittedEdit?
    /// The run of the journal up to the change (its result when there was one, what the server saved, cached already,
    /// and what stopped it).
    public let run: SyncOutcome
    /// Why the cache could not follow the change itself (it is journaled all the same), if so.
    public let cacheFollowFailure: (any Error)?
}

extension Ledger {
    /// Whether nothing waits to be sent, not even a file that cannot be read.
    public nonisolated func nothingWaits() throws -> Bool {
        try journal.listing().isEmpty
    }

    /// `sync`: sends the journal over `link` (items after reading their months, then the changes in order), statement
    /// rows matched again and the ambiguous ones settled as `ambiguous` says (nil holds them), and caches what the
    /// server saved. Nil when another run holds the journal's lock (it may send the same writes).
    public nonisolated func sync(
        force: Bool, ambiguous: QueuedRowMatching.HeldChoiceAtSync?, link: ServerLink,
        event: (SyncEvent) -> Void
    ) async throws -> SyncOutcome? {
        var run = sync(link.client)
        if let ambiguous { run.matching = QueuedRowMatching(decisions: decisions, choice: ambiguous) }
        var saved = try SavedItems()
        var failure: (any Error)?
        var result: JournalSendingOutcome?
        do {
            guard let ran = try await run.runIfFree(force: force, saved: &saved, event: event) else { return nil }
            result = ran
        } catch {
            failure = error
        }
        let cacheFailure = await saved.cache(in: repository)
        return SyncOutcome(result: result, saved: saved, cacheFailure: cacheFailure, failure: failure)
    }

    /// `edit` and `delete`: journals `change`, brings the cache in step (and keeps a deleted statement row's decision),
    /// and when `reachable` sends the journal up to it over `link`, caching what the server saved.
    public nonisolated func submit(
        _ change: QueuedEdit.Change, reachable: Bool, link: ServerLink, event: (SyncEvent) -> Void
    ) async throws -> ChangeOutcome {
        var saved = try SavedItems()
        var submitted: SubmittedEdit?
        var failure: (any Error)?
        // Set by the submission's callback, which runs while `submit` does, on this task.
        var followFailure: (any Error)?
        do {
            submitted = try await ChangeSubmission(sync: sync(link.client), decisions: decisions).submit(
                change, reachable: reachable, saved: &saved, cacheFailure: { followFailure = $0 }, event: event)
        } catch {
            failure = error
        }
        let cacheFailure = await saved.cache(in: repository)
        var result: JournalSendingOutcome?
        if case .sent(_, let ran)? = submitted { result = ran }
        return ChangeOutcome(
            submitted: submitted,
            run: SyncOutcome(result: result, saved: saved, cacheFailure: cacheFailure, failure: failure),
            cacheFollowFailure: followFailure)
    }
}
