import ExpenseLogModel
import Foundation
import Testing
import TestSupport

/// Ctrl-C, SIGTERM and SIGHUP in the middle of a run, through the real binary: what the run says it leaves queued,
/// no temporary file left behind, and the next run cleaning up after a writer that is gone.
@Suite struct CLIInterruptTests {
    @Test func ctrlCDuringALongImportSaysHowManyWaitAndSyncSendsThem() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        var csv = "id,date,name,price,category\n"
        for n in 1...600 { csv += "I\(n),202405\(String(format: "%02d", n % 28 + 1)),item \(n),\(n),0\n" }
        let file = try home.write("long.csv", csv)
        try await withServer { server in
            // The first batch's POST is held by the server, as a slow Apps Script holds it: the run is surely mid-way.
            try await server.addFaults("[{\"kind\": \"hold\", \"seconds\": 30, \"method\": \"POST\"}]")
            let env = Samples.environment(home: home, server: server)
            let run = try CLI.start(["register", file, "--batch-size", "50"], environment: env)
            for _ in 0..<800 {
                if try await server.requests().contains(where: { $0.method == "POST" }) { break }
                try await Task.sleep(for: .milliseconds(25))
            }
            run.child.signal(SIGINT)
            try await server.release()
            let result = try await run.wait()
            #expect(result.status == 130, "\(result.stderr)")
            let said = try #require(result.stderr.split(separator: "\n").last.map(String.init))
            #expect(said.hasPrefix("Interrupted. 600 of 600 items wait in the outbox")
                    && said.contains("`expense-log sync` sends them"), "\(result.stderr)")
            let outbox = home.url.appendingPathComponent("expense-log/state/development/outbox")
            let left = try FileManager.default.contentsOfDirectory(atPath: outbox.path)
            #expect(!left.isEmpty && left.allSatisfy { !$0.hasSuffix(".tmp") }, "\(left)")
            let synced = try await CLI.run(["sync"], environment: env)
            #expect(synced.status == 0, "\(synced.stderr)")
            #expect(Set(try await server.items().map(\.id)) == Set((1...600).map { "I\($0)" }))
        }
    }

    @Test func aTemporaryFileOfAWriterThatIsGoneIsRemovedAndALiveOnesKept() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = try Samples.offlineEnvironment(home: home)
        let outbox = home.url.appendingPathComponent("expense-log/state/development/outbox")
        try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: true)
        // A process that has ended: its PID is free (and not reused within the test).
        let gone = try ChildProcess("/bin/true", [])
        _ = await gone.wait()
        let stale = ".20261125-0001.json.\(gone.pid).42.tmp", live = ".20261125-0002.json.\(getpid()).7.tmp"
        for name in [stale, live] { try Data("{\"half\":".utf8).write(to: outbox.appendingPathComponent(name)) }
        let pending = try await CLI.run(["pending"], environment: env)
        #expect(pending.status == 0, "\(pending.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: outbox.path)
        #expect(left == [live], "the dead writer's file is removed, the live one's kept: \(left)")
    }
}
