import ExpenseLogFormats
import ExpenseLogModel
import Foundation
import Testing

/// `summary` and the cache: months cached whole are not fetched again, failures fall back or are named, exit codes.
@Suite struct CLISummaryCacheTests {
    func seededServer(_ home: TemporaryDirectory) throws -> [String] {
        ["--seed", try home.write("seed.json", ItemJSON.array(SummarySamples.items))]
    }

    @Test func aSecondRunAsksTheServerAgainAndCountsWhatAnotherDeviceAdded() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(try seededServer(home)) { server in
            let env = Samples.environment(home: home, server: server)
            let first = try await CLI.run(["summary", "--year", "2024", "--format", "json"], environment: env)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(!first.stderr.contains("came from the cache"))
            #expect(try await server.requests().count == 12)

            // Another device (the iOS app, a second shell) adds an item to March.
            try await server.seed([
                Item(
                    id: "OTHER-DEVICE", date: try #require(Day(year: 2024, month: 3, day: 9)), name: "パン",
                    price: 480, category: 0, categorySub: 0)
            ])
            let second = try await CLI.run(["summary", "--year", "2024", "--format", "json"], environment: env)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(try await server.requests().count == 24, "every month is asked for again")
            let before = try SummaryDocument(first.stdout), after = try SummaryDocument(second.stdout)
            #expect(after.total == before.total + 480, "the new item is counted")
            #expect(after.count == before.count + 1)
            #expect(after.sources.allSatisfy { $0.source == "server" })
            #expect(!second.stderr.contains("came from the cache"))

            let offline = try await CLI.run(["summary", "--year", "2024", "--offline"], environment: env)
            #expect(offline.status == 0)
            #expect(try await server.requests().count == 24, "--offline asks nothing")
            let all = (1...12).map { String(format: "2024-%02d", $0) }.joined(separator: ", ")
            #expect(offline.stderr.contains("\(all) came from the cache, the oldest fetched "), "\(offline.stderr)")
            #expect(offline.stderr.contains(" ago (20"))

            let quiet = try await CLI.run(["summary", "--year", "2024", "--month", "3", "--quiet"], environment: env)
            #expect(quiet.status == 0 && quiet.stderr.isEmpty)
        }
    }

    @Test func aFetchedMonthIsCachedAsFetchCachesIt() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(try seededServer(home)) { server in
            let env = Samples.environment(home: home, server: server)
            #expect(try await CLI.run(["summary", "--year", "2024", "--month", "2"], environment: env).status == 0)
            let offline = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "2", "--offline", "--format", "json"], environment: env)
            #expect(offline.status == 0)
            #expect(try ItemCodec.items(Data(offline.stdout.utf8)).map(\.id) == ["F1", "F2", "F3"])
            #expect(!offline.stderr.contains("never fetched whole"))
        }
    }

    @Test func offlineSummarisesTheCachedMonthsAndNamesTheOthers() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let (env, gone) = try await withServerGoingDown(try seededServer(home)) { server in
            let env = Samples.environment(home: home, server: server)
            let january = try await CLI.run(["summary", "--year", "2024", "--month", "1"], environment: env)
            #expect(january.status == 0)
            return env
        }
        defer { gone.stop() }
        // The server is gone; --offline never tries it.
        let result = try await CLI.run(
            ["summary", "--year", "2024", "--offline", "--format", "json"], environment: env)
        #expect(result.status == 69)
        let doc = try SummaryDocument(result.stdout)
        #expect(doc.total == 3478 && doc.count == 3)
        #expect(doc.sources.first?.source == "cache" && doc.sources.first?.complete == true)
        #expect(doc.sources.dropFirst().allSatisfy { $0.source == "missing" })
        #expect(try #require(doc.months)[1].total == nil, "a missing month's total is unknown, not 0")
        let others = (2...12).map { String(format: "2024-%02d", $0) }.joined(separator: ", ")
        #expect(
            result.stderr.contains(
                "warning: \(others) are missing from the summary: not cached for the development environment"))
        #expect(result.stderr.contains("run without --offline"))

        let none = try await CLI.run(["summary", "--year", "2023", "--month", "5", "--offline"], environment: env)
        #expect(none.status == 69)
        #expect(none.stdout.isEmpty, "nothing to summarise")
        #expect(none.stderr.contains("2023-05 is missing from the summary"))
    }

    @Test func aServerThatStopsAnsweringLeavesTheRestSummarisedAndExits69() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let items = try home.write(
            "march.json", ItemJSON.array([Samples.item("R1", "20240325", "傘", 700, category: 1, sub: 2)]))
        try await withServer(try seededServer(home)) { server in
            let env = Samples.environment(home: home, server: server)
            let january = try await CLI.run(["summary", "--year", "2024", "--month", "1"], environment: env)
            let february = try await CLI.run(["summary", "--year", "2024", "--month", "2"], environment: env)
            // March is known only from an item registered from here: cached, but not whole (register's comparing GET failed).
            try await server.addFaults("[{\"status\": 503, \"method\": \"GET\"}]")
            let march = try await CLI.run(["register", items, "--retries", "0"], environment: env)
            #expect([january.status, february.status, march.status] == [0, 0, 0])

            // The same server now drops every connection: the cache of that server is all there is.
            try await server.addFaults("[{\"kind\": \"drop\", \"count\": -1}]")
            let result = try await CLI.run(
                ["summary", "--year", "2024", "--retries", "0", "--format", "json"], environment: env)
            #expect(result.status == 69)
            let doc = try SummaryDocument(result.stdout)
            // January 3,478 + February 450 (cached whole) + March's registered 700 = 4,628 in 3 + 3 + 1 = 7 items: each
            // month was asked for first (network-first), and each fell back to its cached copy.
            #expect(doc.total == 4628 && doc.count == 7)
            let lost = "the connection was closed before the whole answer arrived"
            #expect(doc.sources.prefix(3).map(\.source) == ["cache", "cache", "cache"])
            #expect(doc.sources.prefix(3).allSatisfy { $0.error?.contains(lost) == true })
            #expect(doc.sources.prefix(3).map(\.complete) == [true, true, false])
            #expect(doc.sources.dropFirst(3).allSatisfy { $0.source == "missing" && $0.error?.contains(lost) == true })

            let url = server.base
            #expect(result.stderr.contains("could not reach \(url)?year=2024&month=1: \(lost)"))
            #expect(
                result.stderr.contains(
                    "2024-01, 2024-02, 2024-03 could not be fetched; the cached copies are used instead"))
            #expect(
                result.stderr.contains(
                    "2024-03 was never fetched whole; only the items registered from here are counted"))
            let missing = (4...12).map { String(format: "2024-%02d", $0) }.joined(separator: ", ")
            #expect(
                result.stderr.contains(
                    "warning: \(missing) are missing from the summary: could not reach \(url)?year=2024&month="))
            #expect(result.stderr.contains("2024-01, 2024-02, 2024-03 came from the cache"))

            let table = try await CLI.run(["summary", "--year", "2024", "--retries", "0"], environment: env)
            #expect(table.status == 69)
            #expect(table.stdout.contains("\n2024-04                (missing)\n"))
            #expect(table.stdout.contains("\nTOTAL        7  4,628\n"))

            // Another server (a new deployment, a typo) never gets this server's months.
            let other = env.merging(["EXPENSE_LOG_BASE_URL": url.replacingOccurrences(of: "/exec", with: "/other/exec")]
            ) { _, new in new }
            let elsewhere = try await CLI.run(
                ["summary", "--year", "2024", "--month", "1", "--offline"], environment: other)
            #expect(elsewhere.status == 69)
            #expect(elsewhere.stdout.isEmpty)
            #expect(elsewhere.stderr.contains("2024-01 is missing from the summary"))
        }
    }

    @Test(arguments: [
        ("{\"status\": 401, \"count\": -1}", Int32(77)), ("{\"status\": 404, \"count\": -1}", 69),
        ("{\"kind\": \"html\", \"count\": -1}", 76),
    ])
    func anErrorWaitingCannotFixStopsTheCommand(fault: String, code: Int32) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(try seededServer(home)) { server in
            let env = Samples.environment(home: home, server: server)
            #expect(try await CLI.run(["summary", "--year", "2024", "--month", "1"], environment: env).status == 0)
            try await server.addFaults("[\(fault)]")
            // January is cached whole, but the other months' error is not hidden behind it, nor summarised around.
            let result = try await CLI.run(["summary", "--year", "2024"], environment: env)
            #expect(result.status == code, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("Error: ") || result.stderr.contains("\nError: "))
        }
    }

    @Test func a503AfterTheRetriesFallsBackToTheCacheOnlyForCachedMonths() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let items = try home.write(
            "april.json", ItemJSON.array([Samples.item("R2", "20240410", "電池", 300, category: 1, sub: 2)]))
        try await withServer(try seededServer(home)) { server in
            let env = Samples.environment(home: home, server: server)
            // April is known only from an item registered from here: register's comparing GET failed, so it is not whole.
            try await server.addFaults("[{\"status\": 503, \"method\": \"GET\"}]")
            #expect(try await CLI.run(["register", items, "--retries", "0"], environment: env).status == 0)
            try await server.addFaults(
                "[{\"status\": 503, \"count\": -1, \"method\": \"GET\", \"headers\": {\"Retry-After\": \"0\"}}]")
            let before = try await server.requests().filter { $0.method == "GET" }.count
            let result = try await CLI.run(
                ["summary", "--year", "2024", "--month", "4", "--retries", "1", "--format", "json"], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let doc = try SummaryDocument(result.stdout)
            #expect(doc.total == 300 && doc.sources.first?.source == "cache")
            #expect(result.stderr.contains("answered HTTP 503"))
            // Retried once: two GETs.
            #expect(try await server.requests().filter { $0.method == "GET" }.count == before + 2)

            let notCached = try await CLI.run(
                ["summary", "--year", "2024", "--month", "5", "--retries", "0"], environment: env)
            #expect(notCached.status == 69)
            #expect(notCached.stdout.isEmpty)
            #expect(notCached.stderr.contains("2024-05 is missing from the summary"))
        }
    }
}
