import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// A batch whose last POST got no answer and may still be running on the server, so it is not sent again yet.
public struct UnsafeBatch: Sendable, Equatable {
    /// The batch's key.
    public let key: String
    /// How many of its items the server does not show yet.
    public let count: Int
    /// When its last POST went out.
    public let sentAt: Date
    /// When it becomes safe to send again.
    public let safeFrom: Date
}

/// A batch the server refused as invalid, moved out of the outbox for fixing.
public struct RefusedBatch: Sendable {
    /// Where its items were moved (a JSON array `register` reads once fixed).
    public let file: URL
    /// What the server answered.
    public let error: APIError
}

/// Why a `sync` stopped before the end.
public enum ItemSendingStop: Sendable {
    /// A month the waiting items fall in could not be read from the server: nothing was sent.
    case monthUnreadable(YearMonth, MonthFailure)
    /// A batch was not confirmed; it and the rest stay in the outbox.
    case batchFailed(key: String, entry: URL, error: APIError)
}

/// What a `sync` did, for the caller to report.
public struct ItemSendingOutcome: Sendable {
    /// Items waiting when it started.
    public var waiting = 0
    /// Items that left the outbox (sent, or found on the server).
    public var done = 0
    /// Items the server confirmed.
    public var sent = 0
    /// POSTs made.
    public var posts = 0
    /// Items not sent because the server already shows their ids.
    public var skipped = 0
    /// Statement rows not sent because they are, or were decided to be, items entered while they waited.
    public var matched: [(item: Item, reason: String, japanese: String)] = []
    /// Statement rows that may be items entered while they waited: they wait on in the outbox for a person.
    public var held: [(item: Item, candidates: [KnownItem])] = []
    /// The decisions matching made, to keep.
    public var decisions: [String: RowDecision] = [:]
    /// Items of entries another process is sending, or that changed while this run went on.
    public var busy = 0
    /// Batches the server refused as invalid.
    public var refused: [RefusedBatch] = []
    /// Batches that may still be running on the server.
    public var unsafe: [UnsafeBatch] = []
    /// Why it stopped early, if it did.
    public var stop: ItemSendingStop?

    /// An outcome of nothing done yet, with `waiting` items.
    public init(waiting: Int = 0) {
        self.waiting = waiting
    }

    /// How many items remain in the outbox.
    public var remaining: Int { waiting - done }
}

/// What happens during a `sync` that the caller shows at once.
public enum SyncEvent: Sendable {
    /// The server's answer for a month had rows left out or read with a guess.
    case rows(SheetAnswer, YearMonth)
    /// A month was read but could not be cached.
    case cacheFailure(StoreError)
    /// A batch of unknown fate is sent again because the caller forced it.
    case forced(key: String, sentAt: Date)
    /// The server is the bundled web app, which saves an id only once: a batch whose answer was lost is sent again at once.
    case resendsAtOnce
    /// An outbox entry cannot be read: it is left in place, and its items are not sent.
    case unreadableEntry(String)
}

/// The `sync` use case: sends what waits in the outbox, after reading every month its items fall in and dropping the
/// items whose ids the server already shows, so a POST whose answer was lost is never registered twice.
public struct ItemSending: Sendable {
    /// The delivery that sends each batch and records its fate.
    public let delivery: BatchSending
    /// The cache the months read are kept in.
    public let repository: LocalRepository
    /// How long a POST of unknown fate may still run on the server.
    public let resendWait: ResendWait
    /// Whether answers must name every item sent (not for the dummy environment's canned answers).
    public let verifyAnswers: Bool
    /// The queued edits and deletions, made on the months read before they are cached (as `fetch` does).
    public let edits: [QueuedEdit]
    /// How statement rows are matched again against what the server holds now; nil sends them as queued.
    public let matching: QueuedRowMatching?

    /// A sender over a delivery and a cache.
    public init(
        delivery: BatchSending, repository: LocalRepository, resendWait: ResendWait, verifyAnswers: Bool,
        edits: [QueuedEdit] = [],
        matching: QueuedRowMatching? = nil
    ) {
        (self.delivery, self.repository, self.resendWait, self.verifyAnswers) = (
            delivery, repository, resendWait, verifyAnswers
        )
        (self.edits, self.matching) = (edits, matching)
    }

