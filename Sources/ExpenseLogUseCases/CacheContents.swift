import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// `cache list|clear`, and what `add` guesses a category from: the months a cache holds, and emptying it.
public struct CacheContents: Sendable {
    /// One cached month, as `cache list` shows it.
    public struct Month: Sendable {
        /// The month.
        public let month: YearMonth
        /// How many items it holds.
        public let count: Int
        /// Their total price.
        public let total: Int128
        /// When it was fetched whole; nil when it holds only items registered from here.
        public let fetchedAt: Date?
    }

    /// The cache.
    public let repository: LocalRepository

    /// The contents of a cache.
    public init(_ repository: LocalRepository) {
        self.repository = repository
    }

    /// Every cached month, oldest first.
    public func months() async throws -> [Month] {
        try await repository.cachedMonths().map {
            Month(month: $0.month, count: $0.items.count, total: $0.items.totalPrice, fetchedAt: $0.fetchedAt)
        }
    }

    /// Every cached item; none when the cache cannot be read (for a guess, which is only a help).
    public func items() async -> [Item] {
        ((try? await repository.cachedMonths()) ?? []).flatMap(\.items)
    }

    /// Deletes every cached month; how many there were.
    public func clear() async throws -> Int {
        try await repository.clear()
    }
}
