import Foundation
import Testing

/// Help, usage errors, configuration errors and the small commands, through the real binary.
@Suite struct CLIUsageTests {
    func run(_ arguments: [String], _ extra: [String: String] = [:]) async throws -> CLIResult {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        return try await CLI.run(arguments, environment: Samples.environment(home: home, extra))
    }

    @Test(arguments: [
        (["fetch", "--year", "2024", "--month", "13"], "The value '13' is invalid for '--month <month>'", "fetch"),
        (["fetch", "--year", "24", "--month", "1"], "The value '24' is invalid for '--year <year>'", "fetch"),
        (["fetch", "2024-13"], "'2024-13' is not a month (2024-01, 2024年1月, 10月, 先月) or a year (2024, 今年)", "fetch"),
        (
            ["fetch", "2024-01", "--year", "2024"], "Give the period as '2024-01' or with --year/--month, not both",
            "fetch"
        ),
        (["fetch", "--to", "2024-01"], "--to needs --from", "fetch"),
        (
            ["fetch", "--from", "2004-01", "--to", "2024-01"], "spans 241 months; a range is at most 120 (ten years)",
            "fetch"
        ),
        (
            ["fetch", "--from", "2024-03", "--to", "2024-01"],
            "--from 2024-03 --to 2024-01 runs backwards: the range starts after it ends", "fetch"
        ),
        (["fetch", "--from", "2024-02-30"], "--from 2024-02-30 is no day: 2024-02 has days 1 to 29", "fetch"),
        (
            ["summary", "--from", "２０２３－０２－２９", "--to", "2023-03"],
            "--from ２０２３－０２－２９ is no day: 2023-02 has days 1 to 28", "summary"
        ),
        (["fetch", "--from", "2024/13/1"], "--from 2024/13/1 is no day: a year has months 1 to 12", "fetch"),
        (["fetch", "--from", "yesterdy"], "--from 'yesterdy' is not a day. Did you mean 'yesterday'?", "fetch"),
        (["fetch", "--year", "2024", "--month", "1", "--colour"], "Unknown option '--colour'", "fetch"),
        (
            ["fetch", "--year", "2024", "--month", "1", "--format", "xml"], "expected one of table, json, ndjson, csv",
            "fetch"
        ),
        (["fecth"], "Unknown command 'fecth'", "<command>"),
        (["register"], "Missing expected argument '<file> ...'", "register"),
        (["cache"], "Missing subcommand", "cache"),
        (["register", "--batch-size", "0", "x.csv"], "expected a whole number from 1 to 10000", "register"),
        (["fetch", "--year", "+024", "--month", "1"], "The value '+024' is invalid for '--year <year>'", "fetch"),
        (["fetch", "--year", "2024", "--month", "1", "--timeout", "1e300"], "at most 86400", "fetch"),
        (
            ["fetch", "--year", "2024", "--month", "1", "--env", "staging"],
            "The value 'staging' is invalid for '--env <environment>'", "fetch"
        ),
    ])
    func usageErrorsExit64WithUsageOnStderr(arguments: [String], message: String, command: String) async throws {
        let result = try await run(arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: "))
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.contains("\nUsage: expense-log"))
        #expect(result.stderr.contains("See 'expense-log help \(command)' for more information."))
    }

