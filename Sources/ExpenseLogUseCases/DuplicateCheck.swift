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
    case notCompared(YearMonth, failure: MonthFailure?)
    /// A month was compared with its cached copy because the server failed.
    case comparedWithCache(YearMonth, MonthFailure)
    /// A month was read but could not be cached.
    case cacheFailure(StoreError)
    /// An outbox entry cannot be read (it is left in place).
    case outboxProblem(String)
    /// The months were read (what they held is reported next).
    case compared
}

/// A statement row that may be the same purchase as items already there, for a person (or `--ambiguous`) to decide.
public struct HeldRow: Sendable {
    /// Where it was read.
    public let location: SourceLocation
    /// The row's item.
    public let item: Item
    /// The items it may be, the closest first.
    public let candidates: [KnownItem]
}

/// What a person (or `--ambiguous`) decided about a held row.
public enum HeldChoice: Sendable, Equatable {
    /// The same purchase as this item: not sent.
    case same(KnownItem)
    /// A purchase of its own: sent.
    case new
    /// Left out, and not asked about again.
    case skip
}

/// `register`'s check against what the server and the outbox already hold, before anything is sent: an item whose id
/// is known is skipped; a statement row (one that came without an id of its own) that is the same purchase as an item
/// already there is matched and not sent (`StatementMatcher`), and one that may be is held for a person to decide.
/// Decisions are kept (`ImportDecisions`) so that every later import of an overlapping statement reaches the same ones.
public struct DuplicateCheck: Sendable {
    /// Reads the months the items fall in, afresh from the server (a cached copy may predate another device's items).
    public let loader: MonthLoader
    /// The outbox, whose waiting items count as known.
    public let journal: Journal
    /// The statement matching; nil with `--allow-duplicates` (only an id already there is skipped).
    public let matcher: StatementMatcher?
    /// The decisions earlier imports kept, by the row's id.
    public let decided: [String: RowDecision]
    /// The household's fixed costs, which statement rows may pay and `recurring post` registers: asked for while the
    /// months are read.
    let rules: @Sendable () async -> [RecurringRule]

    /// A check over a loader and an outbox, meeting `rules`' occurrences.
    public init(
        loader: MonthLoader, journal: Journal, matcher: StatementMatcher?, decided: [String: RowDecision] = [:],
        rules: @escaping @Sendable () async -> [RecurringRule] = { [] }
    ) {
        (self.loader, self.journal, self.matcher, self.decided, self.rules) = (loader, journal, matcher, decided, rules)
    }

    /// What the check found.
    public struct Outcome {
        /// The items to send (the input's spool itself when nothing is known).
        public var items: ItemSpool
        /// The rows not sent because they are already there: the same id, matched, decided earlier, skipped.
        public var skipped: [ImportRecord.Row] = []
        /// The rows held back for a person, with what each may be.
        public var held: [ImportRecord.Row] = []
        /// How many items earlier runs left in the outbox.
        public var waiting = 0
        /// The decisions this run made, to keep (by the row's id).
        public var decisions: [String: RowDecision] = [:]
    }

    /// A row's fate, decided before the second pass writes the items to send (`DuplicateCheckFixedCosts` decides a
    /// fixed cost's).
    enum Fate {
        case duplicate(KnownItem)
        case matched(KnownItem?, reason: String, japanese: String)
        case held([KnownItem])
        case skipped(String, japanese: String)
        /// A statement row that pays a fixed cost's occurrence: sent as this item (the occurrence's id).
        case pays(Item)
        /// A statement row naming a fixed cost near its day with another amount.
        case feeChanged(RecurringOccurrence)
    }

