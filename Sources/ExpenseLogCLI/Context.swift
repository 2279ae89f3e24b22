import ExpenseLogConfig
import ExpenseLogHTTP
import ExpenseLogUseCases
import Foundation
import Synchronization

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
    /// What the run read once.
    let slots: ContextSlots

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
        slots = ContextSlots()
        // A config file that cannot be read is reported by the command that needs it; the words fall back to LANG.
        japanese =
            (try? slots.config.withLock { slot in
                let read = Result { try Self.config(invocation, environment) }
                slot = read
                return read
            }.get())?.japanese?.value
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

    /// The effective configuration, read once a run; the folders it names for the tool's data are made private first
    /// (once a run).
    public func config() throws -> AppConfig {
        let config = try slots.config.withLock { slot in
            if let slot { return slot }
            let read = Result { try Self.config(invocation, environment) }
            slot = read
            return read
        }.get()
        try keepPrivate(config.paths)
        return config
    }

    /// Forgets the configuration read and the ledger opened from it, after a command wrote the config file, so that
    /// what follows in the run reads the file as it is now.
    func configWritten() {
        slots.config.withLock { $0 = nil }
        slots.ledger.withLock { $0 = nil }
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

    /// The ledger of the configured environment, opened once a run (what opening it did is said then).
    public func ledger() throws -> Ledger {
        let config = try config()
        return slots.ledger.withLock { slot in
            if let slot { return slot }
            let stderr = io.stderr
            let log = RequestLog(write: { stderr.write($0) }, verbose: verbose, quiet: quiet)
            let ledger = Ledger(
                config: config,
                hooks: LedgerHooks(
                    environment: environment, makeLiveSession: makeLiveSession, sleep: sleep,
                    onClientEvent: log.record, notice: tell))
            slot = ledger
            return ledger
        }
    }

    /// A client, or none for a dry run when none can be made (no server configured): it compares with what is here.
    /// `queuesUnreachable` gives up at once on a server that cannot be reached at all (`add`: the item waits in the outbox).
    public func link(orNoneFor dryRun: Bool, queuesUnreachable: Bool = false) throws -> ServerLink? {
        do {
            return try ledger().link(queuesUnreachable: queuesUnreachable)
        } catch  where dryRun {
            warn(
                String(describe(error).prefix { $0 != "\n" })
                    + say("; the dry run compares with the cache and the outbox only", ja: "。試行はキャッシュと送信待ちとだけ比べます"))
            return nil
        }
    }

    /// The way to the server of the configured environment (see `Ledger.link`).
    public func link(queuesUnreachable: Bool = false) throws -> ServerLink {
        try ledger().link(queuesUnreachable: queuesUnreachable)
    }

    /// Where the configured environment keeps its import decisions and shop rules (for `config show`).
    public func dataFiles() throws -> (decisions: URL, rules: URL) {
        Ledger.dataFiles(of: try config())
    }
}

/// What a run reads once and keeps: the configuration and the ledger (a class, so that copies of the context share it).
final class ContextSlots: Sendable {
    /// The configuration as read, or why it could not be.
    let config = Mutex<Result<AppConfig, any Error>?>(nil)
    /// The ledger, once opened.
    let ledger = Mutex<Ledger?>(nil)
}
