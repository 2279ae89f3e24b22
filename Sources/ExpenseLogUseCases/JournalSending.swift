import ExpenseLogClient
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// What became of the queued edits and deletions in a run of the pending writes.
public enum ChangesOutcome: Sendable {
    /// None was waiting.
    case none
    /// The first of them touches an item still waiting to be registered, so they wait behind it (how many changes).
    case behindItems(Int)
    /// The server could not be read or refused a batch, which would fail them the same way: all wait (how many).
    case stoppedWithItems(Int)
    /// The server does not take this action (it is not the bundled script): nothing was sent.
    case actionAbsent(String)
    /// Whether the server takes them could not be asked: they stay queued (how many).
    case actionUnknown(APIError, waiting: Int)
    /// The oldest change cannot be read: nothing was sent (its problem).
    case blocked(String)
    /// Sent in order; `blocker` is the unreadable change that stopped the rest, `behind` how many wait behind an item.
    case sent(ChangeSendingOutcome, blocker: String?, behind: Int)
}

/// What a run of the pending writes did, for the caller to report.
public struct JournalSendingOutcome: Sendable {
    /// A message for each outbox entry that cannot be read (left in place).
    public var problems: [String] = []
    /// What became of the items, or nil when none was sent for (none waited, or only changes did).
    public var items: ItemSendingOutcome?
    /// How long a batch whose answer was lost waits before it is sent again.
    public var wait: ResendWait
    /// What became of the edits and deletions.
    public var edits: ChangesOutcome = .none

    /// Whether the items stopped on the server (a month it could not read, a batch it did not confirm).
    public var stoppedOnServer: Bool { items?.stop != nil }
}

/// `sync`: sends the pending writes: the outbox's items (after reading every month they fall in and skipping what the
/// server already shows), then the edits and deletions in the order they were queued, up to the first that touches an
/// item still waiting. `run` expects the caller to hold the pending writes' lock; `runIfFree` takes it.
public struct JournalSending: Sendable {
    /// The client that sends.
    public let client: ExpenseLogAPIClient
    /// The cache the months read and the answers are kept in.
    public let repository: LocalRepository
    /// The writes waiting.
    public let journal: Journal
    /// How long a batch whose answer was lost waits.
    public let policy: ResendPolicy
    /// Whether answers must name every item sent (not for the dummy environment's canned answers).
    public let verifyAnswers: Bool
    /// How queued statement rows are matched again against what the server holds by then; nil sends them as queued.
    public var matching: QueuedRowMatching?

    /// A run over a client, a cache and the pending writes; `matching` matches queued statement rows again.
    public init(
        client: ExpenseLogAPIClient, repository: LocalRepository, journal: Journal, policy: ResendPolicy,
        verifyAnswers: Bool, matching: QueuedRowMatching? = nil
    ) {
        (self.client, self.repository, self.journal, self.policy, self.verifyAnswers) = (
            client, repository, journal, policy, verifyAnswers
        )
        self.matching = matching
    }

