import ExpenseLogFormats
import Foundation
import Testing

/// `fetch` when the server is down or failing: the cached copy with a warning, or 69 naming the URL and the cause.
@Suite struct CLIOfflineFetchTests {
    /// Fetches January with the seed into the cache, then takes the server down (refusing connections at the same
    /// URL); returns the variables of that user and the server, to stop when the test ends.
    func cachedJanuary(_ home: TemporaryDirectory) async throws -> ([String: String], ReferenceServer) {
        try await withServerGoingDown { server in
            try await server.seed(Samples.seed)
            let env = Samples.environment(home: home, server: server)
            let fetched = try await CLI.run(["fetch", "--year", "2024", "--month", "1"], environment: env)
            #expect(fetched.status == 0, "\(fetched.stderr)")
            return env
        }
    }

    @Test func aRefusedConnectionServesTheCachedMonthWithItsFetchTime() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let (env, gone) = try await cachedJanuary(home)
        defer { gone.stop() }
        let result = try await CLI.run(
            ["fetch", "--year", "2024", "--month", "1", "--format", "ndjson", "--retries", "0"],
            environment: env)
        #expect(result.status == 0)
        #expect(result.stdout == Samples.seed.prefix(3).map { ItemJSON.object($0) + "\n" }.joined())
        #expect(
            result.stderr.contains(
                "warning: could not reach \(env["EXPENSE_LOG_BASE_URL"]!)?year=2024&month=1: connection refused"))
        #expect(result.stderr.contains("Showing 2024-01 as fetched"))
        #expect(result.stderr.contains(" ago ("), "how old the copy is")
    }

    @Test func aMonthThatIsNotCachedExits69NamingTheURLAndTheCause() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let (env, gone) = try await cachedJanuary(home)
        defer { gone.stop() }
        let result = try await CLI.run(["fetch", "--year", "2024", "--month", "2", "--retries", "0"], environment: env)
        #expect(result.status == 69)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("\(env["EXPENSE_LOG_BASE_URL"]!)?year=2024&month=2: connection refused"))
    }

    @Test func refreshNeverFallsBackAndOfflineWithRefreshIsAUsageError() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let (env, gone) = try await cachedJanuary(home)
        defer { gone.stop() }
        let refresh = try await CLI.run(
            ["fetch", "--year", "2024", "--month", "1", "--refresh", "--retries", "0"], environment: env)
        #expect(refresh.status == 69)
        #expect(refresh.stdout.isEmpty)
        #expect(refresh.stderr.contains("connection refused"))

        let both = try await CLI.run(
            ["fetch", "--year", "2024", "--month", "1", "--refresh", "--offline"], environment: env)
        #expect(both.status == 64)
        #expect(both.stderr.contains("--offline and --refresh cannot be used together"))
    }

    @Test(arguments: [500, 502, 503, 504, 429])
    func a5xxOr429AfterTheRetriesServesTheCache(status: Int) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed(Samples.seed)
            let env = Samples.environment(home: home, server: server)
            #expect(try await CLI.run(["fetch", "--year", "2024", "--month", "1"], environment: env).status == 0)
            // Retry-After: 0, so the one retry costs no back-off (500 is not retried at all).
            try await server.addFaults(
                "[{\"status\": \(status), \"count\": -1, \"headers\": {\"Retry-After\": \"0\"}}]")
            let result = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--format", "json", "--retries", "1"],
                environment: env)
            #expect(result.status == 0)
            #expect(try ItemCodec.items(Data(result.stdout.utf8)) == Array(Samples.seed.prefix(3)))
            #expect(result.stderr.contains("answered HTTP \(status)"))
            // 500 is not in the retry list; the others are retried once.
            let gets = try await server.requests().filter { $0.method == "GET" }.count
            #expect(gets == (status == 500 ? 2 : 3))
        }
    }

    @Test(arguments: [(401, Int32(77)), (404, 69)])
    func aClientErrorIsNotHiddenBehindTheCache(status: Int, code: Int32) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            #expect(try await CLI.run(["fetch", "--year", "2024", "--month", "1"], environment: env).status == 0)
            try await server.addFaults("[{\"status\": \(status)}]")
            let result = try await CLI.run(["fetch", "--year", "2024", "--month", "1"], environment: env)
            #expect(result.status == code)
            #expect(!result.stderr.contains("Showing"))
        }
    }

    @Test func aCorruptCacheFileIsReportedMovedAsideAndFetchedAgain() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let (env, gone) = try await cachedJanuary(home)
        defer { gone.stop() }
        let file = try Samples.cacheFolder(home: home, env).appendingPathComponent("2024-01.json")
        try Data("{\"month\":\"2024-01\",\"items\":[{\"id\":".utf8).write(to: file)

        let down = try await CLI.run(["fetch", "--year", "2024", "--month", "1", "--retries", "0"], environment: env)
        #expect(down.status == 69)
        #expect(
            down.stderr.contains("the cache file \(file.path) was unreadable and was moved to 2024-01.json.corrupt"))
        #expect(FileManager.default.fileExists(atPath: file.path + ".corrupt"))

        try await withServer { server in
            try await server.seed(Samples.seed)
            let env = Samples.environment(home: home, server: server)
            let again = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--format", "json"], environment: env)
            #expect(again.status == 0)
            let offline = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--offline", "--format", "json"], environment: env)
            #expect(offline.stdout == again.stdout)
        }
    }

    @Test func aStalledServerTimesOutAndTheCacheAnswers() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed(Samples.seed)
            let env = Samples.environment(home: home, server: server)
            #expect(try await CLI.run(["fetch", "--year", "2024", "--month", "1"], environment: env).status == 0)
            // One attempt: the timeout and the fallback are the point here; CLIRetryTests retries a timed-out GET.
            try await server.addFaults("[{\"kind\": \"stall\", \"seconds\": 3}]")
            let result = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--timeout", "0.3", "--retries", "0"],
                environment: env)
            #expect(result.status == 0)
            #expect(result.stderr.contains("no answer before the timeout"))
            #expect(result.stdout.contains("TOTAL"))
        }
    }
}