    @Test func helpAndVersion() async throws {
        let root = try await run(["--help"])
        #expect(root.status == 0)
        for section in ["OVERVIEW:", "USAGE: expense-log", "OPTIONS:", "SUBCOMMANDS:"] {
            #expect(root.stdout.contains(section))
        }
        for command in [
            "fetch", "register, import", "sync", "pending", "summary", "cache", "config", "categories", "completion",
            "help",
        ] {
            #expect(root.stdout.contains("\n  \(command) "))
        }
        for command in [
            ["fetch"], ["register"], ["sync"], ["pending"], ["config", "set-token"], ["config", "clear-token"],
        ] {
            let help = try await run(command + ["--help"])
            #expect(help.status == 0 && help.stdout.contains("USAGE: expense-log \(command.joined(separator: " "))"))
            #expect(!help.stdout.contains("\\"), "no stray line-continuation backslash in \(command) help")
        }
        let viaHelp = try await run(["help", "fetch"])
        let viaFlag = try await run(["fetch", "--help"])
        #expect(viaHelp.stdout == viaFlag.stdout)
        #expect(try await run(["help", "fetch", "--env", "dummy"]).stdout == viaFlag.stdout)
        #expect(viaHelp.stdout.contains("USAGE: expense-log fetch [--year <year>] [--month <month>]"))
        #expect(try await run(["help", "cache", "list"]).stdout.contains("USAGE: expense-log cache list"))
        let version = try await run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("expense-log "))
    }

    @Test func importIsAnAliasOfRegister() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("items.csv", Samples.csv(rows: 3))
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        let viaAlias = try await CLI.run(["import", "--dry-run", file, "--format", "csv"], environment: env)
        let viaName = try await CLI.run(["register", "--dry-run", file, "--format", "csv"], environment: env)
        #expect(viaAlias.status == 0, "\(viaAlias.stderr)")
        #expect(viaAlias.stdout.split(separator: "\n").count == 4, "a header and the three items")
        #expect(viaAlias.stdout.contains("\nC1,20240302,C item 1,10,0,1\n"))
        #expect(viaAlias.stderr.contains("Dry run: 3 items would be sent"))
        #expect(viaAlias.stdout == viaName.stdout && viaAlias.stderr == viaName.stderr)

        let help = try await run(["help", "import"])
        let registerHelp = try await run(["register", "--help"])
        #expect(help.status == 0 && help.stdout == registerHelp.stdout)
        // The record of every row is `--record`; `--report`, its old name (a report is the HTML page), still works
        // for scripts but is no longer shown.
        #expect(registerHelp.stdout.contains("--record <file>") && !registerHelp.stdout.contains("--report <file>"))
        for both in [["--record", "a.json", "--report", "b.json"], ["--report", "b.json", "--record", "a.json"]] {
            let twice = try await run(["register", "--dry-run", "x.csv"] + both)
            #expect(twice.status == 64 && twice.stderr.contains("give one of them"), "\(twice.stderr)")
        }
        let missing = try await run(["import"])
        #expect(missing.status == 64)
        #expect(
            missing.stderr.contains("Usage: expense-log register")
                && missing.stderr.contains("See 'expense-log help register'"))
    }

    @Test func globalOptionsAreAcceptedBeforeAndAfterTheCommand() async throws {
        let before = try await run([
            "--env", "dummy", "--quiet", "fetch", "--year", "2024", "--month", "1", "--format", "csv",
        ])
        let after = try await run(["fetch", "--year=2024", "--month=1", "--format=csv", "--env=dummy", "--quiet"])
        #expect(before.status == 0 && after.status == 0)
        #expect(before.stdout == after.stdout)
        #expect(before.stdout.hasPrefix("id,date,name,price,category,categorySub\n"))
    }

    @Test func releaseWithoutABaseURLExits78AndPointsAtDummy() async throws {
        let result = try await run(["fetch", "--year", "2024", "--month", "1"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("--base-url"))
        #expect(result.stderr.contains("EXPENSE_LOG_BASE_URL"))
        #expect(result.stderr.contains("--env dummy"))
    }

    @Test(arguments: [
        (["--base-url", "http://example.com/exec"], "plain http://"),
        (["--base-url", "not a url"], "not an absolute http:// or https:// URL"),
        (["--config", "/nonexistent/config.json"], "does not exist"),
    ])
    func badConfigurationExits78(arguments: [String], message: String) async throws {
        let result = try await run(["fetch", "--year", "2024", "--month", "1"] + arguments)
        #expect(result.status == 78)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func aBadConfigFileNamesTheFileAndTheKey() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("config.json", "{\"enviroment\": \"dummy\"}")
        let result = try await CLI.run(
            ["config", "show", "--config", file], environment: Samples.environment(home: home))
        #expect(result.status == 78)
        #expect(result.stderr.contains(file) && result.stderr.contains("unknown key 'enviroment'"))
        let badName = try home.write("env.json", "{\"environment\": \"stagin\"}")
        let named = try await CLI.run(
            ["config", "show", "--config", badName], environment: Samples.environment(home: home))
        #expect(named.status == 78)
        #expect(named.stderr.contains("unknown environment 'stagin' (from config file \(badName))"))
    }

    @Test func anUnwritableCacheExits74WithThePath() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // A regular file where the cache folder should be: no mode bits help here, even as root.
        let blocker = try home.write("expense-log", "not a folder")
        let result = try await CLI.run(
            ["--env", "dummy", "fetch", "--year", "2024", "--month", "1"], environment: Samples.environment(home: home))
        #expect(result.status == 74)
        #expect(result.stderr.contains(blocker))
        // The answer is printed all the same: a disk problem never hides what the server said.
        #expect(result.stdout.contains("TOTAL       4 items   2,078"), "\(result.stdout)")
        #expect(result.stderr.contains("2024-01 was fetched and printed, but not cached"))
    }

    @Test func cacheConfigAndCategoriesCommands() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        let cacheDir = home.url.appendingPathComponent("expense-log/cache/dummy").path
        #expect(try await CLI.run(["cache", "path"], environment: env).stdout == cacheDir + "\n")
        #expect(
            try await CLI.run(["config", "path"], environment: env).stdout
                == home.url.appendingPathComponent("expense-log/config/config.json").path + "\n")
        #expect(try await CLI.run(["fetch", "--year", "2024", "--month", "1"], environment: env).status == 0)
        let list = try await CLI.run(["cache", "list"], environment: env)
        #expect(list.stdout.contains("2024-01") && list.stdout.contains("2,078"))
        let clear = try await CLI.run(["cache", "clear"], environment: env)
        #expect(clear.status == 0 && clear.stderr.contains("Removed 1 cached month"))
        #expect(try await CLI.run(["cache", "list"], environment: env).stdout.isEmpty)

        let show = try await CLI.run(["config", "show"], environment: env)
        let environmentRow = show.stdout.split(separator: "\n").first { $0.hasPrefix("environment ") }
        #expect(environmentRow?.split(separator: " ").map(String.init) == ["environment", "dummy", "EXPENSE_LOG_ENV"])
        #expect(show.stdout.contains("\nserver-time-zone ") && show.stdout.contains(" Asia/Tokyo "))
        let categories = try await CLI.run(
            ["categories"], environment: env.merging(["LANG": "ja_JP.UTF-8"]) { _, new in new })
        for name in ["食費", "娯楽費", "栄養補助", "交通費"] { #expect(categories.stdout.contains(name)) }
    }
}
