import ExpenseLogConfig
import ExpenseLogHTTP
import ExpenseLogUseCases
import Foundation

/// The tool's command tree and entry point.
public enum ExpenseLogCommand {
    /// The version printed by `--version`.
    public static let version = ToolFacts.version

    /// Options every command accepts, before or after its name.
    enum Global {
        static let env = Option<Environment>(
            choice: "env", "environment",
            help: "The environment; dummy answers from fixtures with no network. Also EXPENSE_LOG_ENV.")
        static let baseURL = Option<String>(
            "base-url", "url", help: "The web app's URL. Also EXPENSE_LOG_BASE_URL or the config file.")
        static let fixtures = Option<String>(
            "fixtures", "dir", .path,
            help: "A folder with fetch.json and register.json for --env dummy. Also EXPENSE_LOG_FIXTURES.")
        static let config = Option<String>("config", "file", .path, help: "The config file. Also EXPENSE_LOG_CONFIG.")
        static let timeout = Option<Double>(
            seconds: "timeout",
            help: "Seconds before a request is abandoned (default: \(ToolFacts.defaultTimeoutText)).")
        static let retries = Option<Int>(
            "retries", "n", .integer(0...ToolFacts.maximumRetries),
            help:
                "Retries after a connection failure, timeout, 429, 502, 503 or 504 (default: \(ToolFacts.defaultRetries))."
        )
        static let verbose = Flag(
            "verbose", short: "v",
            help: "Log each request (method, URL, status, size, time, attempt) on stderr; never the token.")
        static let quiet = Flag("quiet", short: "q", help: "Print only errors and warnings on stderr.")
    }

    /// The global options' declarations, in the order help lists them.
    public static let globalOptions: [OptionSpec] = [
        Global.env.spec, Global.baseURL.spec, Global.fixtures.spec, Global.config.spec, Global.timeout.spec,
        Global.retries.spec,
        Global.verbose.spec, Global.quiet.spec,
    ]

    /// The root of the command tree.
    public static let root = root(declaring: commands)

    /// The root with the commands of `declared` declared in full and the others by their names and abstracts.
    static func root(declaring declared: [any Command.Type]) -> CommandSpec {
        CommandSpec(
            name: "expense-log",
            abstract: "Read and write a household expense log (家計簿) kept in a web app.",
            discussion: """
                Data goes to stdout, everything else to stderr. Exit codes follow BSD sysexits \
                (see docs/exit-codes.md). Try it offline: expense-log --env dummy fetch --year 2024 --month 1
                """,
            subcommands: commands.map { command in declared.contains { $0 == command } ? command.spec : command.summary
            } + [helpSpec])
    }

    /// The parser for one command line: only the commands one of its words names are declared in full (reading a
    /// command's declaration reflects on its properties, most of start-up when done for every command); the rest are
    /// known by name, which is all that help's list and a misspelt command's suggestion need.
    static func parser(for arguments: [String]) -> Parser {
        let words = Set(arguments)
        return Parser(
            root: root(declaring: commands.filter { !words.isDisjoint(with: $0.names) }), globals: globalOptions)
    }

    static let helpSpec = CommandSpec(
        name: "help", abstract: "Show help for a command (same as COMMAND --help).",
        arguments: [ArgumentSpec("command", variadic: true, optional: true, help: "The command to describe.")])

    /// The tool's commands, in the order help lists them; each declares its subcommands.
    static var commands: [any Command.Type] {
        [
            FetchCommand.self, AddCommand.self, EditCommand.self, DeleteCommand.self, SameCommand.self,
            RegisterCommand.self, SyncCommand.self,
            PendingCommand.self, SummaryCommand.self, ReportCommand.self, CacheCommand.self, ConfigCommand.self,
            CategoriesCommand.self, RuleCommand.self, RecurringCommand.self, SettleCommand.self, ExportCommand.self,
            ProfileCommand.self,
            ServerCommand.self,
            CompletionCommand.self,
        ]
    }

    /// The command a parsed path names (`["cache", "list"]`).
    static func command(at path: [String]) -> (any Command.Type)? {
        guard let first = path.first else { return nil }
        return commands.first { $0.names.contains(first) }?.command(at: path.dropFirst())
    }

