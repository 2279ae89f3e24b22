import ExpenseLogFormats
import ExpenseLogImport
import Foundation
import TestSupport
import Testing

/// The dummy environment: no network, fixtures bundled with the binary, from any directory.
@Suite struct CLIDummyTests {
    static let fixtureIDs = [
        "100000BF-4AAC-48A6-B316-8A533358859B", "200000BF-4AAC-48A6-B316-8A533358859B",
        "300000BF-4AAC-48A6-B316-8A533358859B", "400000BF-4AAC-48A6-B316-8A533358859B",
    ]

    @Test func smokeTestFromADirectoryOutsideTheRepository() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        let table = try await CLI.run(["fetch", "--year", "2024", "--month", "1"], environment: env, in: home.url)
        #expect(table.status == 0, "\(table.stderr)")
        for name in ["コーヒー", "紅茶", "コーラ", "ラーメン", "2,078", "4 items"] { #expect(table.stdout.contains(name)) }

        let json = try await CLI.run(
            ["fetch", "--year", "2024", "--month", "1", "--format", "json"], environment: env, in: home.url)
        #expect(
            try ItemCodec.items(Data(json.stdout.utf8)).map(\.id) == [1, 2, 3, 0].map { Self.fixtureIDs[$0] }, "by date"
        )

        let items = try home.write(
            "new.json", "[{\"date\":\"20240123\",\"name\":\"お茶\",\"price\":150,\"category\":0,\"categorySub\":1}]")
        let register = try await CLI.run(["register", items, "--format", "ndjson"], environment: env, in: home.url)
        #expect(register.status == 0)
        #expect(register.stdout.contains("444444BF-4AAC-48A6-B316-8A533358859B"))
        #expect(register.stdout.contains("555555BF-4AAC-48A6-B316-8A533358859B"))
        #expect(
            register.stderr.contains("The dummy environment answers every POST with its fixture (register.json)"),
            "\(register.stderr)")
        // Dummy data lives in its own cache, never mixed with a real environment's.
        #expect(
            FileManager.default.fileExists(
                atPath: home.url.appendingPathComponent("expense-log/cache/dummy/2024-02.json").path))
        #expect(
            !FileManager.default.fileExists(atPath: home.url.appendingPathComponent("expense-log/cache/release").path))
    }

    @Test func aMonthCachesOnlyItsOwnItems() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        let may = try await CLI.run(
            ["fetch", "--year", "2025", "--month", "5", "--format", "ndjson"], environment: env)
        #expect(may.status == 0)
        #expect(may.stdout.split(separator: "\n").count == 4)
        #expect(may.stderr.contains("4 of the 4 items the server returned are dated outside 2025-05"))
        let offline = try await CLI.run(
            ["fetch", "--year", "2025", "--month", "5", "--offline", "--format", "ndjson"], environment: env)
        #expect(offline.status == 0 && offline.stdout.isEmpty)
    }

    @Test func customFixturesFolderAndAMissingFixture() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try home.write(
            "fetch.json",
            "[{\"id\":\"X\",\"date\":\"20250505\",\"name\":\"柏餅\",\"price\":300,\"category\":0,\"categorySub\":2}]")
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        let custom = try await CLI.run(
            ["fetch", "--year", "2025", "--month", "5", "--fixtures", home.url.path, "--format", "csv"],
            environment: env)
        #expect(custom.status == 0)
        #expect(custom.stdout == "id,date,name,price,category,categorySub\nX,20250505,柏餅,300,0,2\n")

        let items = try home.write("one.csv", Samples.csv(rows: 1))
        let missing = try await CLI.run(
            ["register", items], environment: env.merging(["EXPENSE_LOG_FIXTURES": home.url.path]) { _, new in new })
        #expect(missing.status == 66)
        #expect(missing.stderr.contains(home.url.appendingPathComponent("register.json").path))
        #expect(missing.stderr.contains("no such file"))
    }

    @Test func installedLayoutFindsItsFixturesFromAnyDirectory() async throws {
        let prefix = try TemporaryDirectory()
        defer { prefix.remove() }
        // `make install` copies with this same rule; here from the debug build, so the test needs no release build.
        let make = try ChildProcess(
            "/usr/bin/env",
            [
                "make", "-s", "-C", CLI.packageRoot.path, "install-files",
                "PREFIX=\(prefix.url.path)", "BIN=\(try CLI.binary().path)",
            ], stdout: .null)
        #expect(await make.wait() == 0)
        let installed = prefix.url.appendingPathComponent("bin/expense-log")
        let result = try await CLI.run(
            ["--env", "dummy", "fetch", "--year", "2024", "--month", "1", "--format", "ndjson"],
            environment: Samples.environment(home: prefix), in: URL(fileURLWithPath: "/"), binary: installed)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 4)
        // The manual page, generated from the same declarations as the help, beside it where `man` looks.
        let page = try String(
            contentsOf: prefix.url.appendingPathComponent("share/man/man1/expense-log.1"), encoding: .utf8)
        #expect(page.hasPrefix(".TH EXPENSE-LOG 1 "))
        for command in ["fetch", "add", "register", "sync", "pending drop", "server check", "config set\\-token"] {
            #expect(page.contains(".SS \(command)"), "\(command) has its section")
        }
        #expect(page.contains("\\fB\\-\\-batch\\-size\\fR") && page.contains(".B 77\nHTTP 401 or 403"))
    }

    /// groff renders the manual page as `man` does, with every warning on: any is a fault of the generated roff.
    @Test(
        .enabled(
            if: CLICompletionTests.installed("groff") != nil || ProcessInfo.processInfo.environment["CI"] == "true",
            "groff, which renders manual pages, is not installed: make test-deps installs it"))
    func theManualPageRendersWithoutAWarning() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let generated = try await CLI.run(["--generate-manual"], environment: Samples.environment(home: home))
        #expect(generated.status == 0 && generated.stderr.isEmpty, "\(generated.stderr)")
        let page = try home.write("expense-log.1", generated.stdout)
        let groff = try #require(
            CLICompletionTests.installed("groff"), "groff is not installed: make test-deps installs it")
        let rendered = try await CLI.run(
            ["-K", "utf8", "-man", "-Tutf8", "-P-cbou", "-ww", page], environment: Samples.environment(home: home),
            binary: groff)
        #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
        #expect(rendered.stdout.contains("家計簿") && rendered.stdout.contains("EXIT STATUS"))
    }
}

