import ExpenseLogFormats
import Foundation
import Testing

/// `register` that cannot confirm its items queues them; `pending` lists them; `sync` sends each exactly once.
@Suite struct CLIOutboxTests {
    func ids(_ result: CLIResult) throws -> [String] {
        try ItemCodec.items(Data(result.stdout.utf8)).map(\.id)
    }

    @Test func anUnreachableServerQueuesEveryItemAndSyncSendsThemOnce() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("five.csv", Samples.csv(rows: 5))
        let offline = try Samples.offlineEnvironment(home: home)
        let result = try await CLI.run(["register", file, "--batch-size", "2", "--retries", "0"], environment: offline)
        #expect(result.status == 75)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("connection refused"))
        #expect(result.stderr.contains("Queued the 5 items from \(file):2 on, in 3 batches, in the outbox"))
        #expect(result.stderr.contains("Run `expense-log sync` to send them"))
        // The outbox is state, not cache: clearing the cache must not lose it.
        #expect(
            FileManager.default.fileExists(
                atPath: home.url.appendingPathComponent("expense-log/state/development/journal").path))
        #expect(try await CLI.run(["cache", "clear"], environment: offline).status == 0)

        let pending = try await CLI.run(["pending", "--format", "json"], environment: offline)
        #expect(pending.status == 0)
        #expect(try ids(pending) == ["C1", "C2", "C3", "C4", "C5"])
        #expect(pending.stderr.contains("5 items in 3 batches wait in"))

        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let sync = try await CLI.run(["sync", "--format", "json"], environment: env)
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(try ids(sync) == ["C1", "C2", "C3", "C4", "C5"])
            #expect(
                sync.stderr.contains(
                    "Sent 5 items in 3 requests; skipped 0 the server already had. The outbox is empty."))
            #expect(try await server.items().map(\.id) == ["C1", "C2", "C3", "C4", "C5"])

            let again = try await CLI.run(["sync"], environment: env)
            #expect(again.status == 0)
            #expect(
                again.stderr.isEmpty && again.stdout.isEmpty,
                "nothing to send, nothing said (cron mails every line): \(again.stderr)")
            let verbose = try await CLI.run(["sync", "--verbose"], environment: env)
            #expect(verbose.stderr.contains("is empty; nothing to send"), "\(verbose.stderr)")
            #expect(
                try await server.requests().filter { $0.method == "POST" }.count == 3, "a second sync sends nothing")
            #expect(try await CLI.run(["pending", "--format", "json"], environment: env).stdout == "[]\n")
            // What sync sent is in the cache too.
            let cached = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "3", "--offline", "--format", "json"], environment: env)
            #expect(try ids(cached).sorted() == ["C1", "C2", "C3", "C4", "C5"])
        }
    }

    @Test func pendingPrintsEveryFormatAndItsOutputFeedsBackIntoRegister() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("two.json", ItemJSON.array(Array(Samples.seed.prefix(2))))
        let offline = try Samples.offlineEnvironment(home: home)
        #expect(try await CLI.run(["register", file, "--retries", "0"], environment: offline).status == 75)
        let table = try await CLI.run(["pending"], environment: offline)
        #expect(table.stdout.contains("コーヒー") && table.stdout.contains("ラーメン") && table.stdout.contains("1,678"))
        for format in ["json", "ndjson", "csv"] {
            let listed = try await CLI.run(["pending", "--format", format], environment: offline)
            #expect(listed.status == 0)
            // Read back in the dummy environment (here the outbox holds these ids); its fixtures hold a ラーメン like A2.
            let back = try await CLI.run(
                [
                    "register", "--env", "dummy", "--allow-duplicates", "--dry-run", "--input-format", format,
                    "--format", "json", "-",
                ],
                environment: offline, stdin: listed.stdout)
            #expect(back.status == 0, "\(format): \(back.stderr)")
            #expect(try ItemCodec.items(Data(back.stdout.utf8)) == Array(Samples.seed.prefix(2)), "\(format)")
        }
    }

    @Test(arguments: ["execute_then_stall", "execute_then_drop"])
    func aPostWhoseAnswerIsLostIsQueuedNotResentAndSyncFindsItOnTheServer(kind: String) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let file = try home.write("three.csv", Samples.csv(rows: 3))
            let seconds = kind == "execute_then_stall" ? ", \"seconds\": 3" : ""
            try await server.addFaults("[{\"kind\": \"\(kind)\"\(seconds), \"method\": \"POST\"}]")
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(["register", file, "--timeout", "1"], environment: env)
            #expect(result.status == 75, "\(result.stderr)")
            #expect(result.stderr.contains("may have been saved before the answer was lost"))
            #expect(
                try await server.requests().filter { $0.method == "POST" }.count == 1,
                "a POST of unknown fate is never re-sent blindly")
            #expect(try await server.items().map(\.id) == ["C1", "C2", "C3"])

            let sync = try await CLI.run(["sync"], environment: env)
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(sync.stderr.contains("Sent 0 items in 0 requests; skipped 3 the server already had"))
            #expect(try await server.items().map(\.id) == ["C1", "C2", "C3"], "exactly once")
            #expect(try await server.requests().filter { $0.method == "POST" }.count == 1)
        }
    }

    @Test func everyBatchCarriesItsOwnIdempotencyKeyAndKeepsItOnEveryResend() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let file = try home.write("four.csv", Samples.csv(rows: 4))
            // Batch 1 is saved; batch 2 gets a 502 (fate unknown: not retried, queued).
            try await server.addFaults(
                "[{\"kind\": \"stall\", \"seconds\": 0, \"method\": \"POST\"}, {\"status\": 502, \"method\": \"POST\"}]"
            )
            let env = Samples.environment(home: home, server: server)
            #expect(try await CLI.run(["register", file, "--batch-size", "2"], environment: env).status == 75)
            // A 502 may come after the script ran: --force re-sends without waiting out its longest execution.
            #expect(try await CLI.run(["sync", "--force"], environment: env).status == 0)
            let posts = try await server.requests().filter { $0.method == "POST" }
            let keys = posts.map { $0.headers["idempotency-key"] ?? "" }
            #expect(posts.count == 3)
            #expect(keys.allSatisfy { UUID(uuidString: $0) != nil })
            #expect(keys[0] != keys[1], "each batch has its own key")
            #expect(keys[1] == keys[2], "the re-sent batch keeps its key")
            #expect(try await server.items().map(\.id) == ["C1", "C2", "C3", "C4"])
        }
    }

    @Test func registerLeavesOlderPendingItemsToSyncAndSaysHowManyWait() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let offline = try Samples.offlineEnvironment(home: home)
        let first = try home.write("first.csv", Samples.csv(rows: 3, prefix: "P"))
        #expect(try await CLI.run(["register", first, "--retries", "0"], environment: offline).status == 75)
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let second = try home.write("second.csv", Samples.csv(rows: 2, prefix: "N"))
            let result = try await CLI.run(["register", second], environment: env)
            #expect(result.status == 0)
            #expect(
                result.stderr.contains(
                    "3 items queued by earlier runs are still waiting in the outbox; `expense-log sync` sends them"))
            #expect(try await server.items().map(\.id) == ["N1", "N2"], "register sends only its own items")
            #expect(try await CLI.run(["sync"], environment: env).status == 0)
            #expect(try await server.items().map(\.id) == ["N1", "N2", "P1", "P2", "P3"])
        }
    }

    @Test func syncThatCannotReachTheServerSendsNothingAndExits75() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let offline = try Samples.offlineEnvironment(home: home)
        let file = try home.write("two.csv", Samples.csv(rows: 2))
        #expect(try await CLI.run(["register", file, "--retries", "0"], environment: offline).status == 75)
        let sync = try await CLI.run(["sync", "--retries", "0"], environment: offline)
        #expect(sync.status == 75)
        #expect(sync.stderr.contains("Nothing was sent: 2024-03 must be read from the server first"))
        #expect(sync.stderr.contains("2 items remain in the outbox"))
        #expect(try ids(try await CLI.run(["pending", "--format", "json"], environment: offline)) == ["C1", "C2"])
    }

    @Test func theDummyEnvironmentHasItsOwnEmptyOutbox() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let offline = try Samples.offlineEnvironment(home: home)
        let file = try home.write("one.csv", Samples.csv(rows: 1))
        #expect(try await CLI.run(["register", file, "--retries", "0"], environment: offline).status == 75)
        let dummy = try await CLI.run(["--env", "dummy", "pending", "--format", "json"], environment: offline)
        #expect(dummy.stdout == "[]\n")
        let sync = try await CLI.run(["--env", "dummy", "sync"], environment: offline)
        #expect(sync.status == 0)
        #expect(sync.stderr.isEmpty, "nothing to send, nothing said: \(sync.stderr)")
    }

    /// A sheet shows an id on the month's sheet with a date moved to another month (edited by hand): sync must still
    /// see the id and not send the item again.
    @Test func syncSkipsAnIDTheSheetShowsUnderAnotherMonthsDate() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("one.csv", "id,date,name,price,category,categorySub\nM1,20240110,コーヒー,178,0,1\n")
        let queued = try await CLI.run(
            ["register", "--retries", "0", file], environment: try Samples.offlineEnvironment(home: home))
        #expect(queued.status == 75, "\(queued.stderr)")
        try await withServer(["--sheet"]) { server in
            try await server.addRows(
                month: "202401",
                #"[{"id":"M1","date":20240205,"name":"コーヒー","price":178,"category":0,"categorySub":1}]"#)
            let sync = try await CLI.run(["sync"], environment: Samples.environment(home: home, server: server))
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(
                sync.stderr.contains("Sent 0 items in 0 requests; skipped 1 the server already had"), "\(sync.stderr)")
            #expect(try await server.requests().filter { $0.method == "POST" }.isEmpty)
        }
    }

    /// An entry that cannot be read still waits: pending says so and exits 74, never "empty".
    @Test func pendingNamesAnUnreadableEntryAndDoesNotCallTheOutboxEmpty() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = try Samples.offlineEnvironment(home: home)
        let file = try home.write("one.csv", "id,date,name,price,category,categorySub\nU1,20240110,コーヒー,178,0,1\n")
        #expect(try await CLI.run(["register", "--retries", "0", file], environment: env).status == 75)
        let folder = home.url.appendingPathComponent("expense-log/state/development/journal")
        let entry = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".json") })
        let path = folder.appendingPathComponent(entry).path
        let whole = try #require(FileManager.default.contents(atPath: path))
        try whole.prefix(60).write(to: URL(fileURLWithPath: path))  // cut short by hand
        let pending = try await CLI.run(["pending"], environment: env)
        #expect(pending.status == 74, "\(pending.stderr)")
        #expect(pending.stderr.contains("cannot be read (line 2: not in the layout expected"), "\(pending.stderr)")
        #expect(pending.stderr.contains("No readable item waits in"), "\(pending.stderr)")
        #expect(!pending.stderr.contains("is empty"))
        // sync cannot fix it either: 74, which a retry loop does not retry forever, as it would a 75.
        let sync = try await CLI.run(["sync"], environment: env)
        #expect(sync.status == 74, "\(sync.stderr)")
        #expect(sync.stderr.contains("Unreadable outbox entries remain"), "\(sync.stderr)")
    }

    /// A journal "folder" that is a file is said in the system's words, not Foundation's error number.
    @Test func anOutboxThatIsAFileIsNamedAsSuch() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try FileManager.default.createDirectory(
            at: home.url.appendingPathComponent("expense-log/state/development"),
            withIntermediateDirectories: true)
        _ = try home.write("expense-log/state/development/journal", "not a folder")
        let pending = try await CLI.run(["pending"], environment: try Samples.offlineEnvironment(home: home))
        #expect(pending.status == 74)
        #expect(
            pending.stderr.contains("the journal of pending writes cannot be listed (not a directory (ENOTDIR))"),
            "\(pending.stderr)")
        #expect(!pending.stderr.contains("NSCocoaErrorDomain"))
    }
}
