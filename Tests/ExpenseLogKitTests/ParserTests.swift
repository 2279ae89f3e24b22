import ExpenseLogImport
import ExpenseLogModel
import Foundation
import TestSupport
import Testing

@testable import ExpenseLogCLI

/// The command an invocation makes, its properties read from it as `run` reads them.
func decoded<C: ParsableCommand>(_ invocation: Invocation, as type: C.Type) -> C {
    Invocation.$decoding.withValue(invocation) { C() }
}

extension ParseResult {
    /// The invocation when the command line runs a command.
    var invocation: Invocation? {
        if case .run(let invocation, _) = self { return invocation }
        return nil
    }

    /// The command path when the command line asks for help.
    var helpPath: [String]? {
        if case .help(let path) = self { return path }
        return nil
    }

    /// Whether the command line asks for the version.
    var isVersion: Bool {
        if case .version = self { return true }
        return false
    }
}

/// Parses a command line with the tool's parser.
func parse(_ arguments: [String]) throws -> ParseResult {
    try ExpenseLogCommand.parser.parse(arguments)
}

/// The usage error a command line gives, failing the test when it parses.
func usageError(_ arguments: [String]) throws -> UsageError {
    try #require(throws: UsageError.self) { try parse(arguments) }
}

/// The exit code, stdout and stderr of running the tool in-process. A command that reaches for the network without a
/// fake session gets `FakeSession.unmocked`, which fails loudly instead of reaching a real server.
func runTool(
    _ arguments: [String], environment: [String: String] = [:], session: FakeSession = .unmocked
) async
    -> (code: Int32, stdout: String, stderr: String)
{
    await runInProcess(arguments, environment: environment, makeLiveSession: { session })
}

@Suite("Parsing the command line")
struct ParserTests {
    static let fetchJanuary = ["fetch", "--year", "2024", "--month", "1"]

    @Test(
        "global options are accepted before and after the command, also as --name=value",
        arguments: [
            ["--env", "dummy", "--verbose", "fetch", "--year", "2024", "--month", "1"],
            ["fetch", "--year", "2024", "--month", "1", "--env", "dummy", "--verbose"],
            ["--verbose", "fetch", "--env=dummy", "--year=2024", "--month=1"],
            ["fetch", "--month", "1", "--env", "release", "--year", "2024", "--env", "dummy", "--verbose"],
        ])
    func globalOptions(arguments: [String]) throws {
        let invocation = try #require(try parse(arguments).invocation)
        #expect(invocation.path == ["fetch"])
        #expect(invocation[ExpenseLogCommand.Global.env] == .dummy)
        #expect(invocation[CommonOptions.year] == 2024)
        #expect(invocation[CommonOptions.month] == 1)
        #expect(invocation[ExpenseLogCommand.Global.verbose])
        #expect(!invocation[ExpenseLogCommand.Global.quiet])
        #expect(invocation[CommonOptions.format] == .table, "the declared default")
    }