    /// Sends the entries' batches in order, one in memory at a time; `keep` gets what the server saved, `event` what
    /// to show at once. `force` sends batches whose last POST may still be running; `now` (after the months are read,
    /// unless given) decides which may. Throws a `StoreError` when an entry cannot be held, read back (edited while
    /// sent: `.changed`) or record a batch's fate; what was sent before stays recorded.
    public func send(
        _ entries: [ItemEntry], force: Bool, now: Date? = nil, keep: ([Item]) -> Void,
        event: (SyncEvent) -> Void
    ) async throws -> ItemSendingOutcome {
        let journal = delivery.journal
        var outcome = ItemSendingOutcome(waiting: entries.reduce(0) { $0 + $1.itemCount })
        var typed: [KnownItem] = []
        let months = Set(entries.flatMap(\.months))
        guard var known = await knownIDs(months.sorted(), &outcome, typed: &typed, event) else { return outcome }
        var found = QueuedRowMatching.Found()
        if let matching {
            let scan = try matching.scan(entries, journal: journal, known: known)
            typed += await typedItems(in: matching.monthsAround(scan, beyond: months))
            found = matching.match(scan, typed: typed)
        }
        outcome.decisions = found.decisions
        var copiesLeft = found.copies
        let now = now ?? Date()
        for listed in entries {
            // A register run still sending this entry holds its lock; it queues what it cannot send, so leave it be.
            guard let (entry, hold) = try journal.hold(listed) else {
                outcome.busy += listed.itemCount
                continue
            }
            defer { hold.release() }
            outcome.done += listed.itemCount - entry.itemCount
            let tried = journal.attempts(in: entry)
            for queued in entry.batches {
                let batch = try journal.batch(queued, of: entry)
                var fresh = batch.items.filter { !known.contains(SheetText.key($0.id)) }
                outcome.skipped += batch.items.count - fresh.count
                if !found.dropped.isEmpty || !found.held.isEmpty {
                    outcome.matched += fresh.compactMap { found.dropped[$0.id] }
                    let held = fresh.filter { found.held[$0.id] != nil }
                    // Held rows wait on in an entry of their own, in the place of theirs, written before the rest is sent:
                    // never lost, whatever comes next. A row in two entries (queued again by a sync that stopped before its first entry was done) is
                    // queued again only from its last copy, so that one copy stays.
                    let requeued = held.filter { row in
                        copiesLeft[row.id, default: 1] -= 1
                        return copiesLeft[row.id, default: 0] <= 0
                    }
                    if !requeued.isEmpty {
                        _ = try journal.append([batch.narrowed(to: requeued)], inPlaceOf: entry)
                        outcome.waiting += requeued.count
                    }
                    outcome.held += held.filter { row in !outcome.held.contains { $0.item.id == row.id } }.compactMap {
                        found.held[$0.id]
                    }
                    fresh.removeAll { found.dropped[$0.id] != nil || found.held[$0.id] != nil }
                }
                if fresh.isEmpty {
                    try journal.markSent(batch.key, in: entry, onServer: true)
                    outcome.done += batch.items.count
                    continue
                }
                if let sentAt = tried[batch.key], now < resendWait.safe(after: sentAt) {
                    guard force else {
                        outcome.unsafe.append(
                            UnsafeBatch(
                                key: batch.key, count: fresh.count, sentAt: sentAt,
                                safeFrom: resendWait.safe(after: sentAt)))
                        continue
                    }
                    event(.forced(key: batch.key, sentAt: sentAt))
                }
                outcome.posts += 1
                switch try await delivery.deliver(batch, of: entry, sending: fresh, verifyAnswer: verifyAnswers) {
                case .delivered(let answer, _):
                    outcome.sent += fresh.count
                    keep(answer)
                    known.formUnion(fresh.map { SheetText.key($0.id) })
                    known.formUnion(answer.map { SheetText.key($0.id) })
                case let .rejected(error, file):
                    outcome.refused.append(RefusedBatch(file: file, error: error))
                case let .failed(error, _):
                    outcome.stop = .batchFailed(key: batch.key, entry: entry.file, error: error)
                    return outcome
                }
                outcome.done += batch.items.count
            }
        }
        return outcome
    }

    /// The items a person typed in months read only for matching (those around the waiting rows' own): as the server
    /// answers them, else as cached; a month that cannot be read has none (it stops nothing).
    private func typedItems(in months: Set<YearMonth>) async -> [KnownItem] {
        guard !months.isEmpty else { return [] }
        return await MonthLoader(client: delivery.client, repository: repository, edits: edits).load(
            months.sorted(), policy: .preferServer
        )
        .flatMap(\.items).filter { RandomID.isTyped($0.id) }.map { KnownItem(item: $0, place: .server) }
    }

    /// The Sheet keys of every id the server shows in the months, all read at once; also of rows that cannot be read, and
    /// of items dated outside their sheet's month (a date edited by hand): an item whose id the sheet shows in any form
    /// is not sent again, but for a row with its id and no numbers (a write Google cut short), which sending writes whole. Only the keys are kept, not the months' items. Nil, with `outcome.stop` set, when a month
    /// cannot be read.
    /// `typed` gets the server's items a person typed (random ids), for matching queued statement rows again.
    private func knownIDs(
        _ months: [YearMonth], _ outcome: inout ItemSendingOutcome, typed: inout [KnownItem],
        _ event: (SyncEvent) -> Void
    ) async -> Set<String>? {
        var known = Set<String>()
        for month in await MonthLoader(client: delivery.client, repository: repository, edits: edits).load(
            months, policy: .refresh)
        {
            if let failure = month.missing {
                outcome.stop = .monthUnreadable(month.month, failure)
                return nil
            }
            if let rows = month.rows { event(.rows(rows, month.month)) }
            if let cacheFailure = month.cacheFailure { event(.cacheFailure(cacheFailure)) }
            // As the server answered, not as the queued changes leave the month: a deletion hides an item the server
            // has, and an edit of an item still waiting to be registered moves in one it lacks.
            known.formUnion((month.answeredIDs ?? month.items.map(\.id)).map(SheetText.key))
            known.formUnion(month.outside.map { SheetText.key($0.id) })
            known.formUnion(month.unreadable.filter { !$0.withoutNumbers }.compactMap(\.id))
            if matching != nil {
                typed += month.items.filter { RandomID.isTyped($0.id) }.map { KnownItem(item: $0, place: .server) }
            }
        }
        return known
    }
}
