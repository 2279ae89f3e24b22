import ExpenseLogKit
import Foundation

/// `register`'s check against what the server and the outbox already hold, before anything is sent.
struct DuplicateCheck {
    let context: Context
    let loader: MonthLoader
    let outbox: Outbox
    /// `--allow-duplicates`: send likely duplicates anyway (an item with a known id is never sent twice).
    let allowLikely: Bool

    /// The items to send (with their locations), a report row for each one skipped, and how many items the outbox holds.
    func run(_ items: [Item], locations: [SourceLocation], progress: ProgressLine)
        async throws -> (items: [Item], locations: [SourceLocation], skipped: [ImportReport.Row], waiting: Int) {
        let months = Set(items.map(\.date.yearMonth)).sorted()
        progress.show("Comparing with \(months.count) month\(months.count == 1 ? "" : "s") on the server", force: true)
        // Always the server's current months: a cached copy may predate items another machine added since.
        let loaded = await loader.load(months, policy: .preferServer)
        progress.clear()
        var known: [KnownItem] = []
        for month in loaded {
            try note(month)
            known.append(contentsOf: month.items.map { KnownItem(item: $0, place: .server) })
        }
        let (entries, problems) = try outbox.entries()
        for problem in problems { context.warn(problem) }
        let waiting = entries.flatMap(\.items)
        known.append(contentsOf: waiting.map { KnownItem(item: $0, place: .outbox) })

        let matches = DuplicateFinder(known: known).matches(for: items)
        // Nothing matched (the usual import of new rows): the items go on as they are, not copied.
        guard !matches.isEmpty else { return (items, locations, [], waiting.count) }
        var kept: [Item] = [], keptLocations: [SourceLocation] = [], skipped: [ImportReport.Row] = []
        kept.reserveCapacity(items.count)
        for (index, (item, location)) in zip(items, locations).enumerated() {
            switch matches[index] ?? .new {
            case .new:
                kept.append(item)
                keptLocations.append(location)
            case .sameID(let match):
                skipped.append(ImportReport.Row(location: location, status: .duplicate, item: item,
                                                reasons: ["id \(item.id) is already \(Self.place(match))"], matched: match))
            case .likely where allowLikely:
                kept.append(item)
                keptLocations.append(location)
            case .likely(let match):
                skipped.append(ImportReport.Row(location: location, status: .likelyDuplicate, item: item,
                                                reasons: ["the same date, price and name as \(Self.describe(match.item)) "
                                                          + "\(Self.place(match))"], matched: match))
            }
        }
        return (kept, keptLocations, skipped, waiting.count)
    }

    /// Warns about a month that could not be compared with the server; a permanent error stops the command.
    private func note(_ loaded: LoadedMonth) throws {
        if let failure = loaded.missing {
            if case .api(let error) = failure, !error.isTransient { throw error }
            let why = loader.client == nil ? "it is not cached, and the server is not used" : "\(failure)"
            context.warn("could not compare with \(loaded.month) on the server (\(why)); its duplicates are not "
                         + "checked now (sync still skips ids the server has)")
        } else if let fallback = loaded.fallback {
            context.warn("compared with the cached copy of \(loaded.month), because the server failed: \(fallback)")
        }
        if let cacheFailure = loaded.cacheFailure { context.warn("the cache could not be updated: \(cacheFailure)") }
    }

    static func place(_ match: KnownItem) -> String {
        match.place == .server ? "on the server" : "waiting in the outbox (run `expense-log sync`)"
    }

    /// `2024-01-22 コーヒー ¥178 (id 1000…)`, how a matched item is named in messages.
    static func describe(_ item: Item) -> String {
        "\(item.date) \(item.name) ¥\(PriceText.format(item.price)) (id \(item.id))"
    }
}
