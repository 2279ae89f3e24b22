import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// Loads several months from the cache or the server, a few requests at a time, caching what it fetches as `fetch` does.
public struct MonthLoader: Sendable {
    /// How to choose between the cache and the server.
    public enum Policy: Sendable, Equatable {
        /// A month cached whole comes from the cache; others are fetched, falling back to any cached copy on a transient failure.
        case preferCache
        /// Every month is fetched, falling back to any cached copy on a transient failure (as `fetch`).
        case preferServer
        /// Every month is fetched, and a failure is never hidden behind the cache (as `fetch --refresh`).
        case refresh
        /// Only the cache is read.
        case offline
    }

    /// The client that fetches; nil reads only the cache, whatever the policy.
    public let client: ExpenseLogAPIClient?
    /// The cache read and written.
    public let repository: LocalRepository
    /// The most months loaded at once.
    public let maxConcurrent: Int
    /// Whether a month with rows that cannot be read is refused whole (`--strict`) instead of loaded without them.
    public let strict: Bool
    /// Edits and deletions waiting to be sent, made on each month fetched before it is cached and shown.
    public let edits: [QueuedEdit]

    /// A year's twelve months and the month on each side at once: Apps Script runs 30 executions of one user at a time,
    /// which leaves room for another device. A year then takes one round trip instead of four, and so does a year of
    /// statement rows, whose matching window reaches a few days into the months around it (with 12, those two months
    /// cost an import a second round trip).
    public static let defaultConcurrency = 14  // URLSessionSession (macOS) opens as many connections to one host

    /// A loader over a client and a cache.
    public init(
        client: ExpenseLogAPIClient?, repository: LocalRepository, maxConcurrent: Int = MonthLoader.defaultConcurrency,
        strict: Bool = false, edits: [QueuedEdit] = []
    ) {
        self.client = client
        self.repository = repository
        self.maxConcurrent = max(1, maxConcurrent)
        self.strict = strict
        self.edits = edits
    }

    /// Each month, in the order given, with its items and where they came from; failures are in the results, never thrown.
    public func load(_ months: [YearMonth], policy: Policy) async -> [LoadedMonth] {
        // Whether the server keeps who paid is read once for all the months, not once a month.
        let withPayer = await asksPayer()
        return await withTaskGroup(of: (Int, LoadedMonth).self) { group in
            var results = [LoadedMonth?](repeating: nil, count: months.count)
            var next = 0
            // Start a few, then one more each time one finishes: never more than maxConcurrent in flight.
            while next < months.count, next < maxConcurrent {
                let index = next
                group.addTask { (index, await load(months[index], policy: policy, withPayer: withPayer)) }
                next += 1
            }
            while let (index, loaded) = await group.next() {
                results[index] = loaded
                if next < months.count {
                    let index = next
                    group.addTask { (index, await load(months[index], policy: policy, withPayer: withPayer)) }
                    next += 1
                }
            }
            // Every child returns a value (failures are values too), so every slot is filled.
            return results.compactMap { $0 }
        }
    }

    /// One month under a policy.
    public func load(_ month: YearMonth, policy: Policy) async -> LoadedMonth {
        await load(month, policy: policy, withPayer: await asksPayer())
    }

    /// Whether months are asked for with who paid: the server is known to keep it (its `?action=info`, remembered).
    private func asksPayer() async -> Bool {
        guard client != nil else { return false }
        return await repository.serverInfo()?.offers("payer") == true
    }

    private func load(_ month: YearMonth, policy: Policy, withPayer: Bool) async -> LoadedMonth {
        let cached: CachedMonth?
        let readFailure: StoreError?
        do {
            cached = try await repository.month(month)
            readFailure = nil
        } catch {
            cached = nil
            readFailure = Self.storeError(error, repository, writing: false)
        }
        guard let client, policy != .offline else {
            if let cached { return Self.fromCache(cached) }
            return LoadedMonth(
                month: month, items: [], source: .missing(readFailure.map(MonthFailure.store) ?? .notCached(month)))
        }
        if policy == .preferCache, let cached, cached.isComplete { return Self.fromCache(cached) }

        let answer: SheetAnswer
        do {
            answer = try await client.fetch(month, withPayer: withPayer)
            if strict, let failure = answer.strictFailure(url: client.baseURL, month: month) { throw failure }
        } catch {
            let failure = Self.failure(error, client)
            let fallsBack = (policy == .preferCache || policy == .preferServer) && failure.isTransient
            if fallsBack, let cached { return Self.fromCache(cached, fallback: failure) }
            return LoadedMonth(
                month: month, items: [], source: .missing(failure), cacheFailure: fallsBack ? readFailure : nil)
        }
        // The cache file of a month holds only that month (the dummy fixtures answer January 2024 for any month).
        let own = answer.items.filter { $0.date.yearMonth == month }
        let items = edits.isEmpty ? own : edits.applied(to: own, in: month)
        var cacheFailure: StoreError?
        do {
            try await repository.replaceMonth(month, with: items, fetchedAt: Date())
        } catch {
            cacheFailure = Self.storeError(error, repository, writing: true)
        }
        return LoadedMonth(
            month: month, items: items, source: .server, outside: answer.items.filter { $0.date.yearMonth != month },
            cacheFailure: cacheFailure, rows: answer.problemsOnly,
            emptied: answer.items.isEmpty && answer.unreadable.isEmpty ? cached?.items.count ?? 0 : 0,
            answeredIDs: edits.isEmpty ? nil : own.map(\.id))
    }

    static func fromCache(_ cached: CachedMonth, fallback: MonthFailure? = nil) -> LoadedMonth {
        LoadedMonth(
            month: cached.month, items: cached.items,
            source: .cache(fetchedAt: cached.fetchedAt, complete: cached.isComplete), fallback: fallback)
    }

    /// The client throws only `APIError`s, but a cancelled retry wait throws `CancellationError`: the request never finished.
    static func failure(_ error: any Error, _ client: ExpenseLogAPIClient) -> MonthFailure {
        (error as? APIError).map(MonthFailure.api) ?? .api(.network(url: client.baseURL, reason: .other("\(error)")))
    }

    /// The repository throws `StoreError`s; anything else is named after the cache folder.
    static func storeError(_ error: any Error, _ repository: LocalRepository, writing: Bool) -> StoreError {
        StoreError.wrapping(error, path: repository.directory.path, writing: writing)
    }
}
