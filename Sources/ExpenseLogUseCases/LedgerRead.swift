import ExpenseLogClient
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// Months as `fetch`, `summary` and `report` read them, complete: each month from the server or the cache, the changes
/// waiting (laid over them), the items of them still waiting to be registered, and what the cache had to say.
public struct MonthsOutcome {
    /// Each month as read, in the order asked.
    public let loaded: [LoadedMonth]
    /// The changes waiting, oldest first (laid over the months read).
    public let changes: [QueuedEdit]
    /// Why the journal could not be listed, if so: the months are then shown without the changes waiting.
    public let journalFailure: (any Error)?
    /// The items of these months still waiting to be registered, with the changes laid over them (a deleted one left
    /// out); empty when not asked for.
    public let waiting: [Item]
    /// What the cache could not do on the way (a month it could not write), to say once.
    public let cacheWarnings: [String]
}

extension Ledger {
    /// The changes waiting, and why the journal could not be listed when it could not (none are then known).
    public nonisolated func waitingChanges() -> (changes: [QueuedEdit], failure: (any Error)?) {
        do {
            return (try journal.listing().changes, nil)
        } catch {
            return ([], error)
        }
    }

    /// Reads `months` as `policy` says (over `link`, nil for offline), `strict` refusing an answer with rows left out,
    /// with the items of them still waiting when `withWaiting`.
    public nonisolated func read(
        _ months: [YearMonth], policy: MonthLoader.Policy, strict: Bool, link: ServerLink?,
        withWaiting: Bool = false
    ) async -> MonthsOutcome {
        // The journal is listed once: its changes are laid over the months, its entries give the items still waiting.
        var listed: JournalListing?
        var failure: (any Error)?
        do {
            listed = try journal.listing()
        } catch {
            failure = error
        }
        let changes = listed?.changes ?? []
        let loaded = await MonthLoader(client: link?.client, repository: repository, strict: strict, edits: changes)
            .load(months, policy: policy)
        var waiting: [Item] = []
        if withWaiting, let entries = listed?.itemEntries {
            let wanted = Set(months)
            let queued = (try? journal.waitingItems(in: entries) { wanted.contains($0.date.yearMonth) }) ?? []
            waiting = Self.laid(changes, over: queued, in: wanted)
        }
        return MonthsOutcome(
            loaded: loaded, changes: changes, journalFailure: failure, waiting: waiting,
            cacheWarnings: await repository.takeWarnings())
    }

    /// `queued` with `changes` laid over them, those still of `months` (a deleted one left out, one moved away too).
    private static func laid(_ changes: [QueuedEdit], over queued: [Item], in months: Set<YearMonth>) -> [Item] {
        let queuedIDs = Set(queued.map(\.id))
        return changes.applied(to: queued).filter { queuedIDs.contains($0.id) && months.contains($0.date.yearMonth) }
    }
}
