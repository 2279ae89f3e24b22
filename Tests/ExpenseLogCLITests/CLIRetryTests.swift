import ExpenseLogFormats
import Foundation
import Synchronization
import Testing

/// Retries of whole commands against the reference server: which failures are retried, how long a run waits, and what
/// `--verbose` shows.
@Suite struct CLIRetryTests {
    /// The waits a run asked for between attempts, recorded instead of slept through (an injected clock: the retry
    /// follows at once, and the test still sees how long the real binary would have waited).
    final class Waits: Sendable {
        private let recorded = Mutex<[(seconds: Double, askedAt: Double)]>([])
        /// Each wait asked for, in seconds.
        var seconds: [Double] { recorded.withLock { $0.map(\.seconds) } }
        /// When each would have ended, in seconds since 1970 (as the reference server logs its requests).
        var ends: [Double] { recorded.withLock { $0.map { $0.askedAt + $0.seconds } } }
        var sleep: @Sendable (Double) async throws -> Void {
            { seconds in self.recorded.withLock { $0.append((seconds, Date().timeIntervalSince1970)) } }
        }
    }

    @Test func retryAfterInSecondsIsWaitedForBeforeTheRetry() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed(Samples.seed)
            try await server.addFaults("[{\"status\": 503, \"headers\": {\"Retry-After\": \"1\"}}]")
            let waits = Waits()
            let result = await CLI.runInProcess(
                ["fetch", "--year", "2024", "--month", "1", "--format", "json"],
                environment: Samples.environment(home: home, server: server), stdin: nil, sleep: waits.sleep)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("HTTP 503; retrying in 1.0 s (attempt 2 of 4)"))
            #expect(waits.seconds == [1.0], "the server's Retry-After, not the back-off's own")
            #expect(try await server.requests().count == 2)
        }
    }

    /// The real binary, with its own clock: the server's log shows the retry a second after the first request.
    @Test func theBinaryReallyWaitsWhatRetryAfterSays() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed(Samples.seed)
            try await server.addFaults("[{\"status\": 503, \"headers\": {\"Retry-After\": \"1\"}}]")
            let result = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--format", "json"],
                environment: Samples.environment(home: home, server: server), spawned: true)
            #expect(result.status == 0, "\(result.stderr)")
            let requests = try await server.requests()
            try #require(requests.count == 2)
            // A lower bound only: a busy machine can make the wait longer, never shorter.
            #expect(requests[1].time - requests[0].time >= 0.95)
        }
    }

    @Test func retryAfterAsAnHTTPDateIsWaitedForToo() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            // The server writes an IMF-fixdate 2 s after its own now, in whole seconds: the wait is 1 to 2 s.
            try await server.addFaults("[{\"status\": 429, \"retryAfterDate\": 2}]")
            let waits = Waits()
            let result = await CLI.runInProcess(
                ["fetch", "--year", "2024", "--month", "1"],
                environment: Samples.environment(home: home, server: server), stdin: nil, sleep: waits.sleep)
            #expect(result.status == 0, "\(result.stderr)")
            let requests = try await server.requests()
            try #require(requests.count == 2 && waits.seconds.count == 1, "\(waits.seconds)")
            // The wait ends at the date the server wrote (1 to 2 s after its first answer), however long the answer took
            // to arrive on a busy machine; and it is never more than the 2 s the server asked for.
            #expect(
                waits.ends[0] >= requests[0].time + 0.95,
                "\(waits.ends[0] - requests[0].time) s after the first request")
            #expect(waits.seconds[0] <= 2.05, "\(waits.seconds)")
            #expect(result.stderr.contains("HTTP 429; retrying in "))
        }
    }

    @Test func aRetryAfterBeyondTheCapIsNotWaitedFor() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.addFaults("[{\"status\": 503, \"headers\": {\"Retry-After\": \"3600\"}}]")
            let result = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1"],
                environment: Samples.environment(home: home, server: server))
            #expect(result.status == 69)
            #expect(try await server.requests().count == 1)
        }
    }

    @Test func aPostRefusedWith503IsRetriedAndSavedOnce() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let file = try home.write("two.csv", Samples.csv(rows: 2))
            try await server.addFaults(
                "[{\"status\": 503, \"headers\": {\"Retry-After\": \"0\"}, \"method\": \"POST\", \"count\": 2}]")
            let result = try await CLI.run(
                ["register", file], environment: Samples.environment(home: home, server: server))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try await server.requests().filter { $0.method == "POST" }.count == 3)
            #expect(try await server.items().map(\.id) == ["C1", "C2"])
        }
    }

    @Test(arguments: [502, 504])
    func aPostAnsweredWithAGatewayErrorIsQueuedNotRetried(status: Int) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let file = try home.write("two.csv", Samples.csv(rows: 2))
            try await server.addFaults("[{\"status\": \(status), \"method\": \"POST\"}]")
            let result = try await CLI.run(
                ["register", file], environment: Samples.environment(home: home, server: server))
            #expect(result.status == 75)
            #expect(try await server.requests().filter { $0.method == "POST" }.count == 1)
        }
    }

    @Test func a503AfterTheRedirectMeansTheScriptRanSoThePostIsNotRetried() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(["--redirect"]) { server in
            let file = try home.write("two.csv", Samples.csv(rows: 2))
            let env = Samples.environment(home: home, server: server)
            // The first two 503s are register's comparing GET (also redirected) and its one retry, after which it warns
            // and goes on; the third is the GET after the POST: the script ran and 302'd, then the GET of its output
            // failed. A retry is allowed (Retry-After 0 keeps it quick), so the single POST shows it was not used.
            try await server.addFaults(
                "[{\"status\": 503, \"path\": \"/echo\", \"count\": 3, \"headers\": {\"Retry-After\": \"0\"}}]")
            let result = try await CLI.run(["register", file, "--retries", "1"], environment: env)
            #expect(result.status == 75, "\(result.stderr)")
            #expect(try await server.requests().filter { $0.method == "POST" }.count == 1)
            #expect(try await CLI.run(["sync"], environment: env).status == 0)
            #expect(try await server.items().map(\.id) == ["C1", "C2"])
        }
    }

    @Test func aRefusedConnectionToTheRedirectTargetIsNotProofThatThePostDidNotRun() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // The script runs, then redirects to 127.0.0.2, where nothing listens: a DNS or connection failure
        // on Apps Script's googleusercontent.com hop, after the items were saved.
        try await withServer(["--redirect-host", "127.0.0.2"]) { server in
            let file = try home.write("two.csv", Samples.csv(rows: 2))
            // One retry allowed, so the single POST shows it was not used; more would only add back-off to the
            // comparing GET, which the redirect sends to 127.0.0.2 too.
            let result = try await CLI.run(
                ["register", file, "--retries", "1"], environment: Samples.environment(home: home, server: server))
            #expect(result.status == 75, "\(result.stderr)")
            #expect(result.stderr.contains("could not reach http://127.0.0.2:"))
            #expect(result.stderr.contains("may have been saved before the answer was lost"))
            #expect(try await server.requests().filter { $0.method == "POST" }.count == 1, "never re-sent")
            #expect(try await server.items().map(\.id) == ["C1", "C2"])
        }
    }

    @Test func retriesZeroMeansOneAttemptAndVerboseLogsEachAttempt() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.addFaults("[{\"status\": 503, \"headers\": {\"Retry-After\": \"0\"}, \"count\": 2}]")
            let env = Samples.environment(home: home, server: server)
            let none = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--retries", "0"], environment: env)
            #expect(none.status == 69)
            let verbose = try await CLI.run(["fetch", "--year", "2024", "--month", "1", "--verbose"], environment: env)
            #expect(verbose.status == 0)
            let lines = verbose.stderr.split(separator: "\n").filter { $0.hasPrefix("> GET") }
            #expect(lines.count == 2)
            #expect(lines.first?.contains("-> 503") == true)
            #expect(lines.last?.contains("-> 200") == true && lines.last?.contains("(attempt 2)") == true)
            #expect(try await server.requests().count == 3)
        }
    }

    @Test func aTimedOutGetIsRetried() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed(Samples.seed)
            try await server.addFaults("[{\"kind\": \"stall\", \"seconds\": 3}]")
            let waits = Waits()
            let result = await CLI.runInProcess(
                ["fetch", "--year", "2024", "--month", "1", "--timeout", "0.5", "--format", "json"],
                environment: Samples.environment(home: home, server: server), stdin: nil, sleep: waits.sleep)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("timed out; retrying"))
            #expect(waits.seconds.count == 1, "one back-off, before the one retry")
            #expect(try ItemCodec.items(Data(result.stdout.utf8)).count == 3)
        }
    }
}
