import ExpenseLogFormats
import Foundation
import Testing

/// Many processes at once, and `kill -9` at any moment: nothing lost, nothing doubled.
@Suite struct CLICrashSafetyTests {
    /// The outbox as `pending --format json` reads it; the command itself must succeed.
    func pendingIDs(_ env: [String: String]) async throws -> [String] {
        let pending = try await CLI.run(["pending", "--format", "json"], environment: env)
        try #require(pending.status == 0, "pending failed: \(pending.stderr)")
        return try ItemCodec.items(Data(pending.stdout.utf8)).map(\.id)
    }

    @Test func eightConcurrentOfflineRegistersLoseAndDoubleNothing() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = try Samples.offlineEnvironment(home: home)
        let files = try (0..<8).map { try home.write("run\($0).csv", Samples.csv(rows: 40, prefix: "R\($0)-")) }
        let results = try await withThrowingTaskGroup(of: CLIResult.self) { group in
            for file in files {
                group.addTask {
                    try await CLI.run(["register", file, "--batch-size", "7", "--retries", "0"], environment: env)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.map(\.status) == Array(repeating: 75, count: 8), "\(results.map(\.stderr))")
        let ids = try await pendingIDs(env)
        let expected = (0..<8).flatMap { run in (1...40).map { "R\(run)-\($0)" } }
        #expect(ids.count == expected.count, "none doubled")
        #expect(Set(ids) == Set(expected), "none lost")

        try await withServer { server in
            let live = Samples.environment(home: home, server: server)
            #expect(try await CLI.run(["sync"], environment: live).status == 0)
            let saved = try await server.items().map(\.id)
            #expect(saved.count == expected.count && Set(saved) == Set(expected))
        }
    }

    @Test func concurrentSyncsSendEachItemOnce() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let offline = try Samples.offlineEnvironment(home: home)
        let file = try home.write("many.csv", Samples.csv(rows: 200))
        #expect(
            try await CLI.run(["register", file, "--batch-size", "5", "--retries", "0"], environment: offline).status
                == 75)
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
                for _ in 0..<4 { group.addTask { try await CLI.run(["sync"], environment: env).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // The one holding the lock sends; the others say another sync is running (75) — or find nothing left (0).
            #expect(statuses.allSatisfy { $0 == 0 || $0 == 75 }, "\(statuses)")
            #expect(try await CLI.run(["sync"], environment: env).status == 0)
            let saved = try await server.items().map(\.id)
            #expect(saved.count == 200 && Set(saved).count == 200)
        }
    }

