import ExpenseLogClient
import ExpenseLogConfig
import ExpenseLogFixtures
import ExpenseLogHTTP
import ExpenseLogStore
import ExpenseLogUseCases
import Foundation

/// Everything a command needs from outside: streams, environment variables, global options, and how to reach the server.
public struct Context: Sendable {
    /// The process environment.
    public let environment: [String: String]
    /// The streams.
    public let io: ConsoleIO
    /// The global options as parsed.
    public let invocation: Invocation
    /// Makes the live session; tests may swap it for a fake. Nil: the configured transport's.
    public let makeLiveSession: (@Sendable () -> any Session)?
    /// Waits between a request's attempts; tests pass one that records the wait instead of sleeping through it.
    public let sleep: @Sendable (Double) async throws -> Void

    /// A context over real or test streams.
    public init(
        environment: [String: String], io: ConsoleIO, invocation: Invocation,
        makeLiveSession: (@Sendable () -> any Session)? = nil,
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
    ) {
        self.environment = environment
        self.io = io
        self.invocation = invocation
        self.makeLiveSession = makeLiveSession
        self.sleep = sleep
        // A config file that cannot be read is reported by the command that needs it; the words fall back to LANG.
        japanese =
            (try? Self.config(invocation, environment))?.japanese?.value
            ?? Language.isJapanese(environment: environment, preferred: Language.systemPreferred)
    }

    /// `--quiet`: only errors on stderr.
    public var quiet: Bool { invocation[ExpenseLogCommand.Global.quiet] }
    /// `--verbose`: requests and timings on stderr.
    public var verbose: Bool { invocation[ExpenseLogCommand.Global.verbose] }
    /// Japanese table headings and category names: as the config file's `language` says, else when the locale is
    /// Japanese (read once per run).
    public let japanese: Bool

    /// The width a table on stdout fits: `COLUMNS` when a positive integer (as `ls` reads it), else the terminal's own;
    /// nil when stdout is not a terminal, so piped or redirected output keeps every name whole.
    public var terminalWidth: Int? {
        guard io.stdoutIsTerminal else { return nil }
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        return io.stdoutColumns
    }

    /// Prints a note on stderr unless `--quiet`.
    public func note(_ text: String) {
        if !quiet { io.stderr.write(text + "\n") }
    }

    /// Prints a warning on stderr (even with `--quiet`: warnings change what the data means).
    public func warn(_ text: String) {
        io.stderr.write("\(say("warning", ja: "警告")): \(text)\n")
    }

    /// A message in the person's language: `japanese` under a Japanese locale (or `language ja`), else `english`.
    public func say(_ english: String, ja japanese: String) -> String {
        self.japanese ? japanese : english
    }

    /// The effective configuration; the folders it names for the tool's data are made private first (once a run).
    public func config() throws -> AppConfig {
        let config = try Self.config(invocation, environment)
        try keepPrivate(config.paths)
        return config
    }

    /// The configuration the global options and the environment variables give.
    private static func config(_ invocation: Invocation, _ environment: [String: String]) throws -> AppConfig {
        typealias Global = ExpenseLogCommand.Global
        return try AppConfig.load(
            ConfigOverrides(
                environment: invocation[Global.env]?.rawValue, baseURL: invocation[Global.baseURL],
                fixtures: invocation[Global.fixtures], configFile: invocation[Global.config],
                timeout: invocation[Global.timeout], retries: invocation[Global.retries]),
            environment: environment)
    }

    /// The cache of the configured environment and server; months cached before the cache was kept per server are
    /// moved aside once, with a note, since nobody knows which server they came from.
    public func repository(_ config: AppConfig) -> LocalRepository {
        let environmentFolder = config.paths.cacheDirectory(config.environment.value)
        if config.environment.value.usesNetwork {
            let (moved, legacy) = CacheFolder.moveLegacyMonths(in: environmentFolder)
            if moved > 0 {
                note(
                    "The cache is now kept per server (\(config.cacheDirectory.path)). \(moved) month\(moved == 1 ? "" : "s") "
                        + "cached before, from an unknown server, \(moved == 1 ? "was" : "were") moved to \(legacy.path) and "
                        + "\(moved == 1 ? "is" : "are") not used; delete that folder when you like. The outbox is untouched."
                )
            }
        }
        return LocalRepository(directory: config.cacheDirectory)
    }

