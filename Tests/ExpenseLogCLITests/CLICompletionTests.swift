import ExpenseLogCLI
import ExpenseLogConfig
import ExpenseLogImport
import ExpenseLogRendering
import Foundation
import TestSupport
import Testing

/// `completion bash|zsh|fish` through the real binary; each script is also run by its shell (zsh and fish must be
/// installed under CI; .ci/run installs them).
@Suite struct CLICompletionTests {
    static let root = ExpenseLogCommand.root

    /// The script the binary prints for a shell.
    func script(_ shell: String) async throws -> String {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let result = try await CLI.run(["completion", shell], environment: Samples.environment(home: home))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        return result.stdout
    }

    /// The path of a shell on PATH, if it is installed.
    static func installed(_ shell: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(shell) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs a shell on a script file with arguments, in a folder; returns its status and output.
    static func runShell(
        _ shell: URL, _ arguments: [String], in directory: URL
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let out = directory.appendingPathComponent(".out"), err = directory.appendingPathComponent(".err")
        let process = try ChildProcess(
            shell.path, arguments,
            environment: [
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": directory.path,
            ],
            directory: directory.path, stdout: .file(out.path), stderr: .file(err.path))
        let status = process.waitBlocking()
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        return (
            status, String(decoding: try Data(contentsOf: out), as: UTF8.self),
            String(decoding: try Data(contentsOf: err), as: UTF8.self)
        )
    }

    /// What bash's completion offers for a command line whose last word is the one under the cursor, as bash would call it.
    static func bashComplete(_ script: String, _ words: [String], in folder: TemporaryDirectory) throws -> [String] {
        let file = try folder.write(".completion.bash", script)
        let bash = try #require(installed("bash"))
        let driver =
            #"source "$1" || exit 9; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _expense_log; printf '%s\n' "${COMPREPLY[@]}""#
        let result = try runShell(bash, ["--norc", "--noprofile", "-c", driver, "bash", file] + words, in: folder.url)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(words): \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix(".") }
    }

    /// The subcommands of a group, by name.
    static func subcommands(of group: String) throws -> [String] {
        try #require(root.subcommands.first { $0.name == group }).subcommands.flatMap { [$0.name] + $0.aliases }
    }

    @Test(.enabled(if: shellsToRun, shellsMissing), arguments: Shell.allCases)
    func eachScriptIsPrintedAndPassesItsShellsSyntaxCheck(shell: Shell) async throws {
        let text = try await script(shell.rawValue)
        let marker =
            switch shell {
            case .bash: "\ncomplete -F _expense_log expense-log\n"
            case .zsh: "#compdef expense-log\n"
            case .fish: "\ncomplete -c expense-log "
            }
        #expect(text.contains(marker))
        guard let binary = try Self.checkingShell(shell) else { return }
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = try folder.write("script", text)
        let check = try Self.runShell(binary, ["-n", file], in: folder.url)
        #expect(check.status == 0, "\(shell) -n: \(check.stderr)")
    }

