import Foundation
import Testing

/// A POST the server runs late (Apps Script executions last up to 6 minutes, and the script cannot see the
/// Idempotency-Key): `sync` must not send it again while it may still be running.
@Suite struct CLILatePOSTTests {
    @Test func aPOSTTheServerSavesLateIsNeverDoubledByAnImmediateSync() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let file = try home.write("late.csv", Samples.csv(rows: 3))
            // The server holds the POST until the test releases it, then saves the items; the client gives up after 1 s.
            try await server.addFaults("[{\"kind\": \"hold\", \"seconds\": 60, \"method\": \"POST\"}]")
            let register = try await CLI.run(["register", file, "--timeout", "1", "--retries", "0"], environment: env)
            #expect(register.status == 75, "\(register.stderr)")
            #expect(register.stderr.contains("sends this batch again only 360 s after its POST"))

            // At once, while the server is still running the POST: nothing is sent, and sync says until when.
            let early = try await CLI.run(["sync"], environment: env)
            #expect(early.status == 75, "\(early.stderr)")
            #expect(early.stderr.contains("was sent at 20") && early.stderr.contains("its answer never came"))
            #expect(early.stderr.contains("3 items wait until the server cannot still be running them"))
            #expect(try await server.requests().filter { $0.method == "POST" }.count == 1)

            // Once the server has saved them, sync finds them by id and sends nothing.
            try await server.release()
            for _ in 0..<300 where try await server.items().count < 3 { try await Task.sleep(for: .milliseconds(100)) }
            let later = try await CLI.run(["sync"], environment: env)
            #expect(later.status == 0, "\(later.stderr)")
            #expect(later.stderr.contains("skipped 3 the server already had"))
            #expect(try await server.items().map(\.id) == ["C1", "C2", "C3"], "three rows for three items")
            #expect(try await server.requests().filter { $0.method == "POST" }.count == 1)
        }
    }

    @Test func aServerThatSkipsIdsItHasLiftsTheWait() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let config = try home.write("config.json", #"{"serverMaxExecutionSeconds": 0}"#)
            let env = Samples.environment(home: home, server: server, ["EXPENSE_LOG_CONFIG": config])
            let file = try home.write("two.csv", Samples.csv(rows: 2))
            // The connection drops before the server runs anything: the fate is unknown to the client.
            try await server.addFaults("[{\"kind\": \"drop\", \"method\": \"POST\"}]")
            #expect(try await CLI.run(["register", file, "--retries", "0"], environment: env).status == 75)
            let sync = try await CLI.run(["sync"], environment: env)
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(try await server.items().map(\.id) == ["C1", "C2"])
            let show = try await CLI.run(["config", "show"], environment: env)
            #expect(show.stdout.contains("server-max-execution") && show.stdout.contains(" 0 s "))
        }
    }
}
