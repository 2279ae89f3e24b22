import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// What the server saved during one `register` or `sync` run, kept on disk (never all in memory) to be cached by the
/// ledger and printed by the caller, once, at the end.
public struct SavedItems {
    private let spool: ItemSpool
    /// The months the items fall in (the cache writes them side by side, in one read of the spool).
    private var months: Set<YearMonth> = []
    /// Why the items could not all be kept to cache and print.
    public private(set) var keepFailure: StoreError?
    /// Whether the items were cached already.
    private var isCached = false
    /// Why caching them failed, once it was done.
    private var cacheFailure: StoreError?
    /// How many items the server saved, kept or not.
    public private(set) var registered = 0

    /// An empty record in the temporary folder.
    public init() throws {
        spool = try ItemSpool()
    }

    /// How many items were kept.
    public var count: Int { spool.count }

    /// The items kept, to print; nil when they could not all be kept (a temporary file that could not be written).
    public var kept: (any ItemRecords)? { keepFailure == nil ? spool : nil }

    /// Keeps items the server saved. The server has them already, so a temporary file that cannot be written stops only
    /// this (they are neither cached nor printed, and `cache` says so), never the sending.
    public mutating func keep(_ answer: [Item]) {
        assert(!isCached, "items kept after the cache took them would never be cached")
        registered += answer.count
        guard keepFailure == nil else { return }
        do {
            for item in answer {
                try spool.append(item, tag: 0)
                months.insert(item.date.yearMonth)
            }
        } catch {
            keepFailure = StoreError.wrapping(error, path: NSTemporaryDirectory())
        }
    }

    /// Keeps items the server saved that are, record for record, those `items` holds from `start` to `end` (the batch
    /// just sent, answered as sent): copied as bytes. `batch` is the same items, for their count, months and total.
    /// The records keep the import's report rows as their numbers, which no reader of these items looks at.
    public mutating func keep(recordsOf items: ItemSpool, from start: Int64, to end: Int64, batch: [Item]) {
        assert(!isCached, "items kept after the cache took them would never be cached")
        registered += batch.count
        guard keepFailure == nil else { return }
        do {
            try spool.append(
                recordsOf: items, from: start, to: end, count: batch.count,
                total: batch.reduce(0) { $0 + Int128($1.price) })
            for item in batch { months.insert(item.date.yearMonth) }
        } catch {
            keepFailure = StoreError.wrapping(error, path: NSTemporaryDirectory())
        }
    }

    /// Caches the items, once (later calls return the first outcome): before the queued changes are sent, so a change
    /// of an item just registered is made on the cached copy, not overwritten by it. Returns why they could not all be
    /// kept or cached.
    ///
    /// One cache write per month for the whole run, straight from the spool (a write per batch would re-write each month
    /// once per batch). The cache is only a copy: a crash that skips this costs a re-fetch.
    @discardableResult
    public mutating func cache(in repository: LocalRepository) async -> StoreError? {
        if isCached { return cacheFailure }
        var failure = keepFailure
        if failure == nil {
            do {
                try await repository.add(months, from: try spool.reader())
            } catch {
                failure = StoreError.wrapping(error, path: repository.directory.path)
            }
        }
        (isCached, cacheFailure) = (true, failure)
        return failure
    }

    /// What a failure of `cache` means for `registered` items the server has.
    public func warning(for failure: any Error, registered: Int) -> String {
        let what = keepFailure == nil ? "the cache could not be updated" : "they could not be kept to cache and print"
        return
            "\(registered) item\(registered == 1 ? " was" : "s were") registered on the server, but \(what) (\(failure)); "
            + "run fetch for their months to refresh the cache and see them"
    }
}
