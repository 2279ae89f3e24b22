import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// What happens during `register`'s duplicate check that the caller shows at once.
public enum DuplicateCheckEvent: Sendable {
    /// The check is about to read this many months from the server.
    case comparing(months: Int)
    /// The server's answer for a month had rows left out or read with a guess.
    case rows(SheetAnswer, YearMonth)
    /// A month could not be compared (the server failed and it is not cached, or no server is used); why, in words.
    case notCompared(YearMonth, why: String)
    /// A month was compared with its cached copy because the server failed.
    case comparedWithCache(YearMonth, MonthFailure)
    /// A month was read but could not be cached.
    case cacheFailure(StoreError)
    /// An outbox entry cannot be read (it is left in place).
    case outboxProblem(String)
    /// The months were read (what they held is reported next).
    case compared
}

/// `register`'s check against what the server and the outbox already hold, before anything is sent: an item whose id
/// is known is skipped, and so is one with the same date, price and name unless `allowLikely`.
public struct DuplicateCheck: Sendable {
    /// Reads the months the items fall in, afresh from the server (a cached copy may predate another device's items).
    public let loader: MonthLoader
    /// The outbox, whose waiting items count as known.
    public let outbox: Outbox
    /// `--allow-duplicates`: send likely duplicates anyway (an item with a known id is never sent twice).
    public let allowLikely: Bool

    /// A check over a loader and an outbox.
    public init(loader: MonthLoader, outbox: Outbox, allowLikely: Bool) {
        (self.loader, self.outbox, self.allowLikely) = (loader, outbox, allowLikely)
    }

    /// The items to send (`spool` itself when nothing is known, else a new spool), a report row for each one skipped
    /// (also marked in `report`), and how many items the outbox holds. A month the server refuses for a reason that
    /// will not pass (401, a non-JSON answer) is thrown.
    /// `madeIDRows` are the rows whose ids were made from their content, which `--explain` says.
    public func run(months: [YearMonth], spool: ItemSpool, madeIDRows: RowSet = RowSet(), report: inout ImportRecord,
                    event: (DuplicateCheckEvent) -> Void) async throws -> (items: ItemSpool, skipped: [ImportRecord.Row], waiting: Int) {
        event(.comparing(months: months.count))
        let loaded = await loader.load(months, policy: .preferServer)
        event(.compared)
        var known: [KnownItem] = []
        for month in loaded {
            try note(month, event)
            if let rows = month.rows {
                event(.rows(rows, month.month))
                // A row that cannot be read still shows its id: an input item with that id is on the server already.
                known.append(contentsOf: rows.unreadable.compactMap { row in row.id.map { KnownItem.unreadableRow(id: $0, in: month.month) } })
            }
            // With the items dated outside the month too: the sheet shows their ids (a date edited by hand).
            known.append(contentsOf: (month.items + month.outside).map { KnownItem(item: $0, place: .server) })
        }
        let (entries, problems) = try outbox.entries()
        for problem in problems { event(.outboxProblem(problem)) }
        var waiting = 0
        for entry in entries {
            let before = known.count
            // An entry that a sync finished since it was listed is left out: its items are on the server, compared above.
            let listed = try outbox.forEachBatch(of: entry) { batch in
                known.append(contentsOf: batch.items.map { KnownItem(item: $0, place: .outbox) })
            }
            if listed { waiting += entry.itemCount } else { known.removeSubrange(before...) }
        }

        let finder = DuplicateFinder(known: known)
        // Nothing known (the usual import into new months): the items go on as they are, not copied.
        guard !finder.isEmpty else { return (spool, [], waiting) }
        // The input's ids that are known, read first so that the answer does not depend on the rows' order.
        var knownIDs: [String] = []
        var idReader = try spool.reader()
        while let (item, _) = try idReader.next() {
            if finder.knows(id: item.id) { knownIDs.append(item.id) }
        }
        var matcher = finder.matcher(inputIDs: knownIDs)
        let kept = try ItemSpool()
        var skipped: [ImportRecord.Row] = []
        var reader = try spool.reader()
        while let (item, row) = try reader.next() {
            let skip: ImportRecord.Row
            switch matcher.verdict(for: item) {
            case .new:
                try kept.append(item, tag: row)
                continue
            case .likely where allowLikely:  // --allow-duplicates: only a known id is never sent twice
                try kept.append(item, tag: row)
                continue
            case .sameID(let match):
                skip = ImportRecord.Row(location: report.location(ofRow: Int(row)), status: .duplicate, item: item,
                                        reasons: ["id \(PrintableText.of(item.id)) is already \(Self.place(match))"
                                                  + (madeIDRows.contains(Int(row)) ? " (\(DerivedID.explanation): the same row was imported before)" : "")],
                                        matched: match)
            case .likely(let match):
                skip = ImportRecord.Row(location: report.location(ofRow: Int(row)), status: .likelyDuplicate, item: item,
                                        reasons: ["the same date, price and name as \(Self.describe(match.item)) "
                                                  + "\(Self.place(match))"], matched: match)
            }
            skipped.append(skip)
            report.mark(row: Int(row), skip.status, reasons: skip.reasons, matched: skip.matched)
        }
        return (kept, skipped, waiting)
    }

    /// Says what a month that could not be compared with the server means; a permanent error stops the check.
    private func note(_ loaded: LoadedMonth, _ event: (DuplicateCheckEvent) -> Void) throws {
        if let failure = loaded.missing {
            if case .api(let error) = failure, !error.isTransient { throw error }
            event(.notCompared(loaded.month, why: loader.client == nil ? "it is not cached, and the server is not used" : "\(failure)"))
        } else if let fallback = loaded.fallback {
            event(.comparedWithCache(loaded.month, fallback))
        }
        if let cacheFailure = loaded.cacheFailure { event(.cacheFailure(cacheFailure)) }
    }

    static func place(_ match: KnownItem) -> String {
        match.place == .server ? "on the server" : "waiting in the outbox (run `expense-log sync`)"
    }

    /// `2024-01-22 コーヒー ¥178 (id 1000…)`, how a matched item is named in messages, control characters shown as `�`.
    static func describe(_ item: Item) -> String {
        PrintableText.of("\(item.date) \(item.name) ¥\(PriceText.format(item.price)) (id \(item.id))")
    }
}