    /// Compares the items of `spool` with what is known; `isStatementRow` says which rows came without an id of their
    /// own (a made id, or a foreign layout's), `madeIDRows` which ids were made from their content (for `--explain`).
    /// `decide` is asked about each row matching cannot settle (nil holds it back), the answers kept as `deciding`'s;
    /// `today` dates the decisions kept. `legacyIDs` are the ids rows would have had before accounts counted: such an
    /// id on the server is the row imported by an earlier version (once), and a decision kept under it holds.
    /// A month the server refuses for a reason that will not pass (401, a non-JSON answer) is thrown.
    public func run(
        months: [YearMonth], spool: ItemSpool, isStatementRow: (Int) -> Bool, madeIDRows: RowSet = RowSet(),
        legacyIDs: [Int: String] = [:], today: Day, report: inout ImportRecord, deciding: RowDecision.Source = .person,
        decide: (HeldRow) async throws -> HeldChoice?, event: (DuplicateCheckEvent) -> Void
    ) async throws -> Outcome {
        event(.comparing(months: months.count))
        async let ruled = rules()
        let loaded = await loader.load(months, policy: .preferServer)
        let recurring = RecurringRows(rules: await ruled, window: matcher?.window ?? RecurringOccurrence.window)
        event(.compared)
        var known: [KnownItem] = []
        for month in loaded {
            try note(month, event)
            if let rows = month.rows {
                event(.rows(rows, month.month))
                // A row that cannot be read still shows its id: an input item with that id is on the server already.
                known.append(
                    contentsOf: rows.unreadable.compactMap { row in
                        row.id.map { KnownItem.unreadableRow(id: $0, in: month.month) }
                    })
            }
            // With the items dated outside the month too: the sheet shows their ids (a date edited by hand).
            known.append(contentsOf: (month.items + month.outside).map { KnownItem(item: $0, place: .server) })
        }
        var outcome = Outcome(items: spool)
        let listed = try journal.listing()
        for problem in listed.problems { event(.outboxProblem(problem)) }
        for entry in listed.itemEntries {
            let before = known.count
            // An entry that a sync finished since it was listed is left out: its items are on the server, compared above.
            let listed = try journal.forEachBatch(of: entry) { batch in
                known.append(contentsOf: batch.items.map { KnownItem(item: $0, place: .outbox) })
            }
            if listed { outcome.waiting += entry.itemCount } else { known.removeSubrange(before...) }
        }

        let finder = DuplicateFinder(known: known)
        // Nothing known and nothing decided (the usual import into new months): the items go on as they are, not copied.
        guard !finder.isEmpty || !decided.isEmpty || !recurring.rules.isEmpty else { return outcome }
        // Every month read from the server (or its cache): an item a decision names and none of them holds is gone.
        let compared = loaded.allSatisfy { $0.missing == nil }
        let fates = try await fates(
            of: spool, finder: finder, recurring: recurring, isStatementRow: isStatementRow, legacyIDs: legacyIDs,
            compared: compared,
            today: today, report: report,
            deciding: deciding, decide: decide, decisions: &outcome.decisions)
        guard !fates.isEmpty else { return outcome }
        let kept = try ItemSpool()
        var reader = try spool.reader()
        while let (item, tag) = try reader.next() {
            let row = Int(tag)
            guard let fate = fates[row] else {
                try kept.append(item, tag: tag)
                continue
            }
            if case .pays(let occurrence) = fate {
                try kept.append(occurrence, tag: tag)
                continue
            }
            let location = report.location(ofRow: row)
            var skip: ImportRecord.Row
            switch fate {
            case .duplicate(let match):
                let reason =
                    SheetText.key(match.item.id) == SheetText.key(item.id)
                    ? "id \(PrintableText.of(item.id)) is already \(Self.place(match))"
                        + (madeIDRows.contains(row)
                            ? " (\(DerivedID.explanation): the same row was imported before)" : "")
                    : "the same row was imported before, as id \(PrintableText.of(match.item.id)) (made before a row's id included its "
                        + "card or account), which is \(Self.place(match))"
                let japanese =
                    SheetText.key(match.item.id) == SheetText.key(item.id)
                    ? "ID \(PrintableText.of(item.id)) はすでに\(Self.japanesePlace(match))にあります"
                        + (madeIDRows.contains(row) ? " (日付・品名・金額と同じ行の中の位置から作った ID: 以前に取り込んだ同じ行)" : "")
                    : "以前に ID \(PrintableText.of(match.item.id)) として取り込んだ同じ行で (カードや口座が ID に入る前に作った ID)、"
                        + "\(Self.japanesePlace(match))にあります"
                skip = ImportRecord.Row(
                    location: location, status: .duplicate, item: item, reasons: [reason], matched: match)
                skip.japaneseReasons = [japanese]
            case let .matched(match, reason, japanese):
                skip = ImportRecord.Row(
                    location: location, status: .matched, item: item, reasons: [reason], matched: match)
                skip.japaneseReasons = [japanese]
            case let .skipped(reason, japanese):
                skip = ImportRecord.Row(location: location, status: .skipped, item: item, reasons: [reason])
                skip.japaneseReasons = [japanese]
            case .held(let candidates):
                skip = ImportRecord.Row(
                    location: location, status: .held, item: item,
                    reasons: [
                        "it may be the same purchase as "
                            + candidates.map { Self.describe($0.item) + " " + Self.place($0) }
                            .joined(separator: ", or ")
                    ], candidates: candidates)
                outcome.held.append(skip)
                report.mark(row: row, skip.status, reasons: skip.reasons, candidates: candidates)
                continue
            case .feeChanged(let occurrence):
                let held = ImportRecord.Row(
                    location: location, status: .held, item: item,
                    reasons: [Self.feeChange(occurrence, item, finder.item(withID: occurrence.id))])
                outcome.held.append(held)
                report.mark(row: row, held.status, reasons: held.reasons)
                continue
            case .pays:
                continue
            }
            outcome.skipped.append(skip)
            report.mark(row: row, skip.status, reasons: skip.reasons, matched: skip.matched)
        }
        outcome.items = kept
        return outcome
    }