    /// Sends the pending writes: for `sync` (`through` nil) every item, then the changes; for an `edit` or `delete`
    /// (`through` its change's `order`) the changes up to it, after the items they touch that still wait. `saved` keeps
    /// what the server saved (cached before any change is sent, so a change of an item just registered is made on its
    /// cached copy), `event` gets what to show at once. `force` sends batches whose last POST may still be running.
    /// Throws a `StoreError` when a queue cannot be listed, or an entry held, read back or recorded; what was sent stays
    /// recorded.
    public func run(
        force: Bool, through: String? = nil, saved: inout SavedItems, event: (SyncEvent) -> Void
    ) async throws -> JournalSendingOutcome {
        journal.tidy()
        let listed = try journal.listing()
        let editsWait = !listed.changes.isEmpty || listed.blocker != nil
        var (entries, problems) = (listed.itemEntries, listed.problems)
        if let through {
            // Only what the changes up to it depend on: the entries holding an item they touch (wherever they stand), and
            // the unreadable files made before it (which may); an unrelated import waits for `sync`.
            let touched = Set(listed.sendableChanges.filter { $0.file.lastPathComponent <= through }.flatMap(\.ids))
            entries = try entries.filter { !(try journal.waitingItems(touched, in: [$0])).isEmpty }
            problems = listed.unreadable.filter { $0.file.lastPathComponent < through }.map(\.problem)
        }
        for problem in problems { event(.unreadableEntry(problem)) }
        var result = JournalSendingOutcome(problems: problems, wait: policy.configured)
        if !entries.isEmpty || !problems.isEmpty || (through == nil && !editsWait) {
            let (wait, atOnce) = await policy.wait(for: entries, journal, client, repository)
            result.wait = wait
            if atOnce { event(.resendsAtOnce) }
            // Who paid goes through the bundled script's register action, which keeps it (a plain POST carries six keys).
            // Asked once (and remembered) when never known: an item queued offline may say who paid.
            if !entries.isEmpty, await repository.serverInfo() == nil {
                _ = try? await EditTargets.availability(of: "payer", client, repository)
            }
            var delivery = BatchSending(client: client, journal: journal)
            delivery.registerAction = await repository.serverInfo()?.offers("payer") == true
            delivery.keepsShare = delivery.registerAction
            let sender = ItemSending(
                delivery: delivery, repository: repository,
                resendWait: wait, verifyAnswers: verifyAnswers, edits: listed.changes, matching: matching)
            result.items = try await sender.send(entries, force: force, keep: { saved.keep($0) }, event: event)
            // Kept even when a batch failed later: the rows it matched stay matched for every later sync and import.
            if let matching, let decisions = result.items?.decisions { try await matching.decisions.record(decisions) }
        }
        guard editsWait else { return result }
        // A server that could not be read or refused a batch would fail the edits the same way.
        if result.stoppedOnServer {
            result.edits = .stoppedWithItems(listed.changes.count)
            return result
        }
        if result.items != nil {
            await saved.cache(in: repository)
            // The cache took the server's copies of the items just registered: the changes still queued are made on them
            // again, as when they were queued, so the cache shows them made whatever becomes of their sending.
            if saved.registered > 0 { await remake(listed.changes, event: event) }
        }
        result.edits = try await sendEdits(through: through)
        return result
    }

    /// As `run`, unless another run holds the pending writes' lock: nil then (that run may send them).
    public func runIfFree(
        force: Bool, through: String? = nil, saved: inout SavedItems,
        event: (SyncEvent) -> Void
    ) async throws -> JournalSendingOutcome? {
        try await FileLock.withLockIfFree(journal.lock) {
            try await run(force: force, through: through, saved: &saved, event: event)
        }
    }

    /// Sends the changes (up to `through`) before the first that touches an item still waiting, once the server is
    /// known to take them; both queues are read again, for what another run sent or queued meanwhile.
    private func sendEdits(through: String?) async throws -> ChangesOutcome {
        let listed = try journal.listing()
        let edits =
            through.map { last in listed.sendableChanges.filter { $0.file.lastPathComponent <= last } }
            ?? listed.sendableChanges
        let (ready, behind) = try journal.ready(edits, among: listed.itemEntries)
        guard !ready.isEmpty else {
            if behind > 0 { return .behindItems(behind) }
            return listed.blocker.map(ChangesOutcome.blocked) ?? .none
        }
        for action in Set(ready.map { $0.isDelete ? "delete" : "update" }).sorted() {
            switch try await EditTargets.availability(of: action, client, repository) {
            case .offered: continue
            case .absent: return .actionAbsent(action)
            case .unknown(let error): return .actionUnknown(error, waiting: listed.changes.count)
            }
        }
        let outcome = await ChangeSending(client: client, repository: repository, journal: journal).send(ready)
        return .sent(outcome, blocker: behind == 0 ? listed.blocker : nil, behind: behind)
    }

    /// Makes the queued changes on the cache again (a change of an item the cache lacks brings it in, as when queued).
    private func remake(_ edits: [QueuedEdit], event: (SyncEvent) -> Void) async {
        for edit in edits {
            do {
                switch edit.change {
                case .delete(let items): _ = try await repository.remove(ids: Set(items.map(\.id)))
                case let .update(item, changed, _): try await repository.replace(id: item.id, with: changed)
                }
            } catch {
                event(.cacheFailure(StoreError.wrapping(error, path: repository.directory.path, writing: true)))
                return
            }
        }
    }
}
