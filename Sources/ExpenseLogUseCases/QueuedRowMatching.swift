import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// Statement rows that waited in the outbox, matched again at `sync` against what the server holds then: while they
/// waited, a partner may have typed the same purchase in the app. A row that came without an id of its own (a made id,
/// or a bank's: not a random one, as typed items have) that is now the same purchase as a typed item is not sent; one
/// that may be is held for a person, as `register` holds it. Decisions kept by imports are followed, and this run's
/// are kept with them.
public struct QueuedRowMatching: Sendable {
    /// The matching rule (`register`'s).
    public let matcher: StatementMatcher
    /// Where decisions are kept.
    public let decisions: ImportDecisions
    /// What a row that may be a typed item becomes: nil holds it (it waits in the outbox, and sync exits 4).
    public let choice: HeldChoiceAtSync?
    /// The day decisions are dated.
    public let today: Day

    /// A matching of queued rows, deciding doubtful ones by `choice` (nil: hold them).
    public init(
        matcher: StatementMatcher = StatementMatcher(), decisions: ImportDecisions, choice: HeldChoiceAtSync? = nil,
        today: Day = Day.today()
    ) {
        (self.matcher, self.decisions, self.choice, self.today) = (matcher, decisions, choice, today)
    }

    /// What sync does with a queued row that may be a typed item (`sync --ambiguous`).
    public enum HeldChoiceAtSync: String, Sendable, CaseIterable {
        /// A purchase of its own: sent.
        case new
        /// The same purchase as its closest candidate: not sent.
        case same
        /// Not sent, and not asked about again.
        case skip
    }

    /// The waiting statement rows, read once: those decided before, and those left to match.
    public struct Scan: Sendable {
        /// Rows not to send, by id, with why (decided by an earlier import or sync).
        public var dropped: [String: (item: Item, reason: String, japanese: String)] = [:]
        /// Rows the server does not show and no decision settles, to match.
        public var rows: [Item] = []
        /// How many entries hold each statement row: a row held once and queued again is in two until its first
        /// entry is done, and is not queued a third time.
        public var copies: [String: Int] = [:]
        /// The typed items (by Sheet key) that decisions already gave a row: no other row is matched to them.
        public var claimed: Set<String> = []
    }

    /// What matching found among the queued rows.
    public struct Found: Sendable {
        /// Rows not to send, by id, with why (matched, or decided).
        public var dropped: [String: (item: Item, reason: String, japanese: String)] = [:]
        /// Rows held for a person, by id, with what each may be.
        public var held: [String: (item: Item, candidates: [KnownItem])] = [:]
        /// The decisions this run made, to keep.
        public var decisions: [String: RowDecision] = [:]
        /// How many entries hold each statement row (`Scan.copies`).
        public var copies: [String: Int] = [:]
    }

    /// Whether an item waiting in the outbox is a statement's row: its id is no random one (a made id, or a bank's).
    public static func isStatementRow(_ item: Item) -> Bool { !RandomID.isTyped(item.id) }

    /// Reads every waiting batch once: its statement rows that the server does not show (`known`, by Sheet key), those
    /// a decision settles apart.
    public func scan(_ entries: [ItemEntry], journal: Journal, known: Set<String>) throws -> Scan {
        let decided = try decisions.load()
        var scan = Scan(
            claimed: Set(decided.values.filter { $0.decision == .same }.compactMap(\.item).map(SheetText.key)))
        for entry in entries {
            var seen = Set<String>()
            _ = try journal.forEachBatch(of: entry) { batch in
                for item in batch.items where Self.isStatementRow(item) && !known.contains(SheetText.key(item.id)) {
                    if seen.insert(item.id).inserted { scan.copies[item.id, default: 0] += 1 }
                    guard scan.copies[item.id] == 1 else { continue }
                    guard let kept = decided[item.id] else {
                        scan.rows.append(item)
                        continue
                    }
                    switch kept.decision {
                    case .same:
                        scan.dropped[item.id] = (
                            item, "decided on \(kept.on): the same purchase as the item \(kept.item ?? "?")",
                            "\(kept.on) に決定: 項目 \(kept.item ?? "?") と同じ買い物"
                        )
                    case .skip:
                        scan.dropped[item.id] = (
                            item, "decided on \(kept.on): skip this row", "\(kept.on) に決定: この行は飛ばす"
                        )
                    case .new: break
                    }
                }
            }
        }
        return scan
    }

    /// The months beyond `read` that the scanned rows' matches may fall in (a row of December 1st, an item typed on
    /// November 29th).
    public func monthsAround(_ scan: Scan, beyond read: Set<YearMonth>) -> Set<YearMonth> {
        Set(
            scan.rows.flatMap {
                [$0.date.adding(days: -matcher.window).yearMonth, $0.date.adding(days: matcher.window).yearMonth]
            }
        )
        .subtracting(read)
    }

    /// Matches the scanned rows against the typed items on the server (`typed`), deciding the doubtful ones by `choice`.
    public func match(_ scan: Scan, typed: [KnownItem]) -> Found {
        var found = Found(dropped: scan.dropped, copies: scan.copies)
        guard !scan.rows.isEmpty, !typed.isEmpty else { return found }
        let candidates = typed.filter { !scan.claimed.contains(SheetText.key($0.item.id)) }
        let daysByPrice = StatementMatcher.daysByPrice(candidates)
        let contenders = scan.rows.filter { matcher.mayMatch($0, amongPricesAndDays: daysByPrice) }.enumerated()
            .map { StatementMatcher.Row(index: $0.offset, item: $0.element) }
        for (index, outcome) in matcher.outcomes(rows: contenders, known: candidates) {
            let item = contenders[index].item
            switch (outcome, choice) {
            case let (.matched(match, _, _), _):
                found.dropped[item.id] = (
                    item, "the same purchase as \(Self.describe(match.item)), entered while it waited",
                    "送信待ちの間に入力された \(Self.describe(match.item)) と同じ買い物"
                )
                found.decisions[item.id] = RowDecision(.same, item: match.item.id, by: .rule, on: today.description)
            case let (.ambiguous(all), nil):
                found.held[item.id] = (item, all)
            case (.ambiguous, .new?):
                found.decisions[item.id] = RowDecision(.new, item: nil, by: .flag, on: today.description)
            case let (.ambiguous(all), .same?):
                found.dropped[item.id] = (
                    item,
                    "decided by --ambiguous: the same purchase as \(all.first.map { Self.describe($0.item) } ?? "?")",
                    "--ambiguous で決定: \(all.first.map { Self.describe($0.item) } ?? "?") と同じ買い物"
                )
                found.decisions[item.id] = RowDecision(
                    .same, item: all.first?.item.id, by: .flag, on: today.description)
            case (.ambiguous, .skip?):
                found.dropped[item.id] = (item, "decided by --ambiguous: skip this row", "--ambiguous で決定: この行は飛ばす")
                found.decisions[item.id] = RowDecision(.skip, item: nil, by: .flag, on: today.description)
            }
        }
        return found
    }

    /// `2026-11-28 紀伊國屋書店 ¥1,500`, control characters shown as `�`.
    public static func describe(_ item: Item) -> String {
        PrintableText.of("\(item.date) \(item.name) \(PriceText.yen(item.price))")
    }
}