    @Test("positional arguments are kept in order; -- ends the options and - is a file")
    func positionals() throws {
        let invocation = try #require(
            try parse(["register", "a.csv", "-", "--dry-run", "--", "--odd.json"]).invocation)
        #expect(invocation.arguments == ["a.csv", "-", "--odd.json"])
        let register = decoded(invocation, as: RegisterCommand.self)
        #expect(register.files == ["a.csv", "-", "--odd.json"], "a variadic argument is every text from its place")
        #expect(register.dryRun && register.format == .table, "a flag, and an option's declared default")
    }

    @Test("a typed argument is read from its declared place, and one left out is nil")
    func typedArguments() throws {
        let set = try #require(try parse(["config", "set", "serverTimeZone", "Asia/Tokyo"]).invocation)
        let setKey = decoded(set, as: ConfigCommand.SetKey.self)
        #expect(setKey.key == "serverTimeZone" && setKey.value == "Asia/Tokyo")
        let add = decoded(try #require(try parse(["add", "ラーメン"]).invocation), as: AddCommand.self)
        #expect(add.name == "ラーメン" && add.price == nil)
        let fetch = decoded(try #require(try parse(["fetch"]).invocation), as: FetchCommand.self)
        #expect(fetch.period == nil && fetch.year == nil && !fetch.offline)
    }

    @Test(
        "an unknown option is a usage error naming it and the command",
        arguments: [
            (["fetch", "--bogus"], "--bogus", ["fetch"]), (["--bogus=1", "fetch"], "--bogus", []),
            (["fetch", "-x"], "-x", ["fetch"]),
        ])
    func unknownOption(arguments: [String], option: String, path: [String]) throws {
        let error = try usageError(arguments)
        #expect(error.message == "Unknown option '\(option)'")
        #expect(error.path == path)
    }

    @Test("an unknown command is a usage error listing the commands")
    func unknownCommand() throws {
        let error = try usageError(["frobnicate", "--year", "2024"])
        #expect(error.message.hasPrefix("Unknown command 'frobnicate'"))
        for name in ["fetch", "register", "cache", "config"] { #expect(error.message.contains(name)) }
    }

    @Test(
        "a missing required option or argument is a usage error naming it",
        arguments: [
            (["fetch", "--year", "2024", "--month"], "Missing value for '--month <month>'"),
            (["fetch", "--year", "--month", "1"], "Missing value for '--year <year>'"),
            (["register"], "Missing expected argument '<file> ...'"),
            (["fetch", "2024-01", "extra"], "Unexpected argument 'extra'"),
            (["--verbose=yes", "categories"], "The flag '--verbose' does not take a value"),
        ])
    func missing(arguments: [String], message: String) throws {
        #expect(try usageError(arguments).message == message)
    }

    @Test(
        "a malformed value is a usage error naming the value and the option",
        arguments: [
            (["--month", "13"], "'13'", "--month <month>"), (["--month", "0"], "'0'", "--month <month>"),
            (["--month", "-1"], "'-1'", "--month <month>"), (["--month", "one"], "'one'", "--month <month>"),
            (["--year", "24"], "'24'", "--year <year>"), (["--year", "２０２４"], "'２０２４'", "--year <year>"),
            (["--format", "xml"], "'xml'", "--format <format>"), (["--env", "prod"], "'prod'", "--env <environment>"),
            (["--timeout", "0"], "'0'", "--timeout <seconds>"), (["--timeout", "abc"], "'abc'", "--timeout <seconds>"),
        ])
    func badValue(override: [String], value: String, label: String) throws {
        let error = try usageError(Self.fetchJanuary + override)
        #expect(error.message.hasPrefix("The value \(value) is invalid for '\(label)'"))
        #expect(error.path == ["fetch"])
    }

    @Test("fetch's query options parse, a negative price included; an unbounded number is asked for plainly")
    func fetchQueryOptions() throws {
        let invocation = try #require(
            try parse(
                Self.fetchJanuary + [
                    "--sort", "price", "--reverse", "--category", "food", "--sub", "2",
                    "--min", "-300",
                ]
            ).invocation)
        let fetch = decoded(invocation, as: FetchCommand.self)
        #expect(fetch.sort == .price && fetch.reverse)
        #expect(fetch.category == "food" && fetch.sub == "2" && fetch.min == -300 && fetch.max == nil)
        // A day some days ago is a value too, as `add --date -3d` and `edit --date -3d` take it; `-d` alone is no such day.
        let edit = try #require(try parse(["edit", "ID", "--date", "-3d"]).invocation)
        #expect(decoded(edit, as: EditCommand.self).date == "-3d")
        #expect(!Parser.isNegativeValue("-d") && !Parser.isNegativeValue("-3x") && Parser.isNegativeValue("-12d"))
        #expect(
            try usageError(Self.fetchJanuary + ["--min", "x"]).message
                == "The value 'x' is invalid for '--min <yen>': expected a whole number")
        #expect(
            try usageError(Self.fetchJanuary + ["--sort", "name"]).message
                == "The value 'name' is invalid for '--sort <key>': expected one of date, price")
    }

    @Test(
        "help COMMAND and COMMAND --help ask for the same help",
        arguments: [
            (["help", "fetch"], ["fetch"]), (["fetch", "--help"], ["fetch"]),
            (["fetch", "-h", "--year", "2024"], ["fetch"]),
            (["help", "cache", "list"], ["cache", "list"]), (["cache", "list", "--help"], ["cache", "list"]),
            (["help"], []), ([], []), (["--help"], []),
        ])
    func helpPaths(arguments: [String], path: [String]) throws {
        #expect(try parse(arguments).helpPath == path)
    }

    @Test("help for an unknown command is a usage error")
    func helpUnknown() throws {
        #expect(try usageError(["help", "bogus"]).message.contains("'bogus'"))
    }

    @Test(
        "--version asks for the version",
        arguments: [["--version"], ["fetch", "--version"], ["--env", "dummy", "--version"]])
    func version(arguments: [String]) throws {
        #expect(try parse(arguments).isVersion)
    }

    @Test(
        "every command accepts --version, as its help lists it", arguments: [["cache"], ["config"], ["cache", "list"]])
    func versionEverywhere(path: [String]) throws {
        #expect(ExpenseLogCommand.helpFormatter.help(path).contains("--version"))
        #expect(try parse(path + ["--version"]).isVersion)
    }

    @Test("a command group without its subcommand is a usage error listing them", arguments: [["cache"], ["config"]])
    func groupWithoutSubcommand(path: [String]) throws {
        let error = try usageError(path)
        #expect(error.path == path)
        #expect(error.message.hasPrefix("Missing subcommand"))
        #expect(try usageError(path + ["bogus"]).message.hasPrefix("Unknown subcommand 'bogus'"))
    }

    @Test("the tool's help has the sections and lists every command under SUBCOMMANDS")
    func rootHelp() throws {
        let help = ExpenseLogCommand.helpFormatter.help([])
        for section in ["OVERVIEW:", "USAGE:", "OPTIONS:", "SUBCOMMANDS:"] {
            #expect(help.contains("\n\(section)") || help.hasPrefix(section), "no \(section)")
        }
        let subcommands = try #require(help.components(separatedBy: "SUBCOMMANDS:\n").last)
        // The label column ends at the first double space: `register, import   Register items…`.
        let listed = subcommands.split(separator: "\n").compactMap { line -> String? in
            line.hasPrefix("  ") && !line.hasPrefix("   ") ? line.dropFirst(2).components(separatedBy: "  ").first : nil
        }
        #expect(
            listed.filter { !$0.hasPrefix("See ") }
                == ExpenseLogCommand.root.subcommands.map { ([$0.name] + $0.aliases).joined(separator: ", ") })
        for name in ["fetch", "register, import", "summary", "cache", "config", "categories", "completion", "help"] {
            #expect(listed.contains(name))
        }
    }

    @Test(
        "an alias runs its command under the canonical name, with the command's options and arguments",
        arguments: [
            ["import", "--dry-run", "a.csv"], ["--env", "dummy", "import", "a.csv", "--dry-run"],
            ["register", "--dry-run", "a.csv"],
        ])
    func alias(arguments: [String]) throws {
        let invocation = try #require(try parse(arguments).invocation)
        #expect(invocation.path == ["register"])
        #expect(invocation.arguments == ["a.csv"])
        #expect(invocation[RegisterCommand.dryRun])
    }

    @Test(
        "help accepts an alias wherever it accepts the name, and describes the canonical command",
        arguments: [
            (["help", "import"], ["register"]), (["import", "--help"], ["register"]),
            (["help", "register"], ["register"]),
        ])
    func aliasHelp(arguments: [String], path: [String]) throws {
        #expect(try parse(arguments).helpPath == path)
        #expect(ExpenseLogCommand.helpFormatter.help(path).contains("\nUSAGE: expense-log register "))
    }

    @Test("a usage error after an alias names the canonical command")
    func aliasUsageError() throws {
        let error = try usageError(["import"])
        #expect(error.path == ["register"])
        #expect(error.message == "Missing expected argument '<file> ...'")
        #expect(ExpenseLogCommand.helpFormatter.usageError(error).contains("See 'expense-log help register'"))
    }

    @Test("aliases of a group's subcommands resolve at every level, and help lists them after the name")
    func nestedAlias() throws {
        let leaf = CommandSpec(name: "list", aliases: ["ls", "l"], abstract: "List.")
        let group = CommandSpec(name: "cache", aliases: ["c"], abstract: "Cache.", subcommands: [leaf])
        let parser = Parser(root: CommandSpec(name: "tool", abstract: "Tool.", subcommands: [group]), globals: [])
        for words in [["cache", "list"], ["c", "ls"], ["c", "l"], ["cache", "ls"]] {
            #expect(try #require(try parser.parse(words).invocation).path == ["cache", "list"])
            #expect(try parser.parse(["help"] + words).helpPath == ["cache", "list"])
        }
        let error = try #require(throws: UsageError.self) { try parser.parse(["c", "bogus"]) }
        #expect(error.path == ["cache"])
        let help = HelpFormatter(toolName: "tool", parser: parser)
        #expect(help.help([]).contains("\n  cache, c "))
        #expect(help.help(["cache"]).contains("\n  list, ls, l "))
    }

    @Test(
        "a positional argument with choices is checked like an option's value",
        arguments: [
            (["completion"], "Missing expected argument '<shell>'"),
            (["completion", "tcsh"], "The value 'tcsh' is invalid for '<shell>': expected one of bash, zsh, fish"),
            (["completion", "bash", "zsh"], "Unexpected argument 'zsh'"),
        ])
    func choiceArgument(arguments: [String], message: String) throws {
        let error = try usageError(arguments)
        #expect(error.message == message)
        #expect(error.path == ["completion"])
    }

    @Test("a command's help shows its usage line and every option, its own and the global ones")
    func fetchHelp() throws {
        let help = ExpenseLogCommand.helpFormatter.help(["fetch"])
        #expect(help.hasPrefix("OVERVIEW: "))
        #expect(help.contains("\nUSAGE: expense-log fetch [--year <year>] [--month <month>] [--from <day-or-month>]"))
        #expect(help.contains("[--max <yen>] [--ids] [--sent-only] [<period>]\n"), "\(help)")
        let options = [
            "--year <year>", "--month <month>", "-f, --format <format>", "--offline", "--env <environment>",
            "--base-url <url>", "--timeout <seconds>", "-v, --verbose", "-q, --quiet", "--version", "-h, --help",
        ]
        for option in options { #expect(help.contains("\n  \(option)"), "\(option) missing") }
        #expect(help.contains("(default: table)"))
        // Global options once, under their own heading after the command's; examples right after the usage line.
        let global = try #require(help.range(of: "\nGLOBAL OPTIONS:\n"))
        #expect(
            help[global.upperBound...].contains("--env <environment>")
                && !help[..<global.lowerBound].contains("--env <environment>"))
        #expect(help.components(separatedBy: "--verbose").count == 2)
        let usage = try #require(help.range(of: "\nUSAGE: "))
        let examples = try #require(help.range(of: "\nEXAMPLES:\n"))
        #expect(
            usage.upperBound < examples.lowerBound
                && help[usage.upperBound..<examples.lowerBound].split(separator: "\n").count == 1)
    }

    @Test("a usage error exits 64 with Error:, the usage line and where to find help on stderr")
    func mainUsageError() async {
        let result = await runTool(["fetch", "--year", "2024", "--month", "13"])
        #expect(result.code == 64)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first?.hasPrefix("Error: The value '13' is invalid for '--month <month>'") == true)
        #expect(
            lines.dropFirst().first?.hasPrefix("Usage: expense-log fetch [--year <year>] [--month <month>]") == true)
        #expect(
            lines.last?.trimmingCharacters(in: .whitespaces) == "See 'expense-log help fetch' for more information.")
    }

    @Test("help fetch and fetch --help print the same help on stdout and exit 0")
    func mainHelp() async {
        let viaHelp = await runTool(["help", "fetch"])
        let viaFlag = await runTool(["fetch", "--help"])
        #expect(viaHelp.code == 0 && viaFlag.code == 0)
        #expect(viaHelp.stdout == viaFlag.stdout)
        #expect(viaHelp.stdout.hasPrefix("OVERVIEW: Fetch"))
        #expect(viaHelp.stderr.isEmpty)
    }

    @Test("--version prints the tool's name and version on stdout")
    func mainVersion() async {
        let result = await runTool(["--version"])
        #expect(result.code == 0)
        #expect(result.stdout.wholeMatch(of: /expense-log \d+\.\d+\.\d+\n/) != nil)
    }

    @Test("a command run in-process reaches the network only through the session the test gives it")
    func inProcessNetworkIsFaked() async throws {
        let environment = [
            "EXPENSE_LOG_ENV": "development", "EXPENSE_LOG_BASE_URL": "http://127.0.0.1:9/exec",
            "EXPENSE_LOG_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("unmocked-\(UUID())")
                .path,
        ]
        let answered = await runTool(
            Self.fetchJanuary + ["--format", "json", "--retries", "0"], environment: environment,
            session: .json(#"[{"id":"A","date":"20240105","name":"x","price":1,"category":0}]"#))
        #expect(answered.code == 0, "\(answered.stderr)")
        #expect(answered.stdout.contains("\"id\":\"A\""))
        try? FileManager.default.removeItem(atPath: environment["EXPENSE_LOG_HOME"] ?? "")
    }
}

/// The command tree is the tree of command types: every command that parses is run by the type that declared it.
@Suite struct CommandBindingTests {
    @Test func everyCommandThatParsesIsRunByTheTypeThatDeclaredIt() {
        func leaves(_ spec: CommandSpec, _ path: [String]) -> [[String]] {
            (spec.isGroup ? [] : [path]) + spec.subcommands.flatMap { leaves($0, path + [$0.name]) }
        }
        let paths = leaves(ExpenseLogCommand.root, []).filter { $0 != [] && $0 != ["help"] }
        #expect(
            paths.count == 40,
            "every command of the old table of runners, rule add|list|remove, same, recurring's five, settle and export: \(paths)"
        )
        for path in paths {
            let command = ExpenseLogCommand.command(at: path)
            #expect(
                command?.spec.name == path.last,
                "\(path.joined(separator: " ")) is run by \(String(describing: command))")
        }
        #expect(ExpenseLogCommand.command(at: ["cache", "frobnicate"]) == nil)
    }
}

