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
        let (changes, failure) = waitingChanges()
        let loaded = await MonthLoader(client: link?.client, repository: repository, strict: strict, edits: changes)
            .load(
                months, policy: policy)
        return MonthsOutcome(
            loaded: loaded, changes: changes, journalFailure: failure,
            waiting: withWaiting ? waitingItems(in: Set(months), changes: changes) : [],
            cacheWarnings: await repository.takeWarnings())
    }

    /// What the cache met since this was last asked (corrupt files moved aside), to say once.
    public nonisolated func cacheWarnings() async -> [String] {
        await repository.takeWarnings()
    }

    /// Every item the cache holds (a guess from history, the ids short ids are told apart among).
    public nonisolated func cachedItems() async -> [Item] {
        await CacheContents(repository).items()
    }

    /// The items of `months` still waiting to be registered, with `changes` laid over them (a deleted one left out; an
    /// edit of another item is the cache's to show); none when the journal cannot be read.
    public nonisolated func waitingItems(in months: Set<YearMonth>, changes: [QueuedEdit]) -> [Item] {
        let queued = (try? journal.waitingItems(in: months)) ?? []
        let queuedIDs = Set(queued.map(\.id))
        return changes.applied(to: queued).filter { queuedIDs.contains($0.id) && months.contains($0.date.yearMonth) }
    }
}

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

extension Ledger {
    /// `cache list`: the cached months with their counts, totals and fetch times.
    public nonisolated func cachedMonths() async throws -> [CacheContents.Month] {
        try await CacheContents(repository).months()
    }

    /// `cache clear`: removes every cached month; returns how many.
    public nonisolated func clearCache() async throws -> Int {
        try await CacheContents(repository).clear()
    }

    /// What `edit`, `delete` and `same` look items up in: the cache as the changes `queued` leave it, and the items
    /// still waiting in the journal.
    public nonisolated func targets(queued: [QueuedEdit]) -> EditTargets {
        EditTargets(repository: repository, queued: queued, journal: journal)
    }
}