    @Test func killNineAtAnyMomentOfALargeOfflineRegisterLeavesAllOrNoneOfItsItemsQueued() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = try Samples.offlineEnvironment(home: home)
        // 20,000 rows: reading, validating and queueing them takes long enough to be interrupted at different points.
        var csv = "id,date,name,price,category,categorySub\n"
        for n in 1...20_000 { csv += "K\(n),\(String(format: "202404%02d", n % 28 + 1)),item \(n),\(n),0,\n" }
        let file = try home.write("big.csv", csv)
        var everything = Set<String>()
        var delay = 0.0, finished = false, kills = 0
        // Kill ever later until a run gets to finish on its own: whatever the machine's speed, the kills land
        // across reading, validating and writing the outbox. A run finishes with 75 (queued), or with 0 when a killed
        // run before it had already queued every row (killed after its outbox entry was written, before it exited).
        while !finished, kills < 30 {
            let run = try CLI.start(["register", file, "--batch-size", "50", "--retries", "0"], environment: env)
            try await Task.sleep(for: .seconds(delay))
            run.kill()
            let result = try await run.wait()
            finished = result.status != SIGKILL
            kills += finished ? 0 : 1
            #expect(
                result.status == 75 || result.status == SIGKILL
                    || (result.status == 0
                        && result.stderr.contains("Nothing to send: every valid row is already there")),
                "after \(delay) s: \(result.stderr)")
            let ids = try await pendingIDs(env)
            #expect(
                ids.count % 20_000 == 0, "after \(delay) s the outbox holds \(ids.count) items: all of a run's or none")
            everything.formUnion(ids)
            delay = delay * 1.5 + 0.02
        }
        try #require(finished, "a run left alone long enough finishes on its own")
        #expect(everything == Set((1...20_000).map { "K\($0)" }))

        try await withServer { server in
            let live = Samples.environment(home: home, server: server)
            let sync = try await CLI.run(["sync", "--format", "ndjson"], environment: live)
            #expect(sync.status == 0, "\(sync.stderr)")
            let saved = try await server.items().map(\.id)
            #expect(saved.count == 20_000 && Set(saved) == everything, "each item once")
            let left = try FileManager.default.contentsOfDirectory(
                atPath: home.url.appendingPathComponent(
                    "expense-log/state/development/journal"
                ).path)
            #expect(!left.contains { $0.hasSuffix(".json") || $0.hasSuffix(".sent") }, "\(left)")
        }
    }

    @Test func killNineWhileAPostIsInFlightLeavesEveryUnconfirmedItemQueuedAndSyncSendsEachOnce() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // No ids in the input: the ids the run generated live only in the outbox, the riskiest case for doubles.
        var csv = "date,name,price,category,categorySub\n"
        for n in 1...30 { csv += "2024050\(n % 9 + 1),item \(n),\(n * 10),0,1\n" }
        let file = try home.write("noids.csv", csv)
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            // Batch 1 is saved, batch 2 runs on the server and then hangs: the process dies before any answer.
            try await server.addFaults(
                "[{\"kind\": \"stall\", \"seconds\": 0, \"method\": \"POST\"}, "
                    + "{\"kind\": \"execute_then_stall\", \"seconds\": 600, \"method\": \"POST\"}]")
            // A timeout far past any machine's slowness: the kill must find the POST in flight, never timed out.
            let run = try CLI.start(["register", file, "--batch-size", "10", "--timeout", "600"], environment: env)
            var posts = 0
            for _ in 0..<500 where posts < 2 {
                try await Task.sleep(for: .milliseconds(20))
                posts = try await server.requests().filter { $0.method == "POST" }.count
            }
            try #require(posts == 2, "the second POST reached the server")
            run.kill()
            #expect(try await run.wait().status == SIGKILL)
            #expect(try await server.items().count == 20)
            #expect(try await pendingIDs(env).count == 20, "batches 2 and 3 were queued before they were sent")

            let sync = try await CLI.run(["sync"], environment: env)
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(sync.stderr.contains("skipped 10 the server already had"))
            let names = try await server.items().map(\.name)
            #expect(names.count == 30 && Set(names).count == 30, "each item exactly once")
        }
    }

    @Test func killNineDuringSyncThenSyncAgainRegistersEachItemExactlyOnce() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let offline = try Samples.offlineEnvironment(home: home)
        let file = try home.write("many.csv", Samples.csv(rows: 600))
        #expect(
            try await CLI.run(["register", file, "--batch-size", "3", "--retries", "0"], environment: offline).status
                == 75)
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            for delay in [0.05, 0.15, 0.3, 0.6] {
                let run = try CLI.start(["sync"], environment: env)
                try await Task.sleep(for: .seconds(delay))
                run.kill()
                _ = try await run.wait()
                let saved = try await server.items().map(\.id)
                #expect(saved.count == Set(saved).count, "after a kill at \(delay) s nothing is doubled")
                let pending = try await pendingIDs(env)
                #expect(
                    Set(pending).union(saved) == Set((1...600).map { "C\($0)" }),
                    "after a kill at \(delay) s nothing is lost")
            }
            // A killed sync's POST may still be running on a real server, so a plain sync would wait out its longest
            // execution; this one has finished every request it got, and --force sends the rest now.
            let last = try await CLI.run(["sync", "--force"], environment: env)
            #expect(last.status == 0, "\(last.stderr)")
            let saved = try await server.items().map(\.id)
            #expect(saved.count == 600 && Set(saved).count == 600)
            #expect(try await pendingIDs(env).isEmpty)
        }
    }
}
