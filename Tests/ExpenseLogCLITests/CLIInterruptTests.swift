import ExpenseLogModel
import Foundation
import TestSupport
import Testing

/// Ctrl-C, SIGTERM and SIGHUP in the middle of a run, through the real binary: what the run says it leaves queued,
/// no temporary file left behind, and the next run cleaning up after a writer that is gone.
@Suite struct CLIInterruptTests {
    /// Waits (20 s at most) until the server has a POST: the one it holds, so the run is surely mid-way.
    static func untilAPOSTArrives(_ server: ReferenceServer) async throws {
        for _ in 0..<800 {
            if try await server.requests().contains(where: { $0.method == "POST" }) { return }
            try await Task.sleep(for: .milliseconds(25))
        }
    }

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
            try await Self.untilAPOSTArrives(server)
            run.child.signal(SIGINT)
            try await server.release()
            let result = try await run.wait()
            #expect(result.status == 130, "\(result.stderr)")
            let said = try #require(result.stderr.split(separator: "\n").last.map(String.init))
            #expect(
                said.hasPrefix("Interrupted. 600 of 600 items wait in the outbox")
                    && said.contains("`expense-log sync` sends them"), "\(result.stderr)")
            let outbox = home.url.appendingPathComponent("expense-log/state/development/journal")
            let left = try FileManager.default.contentsOfDirectory(atPath: outbox.path)
            #expect(!left.isEmpty && left.allSatisfy { !$0.hasSuffix(".tmp") }, "\(left)")
            let synced = try await CLI.run(["sync"], environment: env)
            #expect(synced.status == 0, "\(synced.stderr)")
            #expect(Set(try await server.items().map(\.id)) == Set((1...600).map { "I\($0)" }))
        }
    }

    @Test func aSignalIgnoredAtStartStaysIgnoredAsNohupExpects() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("two.csv", "id,date,name,price,category\nN1,20240105,本,900,1\nN2,20240106,茶,150,0\n")
        try await withServer { server in
            try await server.addFaults("[{\"kind\": \"hold\", \"seconds\": 30, \"method\": \"POST\"}]")
            let env = Samples.environment(home: home, server: server)
            // What `nohup` does: SIGHUP ignored before the program starts (exec keeps it ignored).
            let run = try CLI.start(
                ["-c", "trap '' HUP; exec \"$0\" register \"$1\"", try CLI.binary().path, file], environment: env,
                binary: URL(fileURLWithPath: "/bin/sh"))
            try await Self.untilAPOSTArrives(server)
            run.child.signal(SIGHUP)
            try await server.release()
            let result = try await run.wait()
            #expect(result.status == 0, "the hang-up is ignored and the run finishes: \(result.stderr)")
            #expect(Set(try await server.items().map(\.id)) == ["N1", "N2"])
        }
    }

    @Test func aTemporaryFileOfAWriterThatIsGoneIsRemovedAndALiveOrFreshOneKept() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = try Samples.offlineEnvironment(home: home)
        let outbox = home.url.appendingPathComponent("expense-log/state/development/journal")
        try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: true)
        // A process that has ended: its PID is free (and not reused within the test).
        let gone = try ChildProcess("/bin/sh", ["-c", "true"])
        _ = await gone.wait()
        let stale = ".20261125-0001.json.\(gone.pid).42.tmp", live = ".20261125-0002.json.\(getpid()).7.tmp"
        let fresh = ".20261125-0003.json.\(gone.pid).43.tmp"
        for name in [stale, live, fresh] { try Data("{\"half\":".utf8).write(to: outbox.appendingPathComponent(name)) }
        // Untouched for two minutes: abandoned. The fresh one may be another machine's writer at work on a shared folder.
        for name in [stale, live] {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -120)],
                ofItemAtPath: outbox.appendingPathComponent(name).path)
        }
        let pending = try await CLI.run(["pending"], environment: env)
        #expect(pending.status == 0, "\(pending.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: outbox.path)
        #expect(
            left.sorted() == [live, fresh].sorted(), "the dead writer's old file is removed, the others kept: \(left)")
    }
}
