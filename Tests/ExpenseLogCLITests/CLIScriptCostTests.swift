import ExpenseLogClient
import ExpenseLogFormats
import Foundation
import Testing

/// What each action of the bundled script costs on Google, counted in Sheets calls by the host (a budget each, as the
/// table in docs/server.md says), and what happens when an execution passes Apps Script's time limit.
@Suite struct CLIScriptCostTests {
    /// The Sheets calls of the last execution the host finished.
    static func lastCalls(_ host: ScriptHost) async throws -> Int {
        let executions = try await host.executions()
        return try #require(executions.last?["sheets"] as? Int)
    }

    /// `count` items spread over the first three months of 2024, as a register action's body.
    static func items(_ count: Int) -> [String] {
        (0..<count).map { n in
            CLIScriptOnGoogleTests.item("C\(n)", String(format: "2024%02d%02d", n % 3 + 1, n % 28 + 1))
        }
    }

    @Test func everyActionCostsCallsByTheMonthsItTouchesNotByItsItems() async throws {
        try await withScriptHost { host in
            let thousand = Self.items(1_000)
            // docs/server.md's budgets: a register or a delete of 1,000 items over three months, a fetch, an update.
            _ = try await host.call(post: #"{"action":"register","items":["# + thousand.joined(separator: ",") + "]}")
            let registered = try await Self.lastCalls(host)
            #expect(registered <= 51, "register: \(registered) Sheets calls")
            #expect(try ItemCodec.items(Data(try await host.call("?year=2024&month=2").utf8)).count == 333)
            let fetched = try await Self.lastCalls(host)
            #expect(fetched <= 6, "fetch: \(fetched) Sheets calls")
            _ = try await host.call(post: #"{"action":"update","id":"C1","date":"20240202","changes":{"price":999}}"#)
            let updated = try await Self.lastCalls(host)
            #expect(updated <= 14, "update: \(updated) Sheets calls")

            let targets = (0..<1_000).map { n in
                "{\"id\":\"C\(n)\",\"date\":\"" + String(format: "2024%02d%02d", n % 3 + 1, n % 28 + 1) + "\"}"
            }
            let answer = try await host.call(
                post: #"{"action":"delete","items":["# + targets.joined(separator: ",") + "]}")
            let deleted = try await Self.lastCalls(host)
            #expect(deleted <= 30, "delete of 1,000 ids: \(deleted) Sheets calls")
            let members = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any]
            #expect((members?["deleted"] as? [String])?.count == 1_000, "\(answer.prefix(200))")
            for month in 1...3 { #expect(try await host.call("?year=2024&month=\(month)") == "[]") }
        }
    }

    @Test func theClientDeletesInBatchesThatEachStayWellInsideTheTimeout() async throws {
        try await withRegistered(
            "id,date,name,price,category\n"
                + (0..<250).map { "B\($0),202401\(String(format: "%02d", $0 % 28 + 1)),パン,\(100 + $0),0" }.joined(
                    separator: "\n") + "\n"
        ) { host, env in
            try await host.clearExecutions()
            let deleted = try await CLI.run(["delete", "--yes"] + (0..<250).map { "B\($0)" }, environment: env)
            #expect(deleted.status == 0, "\(deleted.stderr)")
            let deletes = try await host.executions().filter { $0["action"] as? String == "delete" }
            #expect(deletes.count == 3, "100, 100 and 50 ids")
            #expect(deletes.allSatisfy { ($0["sheets"] as? Int ?? .max) <= 15 }, "\(deletes)")
            #expect(try await host.call("?year=2024&month=1") == "[]")
        }
    }

    @Test func anExecutionEndedByTheTimeLimitLeavesTheChangeQueuedAndSafeToSendAgain() async throws {
        try await withRegistered("id,date,name,price,category\nS1,20240105,パン,250,0\nS2,20240106,牛乳,200,0\n") {
            host, env in
            // At a second a call (virtual), a six-second limit ends any delete or update halfway.
            try await host.setLatency(ms: 1_000, real: false)
            try await host.setTimeLimit(ms: 6_000)
            let deleted = try await CLI.run(["delete", "--yes", "S1", "--retries", "0"], environment: env)
            #expect(deleted.status == 75, "\(deleted.stderr)")
            #expect(
                deleted.stderr.contains("Exceeded maximum execution time")
                    && deleted.stderr.contains("sending it again is safe"),
                "\(deleted.stderr)")
            let edited = try await CLI.run(["edit", "S2", "--price", "210", "--retries", "0"], environment: env)
            #expect(
                edited.status == 75 && edited.stderr.contains("Exceeded maximum execution time"), "\(edited.stderr)")
            #expect(try await host.executions().contains { $0["outcome"] as? String == "timeout" })
            let pending = try await CLI.run(["pending"], environment: env)
            #expect(pending.stderr.contains("delete S1") && pending.stderr.contains("edit S2"), "\(pending.stderr)")

            try await host.setLatency(ms: 0, real: false)
            let synced = try await CLI.run(["sync"], environment: env)
            #expect(synced.status == 0, "\(synced.stderr)")
            let january = try ItemCodec.items(Data(try await host.call("?year=2024&month=1").utf8))
            #expect(january.map(\.id) == ["S2"] && january.map(\.price) == [210])
        }
    }

    @Test func executionsRunAtOnceAndWaitForTheScriptLock() async throws {
        try await withScriptHost { host in
            _ = try await host.call(
                post: #"{"action":"register","items":["# + Self.items(300).joined(separator: ",") + "]}")
            // Every tenth row deleted: 30 runs of one row, each a call, at 10 ms of real latency: a long execution.
            try await host.setLatency(ms: 10, real: true)
            let scattered = stride(from: 0, to: 300, by: 10).map { n in
                "{\"id\":\"C\(n)\",\"date\":\"" + String(format: "2024%02d%02d", n % 3 + 1, n % 28 + 1) + "\"}"
            }
            async let deleting = host.call(
                post: #"{"action":"delete","items":["# + scattered.joined(separator: ",") + "]}")
            async let registering = host.call(post: "[\(CLIScriptOnGoogleTests.item("N1", "20240101"))]")
            let (deleted, registered) = try await (deleting, registering)
            #expect(
                deleted.contains("\"deleted\"") && registered.contains("\"N1\""),
                "\(deleted.prefix(100)) \(registered.prefix(100))")
            let january = try ItemCodec.items(Data(try await host.call("?year=2024&month=1").utf8))
            #expect(january.count == 100 - 10 + 1, "each execution's rows as it left them")
        }
    }
}
