import ExpenseLogClient
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// What became of the queued edits and deletions in a run of the pending writes.
public enum EditsStep: Sendable {
    /// None was waiting.
    case none
    /// Items queued before them could not be sent, so they wait behind those items (how many changes).
    case behindItems(Int)
    /// The server could not be read or refused a batch, which would fail them the same way: all wait (how many).
    case stoppedWithItems(Int)
    /// The server does not take this action (it is not the bundled script): nothing was sent.
    case actionAbsent(String)
    /// Whether the server takes them could not be asked: they stay queued (how many).
    case actionUnknown(APIError, waiting: Int)
    /// The oldest change cannot be read: nothing was sent (its problem).
    case blocked(String)
    /// Sent in order; `blocker` is the unreadable change that stopped the rest, `behind` how many wait behind items.
    case sent(EditOutcome, blocker: String?, behind: Int)
}

/// What a run of the pending writes did, for the caller to report.
public struct SyncResult: Sendable {
    /// A message for each outbox entry that cannot be read (left in place).
    public var problems: [String] = []
    /// What became of the items, or nil when none was sent for (none waited, or only changes did).
    public var items: SyncOutcome?
    /// How long a batch whose answer was lost waits before it is sent again.
    public var wait: ResendWait
    /// What became of the edits and deletions.
    public var edits: EditsStep = .none

    /// Whether the items stopped on the server (a month it could not read, a batch it did not confirm).
    public var stoppedOnServer: Bool { items?.stop != nil }
}

/// `sync`: sends every pending write in the order it was queued: the outbox's items (after reading every month they
/// fall in and skipping what the server already shows), then the edits and deletions queued before any item still
/// waiting. `run` expects the caller to hold the pending writes' lock; `runIfFree` takes it.
public struct Sync: Sendable {
    /// The client that sends.
    public let client: ExpenseLogAPIClient
    /// The cache the months read and the answers are kept in.
    public let repository: LocalRepository
    /// The writes waiting.
    public let pending: PendingWrites
    /// How long a batch whose answer was lost waits.
    public let policy: ResendPolicy
    /// Whether answers must name every item sent (not for the dummy environment's canned answers).
    public let verifyAnswers: Bool

    /// A run over a client, a cache and the pending writes.
    public init(client: ExpenseLogAPIClient, repository: LocalRepository, pending: PendingWrites, policy: ResendPolicy,
                verifyAnswers: Bool) {
        (self.client, self.repository, self.pending, self.policy, self.verifyAnswers) = (client, repository, pending, policy, verifyAnswers)
    }

    /// Sends the writes queued up to `through` (a write's `order`; every write when nil); `saved` keeps what the server
    /// saved, `event` gets what to show at once. `force` sends batches whose last POST may still be running. Throws a
    /// `StoreError` when a queue cannot be listed, or an entry held, read back or recorded; what was sent stays recorded.
    public func run(force: Bool, through: String? = nil, saved: inout SavedItems, event: (SyncEvent) -> Void) async throws -> SyncResult {
        pending.outbox.tidy()
        let queuedBefore = { (file: URL) in through.map { file.lastPathComponent <= $0 } ?? true }
        let listed = try pending.outbox.listing()
        let entries = listed.entries.filter { queuedBefore($0.file) }
        let problems = zip(listed.unreadable, listed.problems).filter { queuedBefore($0.0) }.map(\.1)
        let queued = try pending.edits.listing()
        let editsWait = !queued.edits.isEmpty || !queued.problems.isEmpty
        var result = SyncResult(problems: problems, wait: policy.configured)
        if !entries.isEmpty || !problems.isEmpty || !editsWait {
            let (wait, atOnce) = await policy.wait(for: entries, pending.outbox, client, repository)
            result.wait = wait
            if atOnce { event(.resendsAtOnce) }
            let sender = OutboxSync(delivery: OutboxDelivery(client: client, outbox: pending.outbox), repository: repository,
                                      resendWait: wait, verifyAnswers: verifyAnswers, edits: queued.edits)
            result.items = try await sender.send(entries, force: force, keep: { saved.keep($0) }, event: event)
        }
        guard editsWait else { return result }
        // A server that could not be read or refused a batch would fail the edits the same way.
        if result.stoppedOnServer {
            result.edits = .stoppedWithItems(queued.edits.count)
            return result
        }
        result.edits = try await sendEdits(through: queuedBefore)
        return result
    }

    /// As `run`, unless another run holds the pending writes' lock: nil then (that run may send them).
    public func runIfFree(force: Bool, through: String? = nil, saved: inout SavedItems,
                          event: (SyncEvent) -> Void) async throws -> SyncResult? {
        try await FileLock.withLockIfFree(pending.syncLock) {
            try await run(force: force, through: through, saved: &saved, event: event)
        }
    }

    /// Sends the changes queued before every item still waiting, once the server is known to take them; both queues are
    /// read again, for what another run sent or queued meanwhile.
    private func sendEdits(through queuedBefore: (URL) -> Bool) async throws -> EditsStep {
        let listed = try pending.edits.listing()
        let left = try pending.outbox.listing()
        let (ready, behind) = PendingWrites.ready(listed.sendable, behind: left.entries.filter { queuedBefore($0.file) },
                                                  unreadable: left.unreadable.filter(queuedBefore))
        guard !ready.isEmpty else {
            if behind > 0 { return .behindItems(behind) }
            return listed.blocker.map(EditsStep.blocked) ?? .none
        }
        for action in Set(ready.map { $0.isDelete ? "delete" : "update" }).sorted() {
            switch try await EditTargets.availability(of: action, client, repository) {
            case .offered: continue
            case .absent: return .actionAbsent(action)
            case .unknown(let error): return .actionUnknown(error, waiting: listed.edits.count)
            }
        }
        let outcome = await EditDelivery(client: client, repository: repository, queue: pending.edits).send(ready)
        return .sent(outcome, blocker: behind == 0 ? listed.blocker : nil, behind: behind)
    }
}