extension CLIDummyTests {
    @Test func editAndDeleteWorkOnTheFixturesWithoutANetwork() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        #expect(try await CLI.run(["fetch", "2024-01"], environment: env).status == 0)
        let edited = try await CLI.run(
            ["edit", Self.fixtureIDs[0], "--price", "150", "--date", "2024-02-01"], environment: env)
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(
            edited.stderr.contains(
                "Changed: 2024-02-01 コーヒー ¥150 (Food/Drink) (was 2024-01-22 コーヒー ¥178 (Food/Drink))."),
            "\(edited.stderr)")
        let deleted = try await CLI.run(["delete", "--yes", Self.fixtureIDs[1]], environment: env)
        #expect(deleted.status == 0 && deleted.stderr.contains("Deleted: 2024-01-10 紅茶 ¥200"), "\(deleted.stderr)")
        let january = try await CLI.run(["fetch", "2024-01", "--offline", "--format", "json"], environment: env)
        #expect(try ItemCodec.items(Data(january.stdout.utf8)).map(\.id) == Array(Self.fixtureIDs.dropFirst(2)))
        let refund = try await CLI.run(["edit", Self.fixtureIDs[2], "--price", "-300"], environment: env)
        #expect(
            refund.status == 0 && refund.stderr.contains(" -¥300 ("),
            "a refund reads as in the report: \(refund.stderr)")
        let february = try await CLI.run(["fetch", "2024-02", "--offline", "--format", "json"], environment: env)
        #expect(try ItemCodec.items(Data(february.stdout.utf8)).map(\.price) == [150])
        // An id the fixtures lack is the script's not-found: the change is dropped, said so, 65.
        let cached = home.url.appendingPathComponent("expense-log/cache/dummy/2024-03.json")
        try Data(
            #"{"month":"2024-03","fetchedAt":null,"items":[{"id":"ELSEWHERE","date":"20240301","name":"本","price":900,"category":1,"categorySub":null}]}"#
                .utf8
        ).write(to: cached)
        let gone = try await CLI.run(["edit", "ELSEWHERE", "--price", "800"], environment: env)
        #expect(
            gone.status == 65 && gone.stderr.contains("The server no longer has ELSEWHERE in 2024-03"),
            "\(gone.stderr)\(gone.stdout)")
    }
}