    /// The journal of the configured environment (the outbox): what versions before it queued in two folders is moved
    /// in first, with a note, so that nothing waiting is left behind; a move that fails is an error naming the file.
    public func journal(_ config: AppConfig) throws -> Journal {
        let journal = Journal(directory: config.journalDirectory)
        let moved = try JournalMigration.run(
            into: journal, from: config.paths.legacyQueueDirectories(config.environment.value))
        if moved > 0 {
            note(
                say(
                    "\(moved) waiting write\(moved == 1 ? " was" : "s were") moved into \(journal.directory.path), where "
                        + "items, edits and deletions now wait together in the order they were made.",
                    ja: "送信待ち\(moved)件を \(journal.directory.path) に移しました。項目・変更・削除は作った順にここで待ちます。"))
        }
        return journal
    }

    /// The decisions about statement rows of the configured environment, beside its outbox.
    public func importDecisions(_ config: AppConfig) -> ImportDecisions {
        ImportDecisions(folder: config.paths.stateDirectory(config.environment.value))
    }

    /// Where `same` keeps its decisions: with the import decisions of the configured environment.
    public func samePurchase(_ config: AppConfig) -> SamePurchase {
        SamePurchase(decisions: importDecisions(config))
    }

    /// The person's shop rules of the configured environment (`expense-log rule`), beside its decisions.
    public func shopRules(_ config: AppConfig) -> ShopRuleList {
        ShopRuleList(store: ShopRules(folder: config.paths.stateDirectory(config.environment.value)))
    }

    /// How many items and changes wait for the server in the configured environment (0 when none can be read).
    public func waitingWrites(_ config: AppConfig) -> (items: Int, changes: Int) {
        guard let listed = try? journal(config).listing() else { return (0, 0) }
        return (listed.itemEntries.reduce(0) { $0 + $1.itemCount }, listed.changes.count)
    }

    /// Where the configured environment keeps its import decisions and shop rules (for `config show`).
    public func dataFiles(_ config: AppConfig) -> (decisions: URL, rules: URL) {
        (importDecisions(config).url, ShopRules(folder: config.paths.stateDirectory(config.environment.value)).url)
    }

    /// How long a batch whose answer was lost waits before it is sent again, as configured.
    public func resendPolicy(_ config: AppConfig) -> ResendPolicy {
        ResendPolicy(configured: config.resendWait.value, isDefault: config.resendWait.source == "default")
    }

    /// A run of the pending writes over a client and a cache (`sync`, and `edit`/`delete` sending the queue).
    public func sync(_ config: AppConfig, _ client: ExpenseLogAPIClient, _ repository: LocalRepository) throws -> Sync {
        Sync(
            client: client, repository: repository, journal: try journal(config), policy: resendPolicy(config),
            verifyAnswers: config.environment.value != .dummy,
            matching: QueuedRowMatching(decisions: importDecisions(config)))
    }

    /// A client, or none for a dry run when none can be made (no server configured): it compares with what is here.
    /// `queuesUnreachable` gives up at once on a server that cannot be reached at all (`add`: the item waits in the outbox).
    public func client(
        _ config: AppConfig, orNoneFor dryRun: Bool, queuesUnreachable: Bool = false
    ) throws -> ExpenseLogAPIClient? {
        do {
            return try client(config, queuesUnreachable: queuesUnreachable)
        } catch  where dryRun {
            warn(
                String(describe(error).prefix { $0 != "\n" })
                    + say("; the dry run compares with the cache and the outbox only", ja: "。試行はキャッシュと送信待ちとだけ比べます"))
            return nil
        }
    }

    /// A client for the configured environment: fixtures for dummy, the live session (with the token) otherwise;
    /// `queuesUnreachable` does not retry a server that cannot be reached at all.
    public func client(_ config: AppConfig, queuesUnreachable: Bool = false) throws -> ExpenseLogAPIClient {
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
            token = try Token.load(environment: environment, file: config.paths.tokenFile)?.value
            if token != nil, baseURL.scheme?.lowercased() == "http", !LoopbackHost.matches(baseURL.host ?? "") {
                warn(
                    say(
                        "the token is sent over plain http:// to \(baseURL.host ?? "the server"), unencrypted; use https://",
                        ja: "トークンを暗号化されない http:// で \(baseURL.host ?? "サーバー") に送ります。https:// を使ってください"))
            }
            session = makeLiveSession?() ?? LiveSession.make(environment: environment)
        }
        let log = RequestLog(sink: io.stderr, verbose: verbose, quiet: quiet)
        var retryPolicy = config.retryPolicy
        retryPolicy.retriesUnreachable = !queuesUnreachable
        return ExpenseLogAPIClient(
            session: session, baseURL: baseURL, timeout: config.timeout, token: token,
            retryPolicy: retryPolicy, serverTimeZone: config.serverTimeZone.value,
            maxAnswerBytes: config.maxAnswerBytes.value, onEvent: log.record, sleep: sleep)
    }
}
