import ExpenseLogFormats
import Foundation
import Testing

/// Answers that never end, at full speed or a byte at a time: memory stays bounded (measured by the kernel from
/// outside the process) and the deadline holds while bytes arrive.
@Suite struct CLIHostileAnswerTests {
    @Test(arguments: [(8, 150), (64, 400)])
    func anEndlessAnswerIsCutOffAtTheLimit(limitMiB: Int, ceilingMiB: Int) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let config = try home.write("config.json", limitMiB == 64 ? "{}" : "{\"maxAnswerMiB\": \(limitMiB)}")
            let env = Samples.environment(home: home, server: server, ["EXPENSE_LOG_CONFIG": config])
            try await server.addFaults("[{\"kind\": \"endless\", \"seconds\": 60}]")
            let (result, peak) = try await CLI.runMeasured(
                ["fetch", "--year", "2024", "--month", "1", "--retries", "0"],
                environment: env)
            #expect(result.status == 76, "\(result.stderr)")
            #expect(result.stderr.contains("sent an answer larger than \(limitMiB) MiB, and it was cut off there"))
            #expect(result.stderr.contains("\"maxAnswerMiB\""))
            #expect(peak < ceilingMiB, "peak RSS \(peak) MiB")
        }
    }

    @Test func anEndlessAnswerToAPOSTQueuesTheItems() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let config = try home.write("config.json", "{\"maxAnswerMiB\": 4}")
            let env = Samples.environment(home: home, server: server, ["EXPENSE_LOG_CONFIG": config])
            let file = try home.write("one.json", ItemJSON.array([Samples.item("E1", "20240110", "コーヒー", 178)]))
            try await server.addFaults("[{\"kind\": \"endless\", \"seconds\": 60, \"method\": \"POST\"}]")
            let result = try await CLI.run(["register", file, "--retries", "0"], environment: env)
            #expect(result.status == 76, "\(result.stderr)")
            let pending = try await CLI.run(["pending", "--format", "json"], environment: env)
            #expect(try ItemCodec.items(Data(pending.stdout.utf8)).map(\.id) == ["E1"], "kept for sync")
        }
    }

    @Test func theDeadlineHoldsWhileBytesKeepArriving() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            // A byte every 0.1 s: never idle long enough for a per-read timeout, so only a deadline can stop it.
            try await server.addFaults("[{\"kind\": \"trickle\", \"seconds\": 60}]")
            let result = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--retries", "0", "--timeout", "0.6"],
                environment: env)
            #expect(result.status == 69, "\(result.stderr)")
            #expect(result.stderr.contains("no answer before the timeout"))
        }
    }
}
