import ExpenseLogKit
import Foundation

/// `register`'s check against what the server and the outbox already hold, before anything is sent.
struct DuplicateCheck {
    let context: Context
    let loader: MonthLoader
    let outbox: Outbox
    /// `--allow-duplicates`: send likely duplicates anyway (an item with a known id is never sent twice).
    let allowLikely: Bool

    /// The items to send (the input's spool when nothing is known, else a new one), a report row for each one skipped
    /// (also marked in `report`), and how many items the outbox holds.
    func run(_ inputs: RegisterInputs, report: inout ImportReport, progress: ProgressLine)
        async throws -> (items: ItemSpool, skipped: [ImportReport.Row], waiting: Int) {
        let months = inputs.months.sorted()
        progress.show("Comparing with \(months.count) month\(months.count == 1 ? "" : "s") on the server", force: true)
        // Always the server's current months: a cached copy may predate items another machine added since.
        let loaded = await loader.load(months, policy: .preferServer)
        progress.clear()
        var known: [KnownItem] = []
        for month in loaded {
            try note(month)
            if let rows = month.rows {
                context.report(rows, of: month.month)
                // A row that cannot be read still shows its id: an input item with that id is on the server already.
                known.append(contentsOf: rows.unreadable.compactMap { row in row.id.map { KnownItem.unreadableRow(id: $0, in: month.month) } })
            }
            // With the items dated outside the month too: the sheet shows their ids (a date edited by hand).
            known.append(contentsOf: (month.items + month.outside).map { KnownItem(item: $0, place: .server) })
        }
        let (entries, problems) = try outbox.entries()
        for problem in problems { context.warn(problem) }
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
        guard !finder.isEmpty else { return (inputs.spool, [], waiting) }
        var matcher = finder.matcher(inputIDs: inputs.inputIDs)
        let kept = try ItemSpool()
        var skipped: [ImportReport.Row] = []
        var reader = try inputs.spool.reader()
        while let (item, row) = try reader.next() {
            let skip: ImportReport.Row
            switch matcher.verdict(for: item) {
            case .new:
                try kept.append(item, tag: row)
                continue
            case .likely where allowLikely:  // --allow-duplicates: only a known id is never sent twice
                try kept.append(item, tag: row)
                continue
            case .sameID(let match):
                skip = ImportReport.Row(location: report.location(ofRow: Int(row)), status: .duplicate, item: item,
                                        reasons: ["id \(item.id) is already \(Self.place(match))"], matched: match)
            case .likely(let match):
                skip = ImportReport.Row(location: report.location(ofRow: Int(row)), status: .likelyDuplicate, item: item,
                                        reasons: ["the same date, price and name as \(Self.describe(match.item)) "
                                                  + "\(Self.place(match))"], matched: match)
            }
            skipped.append(skip)
            report.mark(row: Int(row), skip.status, reasons: skip.reasons, matched: skip.matched)
        }
        return (kept, skipped, waiting)
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
        TextTable.printable("\(item.date) \(item.name) ¥\(PriceText.format(item.price)) (id \(item.id))")
    }
}
