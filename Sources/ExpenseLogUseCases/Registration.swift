import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// What `register` (and `add`) registers.
public enum RegistrationInput {
    /// Files (or standard input), read a chunk at a time; a CSV row without an id gets one made from its content.
    /// `keepsTransfers` reads a profile's transfers as spending (`--transfers keep`); `account` names the card or account
    /// the inputs are of (`--account`).
    case files(
        [ImportSource], profile: ImportProfile?, encoding: TextEncoding?, keepsTransfers: Bool = false,
        account: String? = nil, payer: String? = nil)
    /// Items a person typed; one without an id gets a random one (a typed purchase is a new one).
    case typed([ItemDraft])
}

/// Where a registration ended.
public enum RegistrationEnd {
    /// Rows were invalid and the policy is to stop: nothing was compared or sent.
    case stoppedOnInvalid
    /// No row was valid.
    case nothingValid
    /// Every valid row was already on the server or waiting (or held for a person).
    case nothingNew
    /// A dry run: what would be sent.
    case dryRun(ItemSpool)
    /// The `total` new items went to the outbox and were sent batch by batch, with what became of them.
    case sent(RegisterSending.Outcome, total: Int)
}

/// What a registration did, for the caller to say and to map to an exit code.
public struct RegistrationOutcome {
    /// What was read: the problems, exclusions, warnings, and the rows a file of the run had twice.
    public let inputs: ImportInputs
    /// Whether the run ends with 65 for its rows (not for invalid rows only warned about).
    public let invalid: Bool
    /// The rows skipped as already there (repeated in the run, on the server, or waiting, matched), in input order.
    public var skipped: [ImportRecord.Row] = []
    /// The statement rows held back for a person to decide, in input order.
    public var held: [ImportRecord.Row] = []
    /// Items earlier runs left in the outbox.
    public var waiting = 0
    /// Where it ended.
    public var end: RegistrationEnd = .nothingValid
}

/// `register` and `add`: read and check every input, compare the valid items with the server and the pending writes,
/// and send what is new through the outbox; every row's fate goes to the run's `ImportRecord`.
public struct Registration: Sendable {
    /// Makes the client once a valid row was read (so a file's problems are listed with no server configured); nil for
    /// a dry run with no server configured (it compares with the cache and the outbox).
    public let client: @Sendable () throws -> ExpenseLogAPIClient?
    /// The cache months are read into.
    public let repository: LocalRepository
    /// The writes waiting: the outbox items go to, and the changes laid over the months read.
    public let journal: Journal
    /// The queued changes, laid over the months read (asked for only when months are).
    public let queuedEdits: @Sendable () -> [QueuedEdit]
    /// The categories rows are checked against.
    public let catalogue: CategoryCatalogue
    /// What invalid rows do.
    public let onInvalid: InvalidRows
    /// Statement matching; nil sends every row whose id is new (`--allow-duplicates`).
    public let matcher: StatementMatcher?
    /// Where statement rows' decisions are kept.
    public let decisions: ImportDecisions
    /// The person's shop rules (`expense-log rule`), read by every import of files.
    public let shopRules: ShopRules?
    /// Whether nothing is sent.
    public let dryRun: Bool
    /// How large a batch grows.
    public let limit: BatchLimit
    /// Whether answers must name every item sent (not for the dummy environment's canned answers).
    public let verifyAnswers: Bool
    /// The household's fixed costs (statement rows that pay them, occurrences a person already typed), asked for once
    /// rows are compared.
    public var rules: @Sendable () async -> [RecurringRule] = { [] }

    /// A registration with every part given.
    public init(
        client: @escaping @Sendable () throws -> ExpenseLogAPIClient?, repository: LocalRepository,
        journal: Journal,
        queuedEdits: @escaping @Sendable () -> [QueuedEdit], catalogue: CategoryCatalogue, onInvalid: InvalidRows,
        matcher: StatementMatcher?, decisions: ImportDecisions, shopRules: ShopRules? = nil, dryRun: Bool,
        limit: BatchLimit,
        verifyAnswers: Bool
    ) {
        self.shopRules = shopRules
        (self.client, self.repository, self.journal, self.queuedEdits) = (client, repository, journal, queuedEdits)
        (self.catalogue, self.onInvalid, self.matcher, self.decisions, self.dryRun) = (
            catalogue, onInvalid, matcher, decisions, dryRun
        )
        (self.limit, self.verifyAnswers) = (limit, verifyAnswers)
    }