    @Test func bashCompletesEveryCommandOfTheTree() async throws {
        let text = try await script("bash")
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let expected = Self.root.subcommands.flatMap { [$0.name] + $0.aliases }
        #expect(expected.contains("import") && expected.contains("completion"))
        #expect(try Self.bashComplete(text, ["expense-log", ""], in: folder).sorted() == expected.sorted())
        #expect(try Self.bashComplete(text, ["expense-log", "help", ""], in: folder).sorted() == expected.sorted())
        #expect(
            try Self.bashComplete(text, ["expense-log", "co"], in: folder).sorted()
                == expected.filter { $0.hasPrefix("co") }.sorted())
    }

    @Test func bashCompletesOptionsAndTheirValues() async throws {
        let text = try await script("bash")
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        func complete(_ words: String...) throws -> [String] {
            try Self.bashComplete(text, ["expense-log"] + words, in: folder).sorted()
        }

        #expect(try complete("fetch", "--f") == ["--fixtures", "--format", "--from"])
        #expect(try complete("add", "--category", "food/d") == ["food/drink"])
        #expect(try complete("fetch", "--category", "food", "--sub", "dr") == ["drink"])
        #expect(try complete("fetch", "--category", "食") == ["食費", "食費/食品", "食費/飲料", "食費/菓子", "食費/栄養補助"].sorted())
        let formats = OutputFormat.allCases.map(\.rawValue)
        #expect(formats.count == 4)
        #expect(try complete("fetch", "--format", "") == formats.sorted())
        #expect(try complete("fetch", "--year", "2024", "--format", "n") == ["ndjson"])
        // bash hands `--format=j` over as three words.
        #expect(try complete("fetch", "--format", "=", "j") == ["json"])
        #expect(try complete("--env", "") == Environment.allCases.map(\.rawValue).sorted())
        #expect(try complete("fetch", "--year", "2024", "--env", "d") == ["development", "dummy"])
        // Every option fetch accepts: its own, the global ones, --version and --help.
        let fetchOptions = try complete("fetch", "-")
        for option in [
            "--year", "--month", "--format", "--offline", "--refresh", "--sort", "--reverse", "--category", "--sub",
            "--env", "--base-url", "--timeout", "--verbose", "--version", "--help", "-h",
        ] {
            #expect(fetchOptions.contains(option), "\(option)")
        }
        #expect(try complete("fetch", "--sort", "") == ["date", "price"])
        #expect(try complete("register", "--input-format", "") == InputFormat.allCases.map(\.rawValue).sorted())
        #expect(try complete("completion", "") == Shell.allCases.map(\.rawValue).sorted())
    }

    @Test func bashCompletesSubcommandsOfGroupsAndFilePaths() async throws {
        let text = try await script("bash")
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        func complete(_ words: String...) throws -> [String] {
            try Self.bashComplete(text, ["expense-log"] + words, in: folder).sorted()
        }

        #expect(try complete("cache", "") == ["clear", "list", "path"])
        #expect(try complete("cache", "") == Self.subcommands(of: "cache").sorted())
        #expect(try complete("--env", "dummy", "cache", "") == Self.subcommands(of: "cache").sorted())
        #expect(try complete("config", "") == Self.subcommands(of: "config").sorted())
        #expect(try complete("help", "config", "") == Self.subcommands(of: "config").sorted())

        try folder.write("items.csv", "id\n")
        try folder.write("more.json", "[]\n")
        #expect(try complete("register", "") == ["items.csv", "more.json"])
        #expect(try complete("import", "--dry-run", "items.csv", "m") == ["more.json"])
        #expect(
            try complete("register", "--profile", "m").sorted() == ["moneyforward", "more.json", "mufg"],
            "a built-in profile's name, or a file")
        #expect(try complete("fetch", "--config", "i") == ["items.csv"])
    }

    @Test(.enabled(if: shellsToRun, shellsMissing), arguments: [Shell.zsh, Shell.fish])
    func zshAndFishCompleteCommandsOptionsValuesAndFiles(shell: Shell) async throws {
        let text = try await script(shell.rawValue)
        guard let binary = try Self.checkingShell(shell) else { return }
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("items.csv", "id\n")
        try folder.write("more.json", "[]\n")
        let commands = Self.root.subcommands.flatMap { [$0.name] + $0.aliases }
        let cases: [(words: [String], offered: [String])] = [
            ([""], commands),
            (["co"], commands.filter { $0.hasPrefix("co") }),
            (["fetch", "--f"], ["--fixtures", "--format", "--from"]),
            (["fetch", "--year", "2024", "--format", ""], OutputFormat.allCases.map(\.rawValue)),
            (["--env", "d"], ["development", "dummy"]),
            (["fetch", "--sort", ""], ["date", "price"]),
            (["--env", "dummy", "cache", ""], try Self.subcommands(of: "cache")),
            (["help", "config", ""], try Self.subcommands(of: "config")),
            (["completion", ""], Shell.allCases.map(\.rawValue)),
            (["register", ""], ["items.csv", "more.json"]),
            (["register", "--profile", "m"], ["moneyforward", "more.json", "mufg"]),
            (["import", "--dry-run", "items.csv", "m"], ["more.json"]),
        ]
        for (words, offered) in cases {
            let got =
                shell == .zsh
                ? try Self.zshComplete(binary, text, words, in: folder)
                : try Self.fishComplete(binary, text, words, in: folder)
            #expect(got.sorted() == offered.sorted(), "\(shell): expense-log \(words.joined(separator: " "))")
        }
    }

    @Test(arguments: [Shell.zsh, Shell.fish])
    func zshAndFishScriptsNameEveryCommandAndOption(shell: Shell) async throws {
        let text = try await script(shell.rawValue)
        let commands = Self.root.subcommands.flatMap { [$0.name] + $0.aliases } + (try Self.subcommands(of: "cache"))
        for command in commands {
            #expect(text.contains("'\(command)"), "\(command) missing from the \(shell) script")
        }
        let fetch = try #require(Self.root.subcommands.first { $0.name == "fetch" })
        for option in fetch.options + ExpenseLogCommand.globalOptions {
            // zsh spells an option with a short form as '(-f --format)'{-f,--format}'…'.
            let spelled =
                shell == .zsh
                ? (option.short == nil ? "'--\(option.name)" : ",--\(option.name)") : "-l '\(option.name)'"
            #expect(text.contains(spelled), "--\(option.name) missing from the \(shell) script")
        }
        let values = shell == .zsh ? "(table json ndjson csv)" : "-x -a 'table json ndjson csv'"
        #expect(text.contains(values))
    }

    @Test(arguments: [
        (["completion"], "Missing expected argument '<shell>'"),
        (["completion", "tcsh"], "The value 'tcsh' is invalid for '<shell>': expected one of bash, zsh, fish"),
    ])
    func aMissingOrUnknownShellIsAUsageError(arguments: [String], message: String) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let result = try await CLI.run(arguments, environment: Samples.environment(home: home))
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: \(message)\n"), "\(result.stderr)")
        #expect(result.stderr.contains("\nUsage: expense-log completion <shell>\n"))
        #expect(result.stderr.contains("See 'expense-log help completion' for more information."))
    }
}
