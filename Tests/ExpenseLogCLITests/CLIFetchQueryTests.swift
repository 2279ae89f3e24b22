import ExpenseLogFormats
import Foundation
import Testing

/// `fetch --sort --reverse --category --sub` through the real binary: they shape what is printed, never what is cached.
@Suite struct CLIFetchQueryTests {
    /// The dummy fixture's ids by their first digit: 1 coffee 178 (01-22), 2 tea 200 (01-10), 3 cola 200 (01-12),
    /// 4 ramen 1,500 (01-15, Grocery); all category 0, sub 1 except the ramen's 0.
    static func fixture(_ digits: String) -> [String] {
        digits.map { "\($0)00000BF-4AAC-48A6-B316-8A533358859B" }
    }

    static let january = ["fetch", "--year", "2024", "--month", "1"]

    /// The ids a run printed as NDJSON, in order.
    static func ids(_ result: CLIResult) throws -> [String] {
        try result.stdout.split(separator: "\n").map { try ItemCodec.items(Data("[\($0)]".utf8))[0].id }
    }

    @Test(arguments: [
        (["--sort", "price"], "1234"),  // 2 and 3 cost the same: the server's order decides
        (["--sort", "date"], "2341"),
        ([], "2341"),  // by date unless asked otherwise
        (["--reverse"], "1432"),
        (["--sort", "date", "--reverse"], "1432"),
        (["--sort", "price", "--reverse"], "4321"),
        (["--category", "0", "--sub", "1"], "231"),
        (["--category", "0", "--sub", "0", "--sort", "price"], "4"),
        (["--category", "1"], ""),
        (["--category", "0", "--sub", "1", "--sort", "date", "--reverse"], "132"),
    ])
    func printsInTheAskedOrderOnlyTheAskedItems(options: [String], expected: String) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        let result = try await CLI.run(Self.january + ["--format", "ndjson"] + options, environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.ids(result) == Self.fixture(expected))
    }

    @Test func theTableTotalsThePrintedRowsAndTheCacheKeepsTheWholeMonth() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        let table = try await CLI.run(
            Self.january + ["--category", "0", "--sub", "1", "--sort", "price"], environment: env)
        #expect(table.status == 0, "\(table.stderr)")
        let rows = table.stdout.split(separator: "\n").map(String.init)
        #expect(rows.count == 6, "heading, three rows, rule, total: \(table.stdout)")
        #expect(rows[1].contains("コーヒー") && rows[2].contains("紅茶") && rows[3].contains("コーラ"))
        #expect(!table.stdout.contains("ラーメン"))
        #expect(
            rows.last?.hasPrefix("TOTAL") == true && rows.last?.contains("3 items") == true
                && rows.last?.hasSuffix(" 578") == true)

        // The filtered fetch cached all four items; --offline prints them through the same query.
        let offline = try await CLI.run(Self.january + ["--offline", "--format", "ndjson"], environment: env)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(try Self.ids(offline) == Self.fixture("2341"))
        let offlineQuery = try await CLI.run(
            Self.january + ["--offline", "--format", "ndjson", "--sub", "0", "--category", "0"],
            environment: env)
        #expect(try Self.ids(offlineQuery) == Self.fixture("4"))
        let list = try await CLI.run(["cache", "list"], environment: env)
        #expect(list.stdout.contains("2,078"))
    }

    @Test func theCachedCopyServedAfterANetworkFailureIsQueriedToo() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // A filtered fetch from the server, which then goes away.
        let (env, gone) = try await withServerGoingDown { server in
            try await server.seed(Samples.seed)
            let env = Samples.environment(home: home, server: server)
            let fetched = try await CLI.run(Self.january + ["--category", "1", "--format", "ndjson"], environment: env)
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(try Self.ids(fetched) == ["A3"])
            return env
        }
        defer { gone.stop() }
        let fallback = try await CLI.run(
            Self.january + ["--retries", "0", "--format", "ndjson", "--sort", "price", "--reverse"],
            environment: env)
        #expect(fallback.status == 0, "\(fallback.stderr)")
        #expect(fallback.stderr.contains("Showing 2024-01 as fetched"))
        #expect(try Self.ids(fallback) == ["A3", "A2", "A1"])
    }

    @Test func subWithoutCategoryIsAUsageError() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let result = try await CLI.run(
            Self.january + ["--sub", "1"],
            environment: Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"]))
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: --sub needs --category"))
        #expect(result.stderr.contains("\nUsage: expense-log fetch "))
        #expect(result.stderr.contains("See 'expense-log help fetch' for more information."))
        // Nothing was fetched or cached.
        #expect(
            !FileManager.default.fileExists(
                atPath: home.url.appendingPathComponent("expense-log/cache/dummy/2024-01.json").path))
    }
}