    /// What happens during a run that the caller shows at once.
    public enum Event {
        /// So many rows were read.
        case read(Int)
        /// Every input was read and checked (its problems are in the record).
        case checked(ImportInputs)
        /// The comparison with the server and the outbox went on.
        case comparing(DuplicateCheckEvent)
        /// A batch was sent, of `total` items to send.
        case sending(RegisterSending.Event, total: Int)
    }

    /// The shops whose rows would take the profile's default category, no rule or history naming theirs: the inputs read
    /// and checked, nothing compared or sent (a person on a terminal gives each its category before the run).
    public func defaultedShops(
        _ input: RegistrationInput
    ) async throws -> [(shop: String, first: SourceLocation, item: Item, rows: Int)] {
        guard case .files = input else { return [] }
        var record = ImportRecord()
        return try await read(input, into: try ItemSpool(), record: &record) { _ in }.defaultedShops
    }

    /// Reads and checks files: a statement's row takes the category its shop last had (history is what the cache holds,
    /// read only when a profile may learn: one given that does, or one recognised, which no profile given leaves
    /// possible), or the person's rule's.
    private func read(
        _ input: RegistrationInput, into spool: ItemSpool, record: inout ImportRecord,
        progress: (Int) -> Void
    ) async throws -> ImportInputs {
        guard case let .files(sources, profile, encoding, keepsTransfers, account, payer) = input else {
            return ImportInputs(spool: spool)
        }
        let learned =
            profile.map(\.learnsCategories) ?? true
            ? LearnedCategory.history(await CacheContents(repository).items()) : [:]
        return try ImportInputs.read(
            sources, profile: profile, encoding: encoding, catalogue: catalogue, learned: learned,
            shopRules: try shopRules?.load() ?? [], keepsTransfers: keepsTransfers, account: account, payer: payer,
            into: spool, report: &record, progress: progress)
    }