    /// The fate of every row that is not simply sent, by row: a known id first, then a decision kept, then matching.
    private func fates(
        of spool: ItemSpool, finder: DuplicateFinder, recurring: RecurringRows, isStatementRow: (Int) -> Bool,
        legacyIDs: [Int: String],
        compared: Bool, today: Day,
        report: ImportRecord, deciding: RowDecision.Source, decide: (HeldRow) async throws -> HeldChoice?,
        decisions: inout [String: RowDecision]
    ) async throws -> [Int: Fate] {
        // The input's known ids, read first so that the answer does not depend on the rows' order.
        var inputIDs = Set<String>()
        // An id made before accounts counted names no card: a file's rows are taken for the rows an earlier version
        // imported only when the file shows it was (most of its old ids there, none of its new ones); else another
        // card's identical row would be dropped. Counted per file: rows with an old id, old ids known, new ids known.
        var evidence: [String: (rows: Int, old: Int, new: Int)] = [:]
        var idReader = try spool.reader()
        while let (item, tag) = try idReader.next() {
            if finder.knows(id: item.id) { inputIDs.insert(item.id) }
            guard let legacy = legacyIDs[Int(tag)] else { continue }
            let file = report.location(ofRow: Int(tag)).file
            var counts = evidence[file] ?? (0, 0, 0)
            counts.rows += 1
            if finder.knows(id: legacy) || decided[legacy] != nil { counts.old += 1 }
            if finder.knows(id: item.id) { counts.new += 1 }
            evidence[file] = counts
        }
        let trusted = Set(evidence.filter { $0.value.new == 0 && $0.value.old * 2 >= $0.value.rows }.keys)
        // A statement row is the same purchase as an item a person typed (in the app, or with `add`: a random id), never
        // as another statement's row (a made id, or a bank's own), which is a purchase of its own; and not as an item an
        // earlier import's row was already decided to be.
        let claimedByDecision = Set(
            decided.values.filter { $0.decision == .same }.compactMap(\.item).map(SheetText.key))
        let candidates = finder.unclaimed(by: inputIDs).filter {
            RandomID.isTyped($0.item.id) && !claimedByDecision.contains(SheetText.key($0.item.id))
        }
        let daysByPrice = StatementMatcher.daysByPrice(candidates)
        var fates: [Int: Fate] = [:]
        var contenders: [StatementMatcher.Row] = []
        // An id made the old way names one row: the first row to claim it is the one imported before.
        var legacyTaken = claimedByDecision
        var doubtful: [(row: Int, item: Item, match: KnownItem)] = []
        var claimedOccurrences = Set<String>()
        var reader = try spool.reader()
        while let (item, tag) = try reader.next() {
            let row = Int(tag)
            if let match = finder.item(withID: item.id) {
                fates[row] = .duplicate(match)
                continue
            }
            // An occurrence `recurring post` registers that a person typed (or a statement brought) under another id.
            if !isStatementRow(row), let (occurrence, holder) = recurring.typedHolder(of: item, among: finder.known) {
                fates[row] = .matched(
                    holder,
                    reason: "\(occurrence.rule.name) of \(occurrence.month) is already there: "
                        + "\(Self.describe(holder.item)) \(Self.place(holder))",
                    japanese: "\(occurrence.month) の\(occurrence.rule.name)はすでにあります: "
                        + "\(Self.describe(holder.item)) (\(Self.japanesePlace(holder)))")
                continue
            }
            let legacy = legacyIDs[row], isTrusted = trusted.contains(report.location(ofRow: row).file)
            if let legacy, decided[item.id] == nil, let match = finder.item(withID: legacy),
                legacyTaken.insert(SheetText.key(legacy)).inserted
            {
                if isTrusted {
                    fates[row] = .duplicate(match)
                    decisions[item.id] = RowDecision(.same, item: match.item.id, by: .rule, on: today.description)
                } else {
                    // Maybe this row imported the old way, maybe another card's identical purchase: a person decides.
                    doubtful.append((row, item, match))
                }
                continue
            }
            guard let matcher, isStatementRow(row) else { continue }
            var kept = decided[item.id] ?? (isTrusted ? legacy.flatMap({ decided[$0] }) : nil)
            // The same purchase as an item that is gone (its typed copy deleted, here or in the app): the decision no
            // longer keeps the purchase anywhere, so the row is matched anew, and sent when nothing else is it.
            if kept?.decision == .same, compared, kept?.item.flatMap(finder.item(withID:)) == nil { kept = nil }
            if let kept {
                let when = "decided \(Self.who(kept.by)) on \(kept.on)",
                    japaneseWhen = "\(kept.on) に\(Self.japaneseWho(kept.by))決定"
                switch kept.decision {
                case .same:
                    let match = kept.item.flatMap(finder.item(withID:))
                    fates[row] = .matched(
                        match,
                        reason: "\(when): the same purchase as "
                            + (match.map { Self.describe($0.item) + " " + Self.place($0) }
                                ?? "the item with id \(kept.item ?? "?")"),
                        japanese: "\(japaneseWhen): "
                            + (match.map { Self.describe($0.item) + " (" + Self.japanesePlace($0) + ")" }
                                ?? "ID \(kept.item ?? "?") の項目")
                            + " と同じ買い物")
                case .skip:
                    fates[row] = .skipped("\(when): skip this row", japanese: "\(japaneseWhen): この行は飛ばす")
                case .new:
                    continue
                }
            } else if let found = recurring.fate(ofStatementRow: item, finder: finder, claimed: &claimedOccurrences) {
                try await settleFixedCost(
                    found, row: row, item: item, finder: finder, recurring: recurring, today: today, deciding: deciding,
                    decide: decide, report: report, fates: &fates, decisions: &decisions)
            } else if matcher.mayMatch(item, amongPricesAndDays: daysByPrice) {
                contenders.append(StatementMatcher.Row(index: row, item: item))
            }
        }
        for (row, item, match) in doubtful {
            let choice = try await decide(
                HeldRow(location: report.location(ofRow: row), item: item, candidates: [match]))
            settle(
                row, item, choice, candidates: [match], what: ("the row imported before as", "以前に取り込んだ行"),
                deciding: deciding, today: today,
                fates: &fates, decisions: &decisions)
        }
        guard let matcher, !contenders.isEmpty else { return fates }
        let items = Dictionary(contenders.map { ($0.index, $0.item) }, uniquingKeysWith: { first, _ in first })
        let outcomes = matcher.outcomes(rows: contenders, known: candidates).sorted(by: { $0.key < $1.key })
        // An item a row was matched to, or decided to be in this run, is no longer a candidate for a doubtful row.
        var taken = Set(
            outcomes.compactMap {
                if case .matched(let match, _, _) = $0.value { SheetText.key(match.item.id) } else { nil }
            })
        for (row, found) in outcomes {
            guard let item = items[row] else { continue }
            switch found {
            case let .matched(match, days, nameDistance):
                fates[row] = .matched(
                    match,
                    reason: "the same purchase as \(Self.describe(match.item)) \(Self.place(match)): the same amount, "
                        + "\(days == 0 ? "the same day" : "\(days) day\(days == 1 ? "" : "s") apart"), "
                        + (nameDistance == 0 ? "the same name" : "a related name"),
                    japanese: "\(Self.describe(match.item)) (\(Self.japanesePlace(match))) と同じ買い物: 同じ金額、"
                        + (days == 0 ? "同じ日" : "\(days)日違い") + "、" + (nameDistance == 0 ? "同じ名前" : "関連する名前"))
                decisions[item.id] = RowDecision(.same, item: match.item.id, by: .rule, on: today.description)
            case .ambiguous(let all):
                let possible = all.filter { !taken.contains(SheetText.key($0.item.id)) }
                // Every item it could have been is another row's now: it is a purchase of its own.
                guard !possible.isEmpty else { continue }
                let choice: HeldChoice? = try await decide(
                    HeldRow(location: report.location(ofRow: row), item: item, candidates: possible))
                if case .same(let match)? = choice { taken.insert(SheetText.key(match.item.id)) }
                settle(
                    row, item, choice, candidates: possible, what: ("the same purchase as", "同じ買い物"),
                    deciding: deciding, today: today,
                    fates: &fates, decisions: &decisions)
            }
        }
        return fates
    }

