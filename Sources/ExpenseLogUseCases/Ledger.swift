import ExpenseLogClient
import ExpenseLogConfig
import ExpenseLogFixtures
import ExpenseLogHTTP
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// The household's ledger as this machine keeps it: built once from the configuration, it owns the client, the cache
/// and the journal of pending writes, and is where every command's work happens (the composition root of the library).
///
/// Opening it moves what earlier versions kept elsewhere (months cached before the cache was kept per server, writes
/// queued in two folders), once, and says so through `hooks.notice`.
public actor Ledger {
    /// The configuration it was built from.
    public nonisolated let config: AppConfig
    /// The cache of the configured environment and server.
    nonisolated let repository: LocalRepository
    /// The writes waiting for the server.
    nonisolated let journal: Journal
    /// The decisions about statement rows (and `same`'s).
    nonisolated let decisions: ImportDecisions
    /// The person's shop rules.
    public nonisolated let shopRules: ShopRuleList
    /// How long a batch whose answer was lost waits before it is sent again.
    public nonisolated let resendPolicy: ResendPolicy
    /// What it needs from outside.
    public nonisolated let hooks: LedgerHooks

    /// The ledger of `config`'s environment.
    public init(config: AppConfig, hooks: LedgerHooks) {
        let environment = config.environment.value
        let state = config.paths.stateDirectory(environment)
        self.config = config
        self.hooks = hooks
        if environment.usesNetwork {
            let (moved, legacy) = CacheFolder.moveLegacyMonths(in: config.paths.cacheDirectory(environment))
            if moved > 0 { hooks.notice(.legacyCacheMoved(count: moved, legacy: legacy, cache: config.cacheDirectory)) }
        }
        repository = LocalRepository(directory: config.cacheDirectory)
        journal = Journal(directory: config.journalDirectory)
        // A move that fails is said and left for the next run: nothing is lost, and the rest of the run goes on.
        do {
            let moved = try JournalMigration.run(into: journal, from: config.paths.legacyQueueDirectories(environment))
            if moved.entries > 0 { hooks.notice(.journalMoved(count: moved.entries, journal: journal.directory)) }
        } catch {
            hooks.notice(.journalNotMoved(error))
        }
        decisions = ImportDecisions(folder: state)
        shopRules = ShopRuleList(store: ShopRules(folder: state))
        resendPolicy = ResendPolicy(
            configured: config.resendWait.value, isDefault: config.resendWait.source == "default")
    }

    /// The lock every sender of the journal holds, named when another run holds it.
    public nonisolated var lockFile: URL { journal.lock }

    /// Where the import decisions and the shop rules of `config`'s environment are kept (`config show`, which opens no
    /// ledger).
    public static func dataFiles(of config: AppConfig) -> (decisions: URL, rules: URL) {
        let state = config.paths.stateDirectory(config.environment.value)
        return (ImportDecisions(folder: state).url, ShopRules(folder: state).url)
    }

    /// Where `same` keeps its decisions: with the import decisions.
    public nonisolated var samePurchase: SamePurchase { SamePurchase(decisions: decisions) }

    /// Whether answers must name every item sent (not the dummy environment's canned answers).
    public nonisolated var verifiesAnswers: Bool { config.environment.value != .dummy }

    /// A client for the configured environment: fixtures for dummy, the live session (with the token) otherwise;
    /// `queuesUnreachable` does not retry a server that cannot be reached at all (`add`: the item waits in the journal).
    nonisolated func client(queuesUnreachable: Bool = false) throws -> ExpenseLogAPIClient {
        let session: any Session
        let baseURL: URL
        var token: String?
        if config.environment.value == .dummy {
            let directory =
                config.fixturesDirectory.map { URL(fileURLWithPath: $0.value, isDirectory: true) }
                ?? FixtureBundle.directory()
            guard let directory else {
                let binDir = Bundle.main.executableURL?.deletingLastPathComponent().path ?? "the executable's folder"
                throw APIError.fixtureUnreadable(
                    path: "\(binDir)/\(FixtureBundle.name).resources or \(binDir)/../share/expense-log",
                    reason: "the bundled fixtures are in neither")
            }
            session = FixtureSession(directory: directory)
            baseURL = directory
        } else {
            baseURL = try config.requireBaseURL()
            token = try Token.load(environment: hooks.environment, file: config.paths.tokenFile)?.value
            if token != nil, baseURL.scheme?.lowercased() == "http", !LoopbackHost.matches(baseURL.host ?? "") {
                hooks.notice(.tokenOverPlainHTTP(host: baseURL.host ?? "the server"))
            }
            session = hooks.makeLiveSession?() ?? LiveSession.make(environment: hooks.environment)
        }
        var retryPolicy = config.retryPolicy
        retryPolicy.retriesUnreachable = !queuesUnreachable
        return ExpenseLogAPIClient(
            session: session, baseURL: baseURL, timeout: config.timeout, token: token,
            retryPolicy: retryPolicy, serverTimeZone: config.serverTimeZone.value,
            maxAnswerBytes: config.maxAnswerBytes.value, onEvent: hooks.onClientEvent, sleep: hooks.sleep)
    }

    /// The way to the server a command holds: a client for the configured environment (see `client`).
    public nonisolated func link(queuesUnreachable: Bool = false) throws -> ServerLink {
        ServerLink(client: try client(queuesUnreachable: queuesUnreachable))
    }

    /// A run of the pending writes over `client` (`sync`, and `edit`/`delete` sending the journal).
    nonisolated func sync(_ client: ExpenseLogAPIClient) -> JournalSending {
        JournalSending(
            client: client, repository: repository, journal: journal, policy: resendPolicy,
            verifyAnswers: verifiesAnswers, matching: QueuedRowMatching(decisions: decisions))
    }

    /// How many items and changes wait for the server (0 when none can be read).
    public nonisolated func waitingWrites() -> (items: Int, changes: Int) {
        guard let listed = try? journal.listing() else { return (0, 0) }
        return (listed.itemEntries.reduce(0) { $0 + $1.itemCount }, listed.changes.count)
    }
}
