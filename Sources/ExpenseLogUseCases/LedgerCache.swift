import ExpenseLogModel
import Foundation

extension Ledger {
    /// `cache list`: the cached months with their counts, totals and fetch times.
    public nonisolated func cachedMonths() async throws -> [CacheContents.Month] {
        try await CacheContents(repository).months()
    }

    /// `cache clear`: removes every cached month; returns how many.
    public nonisolated func clearCache() async throws -> Int {
        try await CacheContents(repository).clear()
    }

    /// What the cache met since this was last asked (corrupt files moved aside), to say once.
    public nonisolated func cacheWarnings() async -> [String] {
        await repository.takeWarnings()
    }

    /// Every item the cache holds (a guess from history, the ids short ids are told apart among).
    public nonisolated func cachedItems() async -> [Item] {
        await CacheContents(repository).items()
    }
}