    /// A held row's fate and the decision kept, from what a person (or `--ambiguous`) chose; nil holds it back.
    func settle(
        _ row: Int, _ item: Item, _ choice: HeldChoice?, candidates: [KnownItem], what: (String, String),
        deciding: RowDecision.Source, today: Day, fates: inout [Int: Fate], decisions: inout [String: RowDecision]
    ) {
        switch choice {
        case .same(let match)?:
            fates[row] = .matched(
                match,
                reason: "decided \(Self.who(deciding)): \(what.0) \(Self.describe(match.item)) \(Self.place(match))",
                japanese:
                    "\(Self.japaneseWho(deciding))決定: \(what.1) \(Self.describe(match.item)) (\(Self.japanesePlace(match)))"
            )
            decisions[item.id] = RowDecision(.same, item: match.item.id, by: deciding, on: today.description)
        case .new?:
            decisions[item.id] = RowDecision(.new, item: nil, by: deciding, on: today.description)
        case .skip?:
            fates[row] = .skipped(
                "decided \(Self.who(deciding)): skip this row", japanese: "\(Self.japaneseWho(deciding))決定: この行は飛ばす")
            decisions[item.id] = RowDecision(.skip, item: nil, by: deciding, on: today.description)
        case nil:
            fates[row] = .held(candidates)
        }
    }

    static func japaneseWho(_ source: RowDecision.Source) -> String {
        switch source {
        case .rule: "照合の規則が"
        case .person: "あなたが"
        case .flag: "--ambiguous が"
        case .deletion: "あなたが (項目を削除して) "
        }
    }

    static func japanesePlace(_ match: KnownItem) -> String {
        match.place == .server ? "サーバー上" : "送信待ち (`expense-log sync` で送ります)"
    }

    static func who(_ source: RowDecision.Source) -> String {
        switch source {
        case .rule: "by the matching rule"
        case .person: "by you"
        case .flag: "by --ambiguous"
        case .deletion: "by you (you deleted its item)"
        }
    }

    /// Says what a month that could not be compared with the server means; a permanent error stops the check.
    private func note(_ loaded: LoadedMonth, _ event: (DuplicateCheckEvent) -> Void) throws {
        if let failure = loaded.missing {
            if case .api(let error) = failure, !error.isTransient { throw error }
            // No failure: the server is not used (a dry run with none configured) and the month is not cached.
            event(.notCompared(loaded.month, failure: loader.client == nil ? nil : failure))
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
        PrintableText.of("\(item.date) \(item.name) \(PriceText.yen(item.price)) (id \(item.id))")
    }
}