    /// Runs the registration of `input`, its valid items going to `spool` and what the server saved to `saved`;
    /// `decide` settles the statement rows matching cannot (nil holds a row back), its answers kept as `deciding`'s.
    /// Throws what stops it before an outcome (an unreadable file, a month the comparison cannot do without, the spool).
    public func run(
        _ input: RegistrationInput, into spool: ItemSpool, record: inout ImportRecord, saved: inout SavedItems,
        today: Day, deciding: RowDecision.Source = .person,
        decide: (HeldRow) async throws -> HeldChoice? = { _ in nil },
        event: (Event) -> Void
    ) async throws -> RegistrationOutcome {
        let inputs: ImportInputs
        // A purchase typed with no id gets a new random one, which no server or outbox can hold yet: nothing to compare
        // with, so `add` with the server away queues at once instead of first waiting on the month's GET.
        var fresh = false, sharing = false
        let isFiles = if case .files = input { true } else { false }
        switch input {
        case let .files(_, profile, _, _, _, payer):
            inputs = try await read(input, into: spool, record: &record) { event(.read($0)) }
            sharing = payer != nil || profile?.payer != nil || inputs.sharing
        case .typed(let drafts):
            fresh = drafts.allSatisfy { if case .missing = $0.id { true } else { false } }
            sharing = drafts.contains { $0.payer != nil || $0.personal || $0.shared }
            inputs = try ImportInputs.read(drafts: drafts, catalogue: catalogue, into: spool, report: &record)
        }
        record.appendInvalid(inputs.problems)
        record.defaultCategoryRows = inputs.defaultedRows
        for row in inputs.excluded {
            record.append(
                .init(location: row.location, status: row.isTransfer ? .transfer : .excluded, reasons: [row.reason]))
        }
        event(.checked(inputs))
        // A file that cannot be read at all (its header, its bytes) is not helped by skipping rows: the run exits 65.
        let invalid = !inputs.problems.isEmpty && (onInvalid != .warn || inputs.problems.contains(where: \.ofWholeFile))
        var result = RegistrationOutcome(inputs: inputs, invalid: invalid)
        if invalid, onInvalid == .stop {
            result.end = .stoppedOnInvalid
            return result
        }
        guard inputs.spool.count > 0 else { return result }
        let client = try client()
        let checked: DuplicateCheck.Outcome
        if fresh {
            // A typed purchase with a new random id: no server or journal can hold it yet, so nothing is compared; the
            // journal is read only to say what earlier runs left waiting (and which of its files cannot be read).
            let listed = try journal.listing()
            for problem in listed.problems { event(.comparing(.outboxProblem(problem))) }
            checked = DuplicateCheck.Outcome(
                items: inputs.spool, waiting: listed.itemEntries.reduce(0) { $0 + $1.itemCount })
        } else {
            checked = try await compare(
                inputs, typed: !isFiles, client: client, today: today, record: &record, deciding: deciding,
                decide: decide, event: event)
        }
        let items = checked.items
        (result.skipped, result.held, result.waiting) = (
            inputs.repeated + checked.skipped, checked.held, checked.waiting
        )
        if !dryRun { try await decisions.record(checked.decisions) }
        guard let client, !dryRun, items.count > 0 else {
            result.end = dryRun ? .dryRun(items) : .nothingNew
            return result
        }
        // Who paid goes only to a server that keeps it: asked once (`?action=info`, remembered) when items carry it.
        if sharing { _ = try? await EditTargets.availability(of: "payer", client, repository) }
        // The bundled script's register action says which ids were already there, when the server is known to offer it.
        let info = await repository.serverInfo()
        let registration = RegisterSending(
            items: items, limit: limit, client: client, journal: journal,
            verifyAnswers: verifyAnswers, registerAction: info?.offers("register") == true,
            keepsShare: info?.offers("payer") == true)
        result.end = .sent(
            try await registration.run(saved: &saved, report: &record) { event(.sending($0, total: items.count)) },
            total: items.count)
        return result
    }

    /// Compares the valid items with the server (the months they fall in, and around them for statement rows) and the
    /// journal, as `DuplicateCheck` does.
    private func compare(
        _ inputs: ImportInputs, typed: Bool, client: ExpenseLogAPIClient?, today: Day, record: inout ImportRecord,
        deciding: RowDecision.Source, decide: (HeldRow) async throws -> HeldChoice?, event: (Event) -> Void
    ) async throws -> DuplicateCheck.Outcome {
        // The fixed costs are asked for (a request to the server) only when rows may meet them: statement rows, or the
        // occurrences `recurring post` types (which bring their rules).
        let meetsRules = matcher != nil && (typed || !(inputs.madeIDRows.isEmpty && inputs.foreignRows.isEmpty))
        let check = DuplicateCheck(
            loader: MonthLoader(client: client, repository: repository, edits: queuedEdits()),
            journal: journal, matcher: matcher, decided: matcher == nil ? [:] : try decisions.load(),
            rules: meetsRules ? rules : { @Sendable in [] })
        // A statement row came without an id of its own: its id was made from its content, or a foreign layout's
        // (a profile's) id is new to the server. A typed item or a native file's row is a purchase of its own.
        let (madeIDRows, foreignRows) = (inputs.madeIDRows, inputs.foreignRows)
        // A statement row may be the purchase typed a few days before its month began, or after it ended.
        var months = inputs.months
        if let matcher, let days = inputs.days, !(inputs.madeIDRows.isEmpty && inputs.foreignRows.isEmpty) {
            months.formUnion(
                Period.days(
                    from: days.lowerBound.adding(days: -matcher.window),
                    to: days.upperBound.adding(days: matcher.window)
                ).months)
        }
        return try await check.run(
            months: months.sorted(), spool: inputs.spool,
            isStatementRow: { foreignRows.contains($0) || madeIDRows.contains($0) }, madeIDRows: madeIDRows,
            legacyIDs: inputs.legacyIDs, today: today, report: &record, deciding: deciding, decide: decide
        ) { event(.comparing($0)) }
    }
}