/// Short flags and "did you mean", as git and swift-argument-parser offer them.
@Suite struct ParserConvenienceTests {
    @Test func shortFlagsAreTheLongOnes() throws {
        let invocation = try #require(try parse(["register", "-n", "-q", "-v", "-f", "json", "x.csv"]).invocation)
        #expect(
            invocation[RegisterCommand.dryRun] && invocation[ExpenseLogCommand.Global.quiet]
                && invocation[ExpenseLogCommand.Global.verbose])
        #expect(invocation[CommonOptions.format] == .json)
    }

    @Test(arguments: [
        (["feth"], "Unknown command 'feth'; the commands are"), (["fecth"], "Did you mean 'fetch'?"),
        (["fetch", "--moth", "1"], "Unknown option '--moth'. Did you mean '--month'?"),
        (["fetch", "--format", "jsn"], "expected one of table, json, ndjson, csv. Did you mean 'json'?"),
        (["cache", "lst"], "Did you mean 'list'?"),
        (["--no-color", "fetch"], "Unknown option '--no-color': it was removed, as the output has no colour"),
        (["add", "本", "900", "--allow-duplicates"], "Unknown option '--allow-duplicates': add no longer takes it"),
    ])
    func mistakesGetASuggestion(arguments: [String], message: String) throws {
        let error = try usageError(arguments)
        #expect(error.message.contains(message), "\(error.message)")
        if arguments == ["feth"] { #expect(error.message.hasSuffix("Did you mean 'fetch'?")) }
    }

    @Test func aWordFarFromEveryNameGetsNoGuess() throws {
        #expect(!(try usageError(["frobnicate"])).message.contains("Did you mean"))
        #expect(!(try usageError(["fetch", "--x"])).message.contains("Did you mean"))
    }
}