    /// The parser over the tree.
    public static let parser = Parser(root: root, globals: globalOptions)
    /// The help renderer over the tree.
    public static let helpFormatter = HelpFormatter(toolName: toolName, parser: parser)
    /// The name help and completions call the tool by.
    static let toolName = "expense-log"

    /// Runs a command line and returns the exit code; nothing here calls `exit`, so tests can run it in-process (with
    /// their own session and their own wait between attempts).
    public static func main(
        arguments: [String], environment: [String: String], io: ConsoleIO,
        makeLiveSession: (@Sendable () -> any Session)? = nil,
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
    ) async -> Int32 {
        // The manual page, for `make install` (as swift-argument-parser's generate-manual plugin makes one); not a command.
        if arguments == ["--generate-manual"] {
            io.stdout.write(manPage(date: Date()).render())
            return outputLost(io) ? ExitCode.ioError.rawValue : ExitCode.success.rawValue
        }
        let parser = parser(for: arguments)
        let helpFormatter = HelpFormatter(toolName: toolName, parser: parser)
        let result: ParseResult
        do {
            result = try parser.parse(arguments)
        } catch let error as UsageError {
            io.stderr.write(helpFormatter.usageError(error))
            return ExitCode.usage.rawValue
        } catch {
            io.stderr.write("Error: \(error)\n")
            return ExitCode.failure.rawValue
        }
        switch result {
        case .help(let path):
            io.stdout.write(helpFormatter.help(path))
            return outputLost(io) ? ExitCode.ioError.rawValue : ExitCode.success.rawValue
        case .version:
            io.stdout.write("expense-log \(version)\n")
            return outputLost(io) ? ExitCode.ioError.rawValue : ExitCode.success.rawValue
        case .run(let invocation, let spec):
            let context = Context(
                environment: environment, io: io, invocation: invocation,
                makeLiveSession: makeLiveSession, sleep: sleep)
            let code: Int32
            do {
                guard let command = command(at: invocation.path) else {
                    throw UsageError(path: invocation.path, message: "'\(spec.name)' cannot be run; see --help")
                }
                code = try await command.run(invocation, context).rawValue
            } catch let exit as CommandExit {
                code = exit.code.rawValue
            } catch let error as UsageError {
                io.stderr.write(helpFormatter.usageError(error))
                code = ExitCode.usage.rawValue
            } catch {
                io.stderr.write(context.errorLine(error))
                code = ExitCode(for: error).rawValue
            }
            return outputLost(io, japanese: context.japanese) && code == ExitCode.success.rawValue
                ? ExitCode.ioError.rawValue : code
        }
    }

    /// The manual page of this tree, dated `date` (a calendar day in UTC: the page names no time).
    public static func manPage(date: Date) -> ManPage {
        let day = date.formatted(Date.ISO8601FormatStyle().year().month().day())
        return ManPage(
            parser: parser, toolName: helpFormatter.toolName, version: version, date: day,
            exitCodes: ExitCode.allCases.map { ($0.rawValue, $0.meaning) })
    }

    /// Says so when stdout could not be written (a full disk, a closed file), so that lost output never exits 0. A
    /// reader that went away (`| head -1`, EPIPE) is not an error: it chose to read no more, as with git or curl.
    static func outputLost(_ io: ConsoleIO, japanese: Bool = false) -> Bool {
        guard let sink = io.stdout as? FileDescriptorSink, let code = sink.errors.errno, code != EPIPE else {
            return false
        }
        io.stderr.write(
            japanese
                ? "エラー: 標準出力に書けません: \(ToolFacts.posix(code))。コマンドが送ったもの、送信待ちにしたもの、キャッシュしたものは"
                    + "済んで記録されています。空きのある出力先でもう一度実行してください。\n"
                : "Error: the output could not be written to stdout: \(ToolFacts.posix(code)). Whatever the command "
                    + "sent, queued or cached is done and recorded; run it again with stdout going somewhere with room.\n"
        )
        return true
    }
}
