import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// Why a month has no items to show, or why its cached copy is shown instead of the server's.
public enum MonthFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server could not be asked, or refused.
    case api(APIError)
    /// The cache could not be read or written.
    case store(StoreError)
    /// Only the cache was to be read, and the month is not in it.
    case notCached(YearMonth)

    /// Whether waiting may help: a network failure, 429 or 5xx, or a month missing from the cache only.
    public var isTransient: Bool {
        switch self {
        case .api(let error): return error.isTransient
        case .store: return false
        case .notCached: return true
        }
    }

    /// The message shown to the user.
    public var description: String {
        switch self {
        case .api(let error): return error.description
        case .store(let error): return error.description
        case .notCached(let month): return "\(month) is not cached"
        }
    }
}

/// Where a loaded month's items came from.
public enum MonthSource: Sendable, Equatable {
    /// Fetched from the server just now.
    case server
    /// Read from the cache; `complete` is false when only items registered from here are known.
    case cache(fetchedAt: Date?, complete: Bool)
    /// Neither the server nor the cache could give it.
    case missing(MonthFailure)
}

/// One month as `MonthLoader` found it.
public struct LoadedMonth: Sendable, Equatable {
    /// The month.
    public let month: YearMonth
    /// Its items (none when missing), only those dated in the month.
    public let items: [Item]
    /// Where the items came from.
    public let source: MonthSource
    /// The failure that made it fall back to the cache, if any.
    public let fallback: MonthFailure?
    /// The items the server answered that are dated outside the month (the dummy fixtures do this): not in `items`,
    /// not cached.
    public let outside: [Item]
    /// The cache write that failed after a successful fetch (the items are still the server's), or the cache read that
    /// failed for a month the server could not give either; nil when the cache did its part.
    public let cacheFailure: StoreError?
    /// The rows of the server's answer left out or read with a guess, without its items; nil when every row was read.
    public let rows: SheetAnswer?
    /// How many items the cache held for a month the server answered empty (a year's spreadsheet in Drive's trash looks so).
    public let emptied: Int
    /// The ids of the items the server answered in the month, when queued changes made `items` differ from them (a
    /// deletion hides one, an edit moves one in); nil when `items` are as answered.
    public let answeredIDs: [String]?

    /// The same month with `waiting` (items of it still in the outbox) counted among its items, those it has already
    /// left as they are; a missing month stays missing.
    public func counting(_ waiting: [Item]) -> LoadedMonth {
        if case .missing = source { return self }
        let held = Set(items.map(\.id))
        let added = waiting.filter { $0.date.yearMonth == month && !held.contains($0.id) }
        guard !added.isEmpty else { return self }
        return LoadedMonth(
            month: month, items: items + added, source: source, fallback: fallback, outside: outside,
            cacheFailure: cacheFailure, rows: rows, emptied: emptied, answeredIDs: answeredIDs)
    }

    /// The month with only its items dated `from` to `to` (a range's first or last month).
    public func keeping(from: Day, to: Day) -> LoadedMonth {
        let kept = items.filter { $0.date >= from && $0.date <= to }
        guard kept.count < items.count else { return self }
        return LoadedMonth(
            month: month, items: kept, source: source, fallback: fallback, outside: outside,
            cacheFailure: cacheFailure, rows: rows, emptied: emptied, answeredIDs: answeredIDs)
    }

    /// A loaded month with every part given.
    public init(
        month: YearMonth, items: [Item], source: MonthSource, fallback: MonthFailure? = nil,
        outside: [Item] = [], cacheFailure: StoreError? = nil, rows: SheetAnswer? = nil, emptied: Int = 0,
        answeredIDs: [String]? = nil
    ) {
        self.month = month
        self.items = items
        self.source = source
        self.fallback = fallback
        self.outside = outside
        self.cacheFailure = cacheFailure
        self.rows = rows
        self.emptied = emptied
        self.answeredIDs = answeredIDs
    }

    /// How many items the server answered that are dated outside the month.
    public var outsideCount: Int { outside.count }

    /// The rows of the server's answer that could not be read as items.
    public var unreadable: [SheetRowProblem] { rows?.unreadable ?? [] }

    /// The failure when the month is missing, else nil.
    public var missing: MonthFailure? {
        if case .missing(let failure) = source { return failure }
        return nil
    }
}
