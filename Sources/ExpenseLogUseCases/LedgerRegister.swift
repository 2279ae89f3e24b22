import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// What a `register` (or `add`) run is asked to do.
public struct RegisterRequest {
    /// What it reads: files, or the items a person typed.
    public var input: RegistrationInput
    /// The inputs' names as the record shows them.
    public var fileNames: [String]
    /// What invalid rows do.
    public var onInvalid: InvalidRows
    /// Statement matching; nil sends every row whose id is new.
    public var matcher: StatementMatcher?
    /// Whether nothing is sent (it compares with the cache and the journal alone when no server is configured).
    public var dryRun: Bool
    /// How large a batch grows.
    public var limit: BatchLimit
    /// Whether a server that cannot be reached at all is given up at once (`add`: the item waits in the journal).
    public var queuesUnreachable: Bool
    /// The day rows are compared against (a statement's future rows).
    public var today: Day
    /// The household's fixed costs, which statement rows may pay and posted occurrences are; nil: read where they are
    /// kept, once statement rows are compared.
    public var rules: [RecurringRule]?

    /// A request with every part given.
    public init(
        input: RegistrationInput, fileNames: [String], onInvalid: InvalidRows, matcher: StatementMatcher?, dryRun: Bool,
        limit: BatchLimit,
        queuesUnreachable: Bool, today: Day
    ) {
        (self.input, self.fileNames, self.onInvalid) = (input, fileNames, onInvalid)
        (self.matcher, self.dryRun) = (matcher, dryRun)
        (self.limit, self.queuesUnreachable, self.today) = (limit, queuesUnreachable, today)
    }
}

/// Everything a `register` run did, complete: what was read and sent, every row's fate, what the server saved (cached
/// already), and what stopped it if anything did.
public struct RegisterOutcome {
    /// Where the registration ended; nil when something stopped it first (`failure`).
    public let result: RegistrationOutcome?
    /// Every row's fate.
    public let record: ImportRecord
    /// The run's valid items, which the record's rows name (on disk, never all in memory).
    public let items: ItemSpool
    /// What the server saved, cached already.
    public let saved: SavedItems
    /// Why the saved items could not all be kept or cached, if so.
    public let cacheFailure: StoreError?
    /// What stopped the run before it ended (a file that cannot be read, a month the comparison needed, a 401).
    public let failure: (any Error)?
    /// How long a batch whose answer was lost waits before `sync` sends it again.
    public let resendWait: ResendWait
}

extension Ledger {
    /// The registration `request` describes, over this ledger's cache, journal and decisions; `client` makes the client
    /// once a valid row was read (nil: none, for a dry run with no server).
    private nonisolated func registration(
        _ request: RegisterRequest, client: @escaping @Sendable () throws -> ExpenseLogAPIClient?
    ) -> Registration {
        let journal = journal
        var registration = Registration(
            client: client, repository: repository, journal: journal,
            queuedEdits: { (try? journal.listing().changes) ?? [] }, catalogue: config.catalogue.value,
            onInvalid: request.onInvalid, matcher: request.matcher, decisions: decisions, shopRules: shopRules.store,
            dryRun: request.dryRun, limit: request.limit, verifyAnswers: verifiesAnswers)
        let given = request.rules
        registration.rules = { [self] in
            if let given { return given }
            return await recurringRulesForMatching(link: try? client())
        }
        return registration
    }

    /// The shops whose rows would take the profile's default category (no rule or history names theirs): read and
    /// checked only, so a person on a terminal can give each its category before the run.
    public nonisolated func defaultedShops(
        _ request: RegisterRequest
    ) async throws -> [(shop: String, first: SourceLocation, item: Item, rows: Int)] {
        try await registration(request, client: { nil }).defaultedShops(request.input)
    }

    /// `register` and `add`: reads and checks the input, compares it with the server and the journal, journals and
    /// sends what is new, and caches what the server saved; never throws what happened on the way (it is in the
    /// outcome), only a spool that cannot be made. `decide` settles the statement rows matching cannot (nil holds one
    /// back), its answers kept as `deciding`'s; `event` hears the run as it goes (nonisolated: the input and the
    /// person's answers stay with the caller).
    public nonisolated func register(
        _ request: RegisterRequest,
        link: @escaping @Sendable () throws -> ServerLink?,
        deciding: RowDecision.Source = .person, decide: (HeldRow) async throws -> HeldChoice? = { _ in nil },
        event: (Registration.Event) -> Void
    ) async throws -> RegisterOutcome {
        // The valid items wait on disk, not in memory, from reading to sending; the record reads them back from it.
        let spool = try ItemSpool()
        var record = ImportRecord(files: request.fileNames)
        var saved = try SavedItems()
        var result: RegistrationOutcome?
        var failure: (any Error)?
        do {
            result = try await registration(request, client: { try link()?.client }).run(
                request.input, into: spool, record: &record, saved: &saved, today: request.today,
                deciding: deciding, decide: decide, event: event)
        } catch {
            failure = error
        }
        // What the server saved is cached whatever stopped the run: a crash here costs only a re-fetch.
        let cacheFailure = await saved.cache(in: repository)
        let wait = resendPolicy.wait(info: await repository.serverInfo())
        return RegisterOutcome(
            result: result, record: record, items: spool, saved: saved, cacheFailure: cacheFailure, failure: failure,
            resendWait: wait)
    }
}
