import ExpenseLogFormats
import ExpenseLogImport
import Foundation
import TestSupport
import Testing

/// `register` through the real binary against the reference server.
@Suite struct CLIRegisterTests {
    @Test func registersCSVJSONAndNDJSONFromFilesAndStdin() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let csv = try home.write("a.csv", "date,name,price,category\n2024-03-01,\"パン, 牛乳\",350,0\n")
            let json = try home.write(
                "b.json",
                "{\"id\":\"J1\",\"date\":\"20240302\",\"name\":\"本\",\"price\":1200,\"category\":1,\"categorySub\":2}")
            let ndjson =
                "{\"id\":\"N1\",\"date\":\"20240303\",\"name\":\"水\",\"price\":100,\"category\":0}\n"
                + "{\"id\":\"N2\",\"date\":\"2024/3/4\",\"name\":\"返品\",\"price\":-500,\"category\":0,\"categorySub\":null}\n"
            let result = try await CLI.run(
                ["register", csv, json, "-", "--format", "json"], environment: env, stdin: ndjson)
            #expect(result.status == 0, "\(result.stderr)")
            let stored = try await server.items()
            #expect(stored.map(\.name) == ["パン, 牛乳", "本", "水", "返品"])
            #expect(stored[0].id.count == 36 && stored[0].id == stored[0].id.uppercased())
            #expect(stored[3].price == -500 && stored[3].date.compact == "20240304")
            #expect(try ItemCodec.items(Data(result.stdout.utf8)) == stored)

            // What the server saved is in the cache, readable offline.
            let offline = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "3", "--offline", "--format", "json"], environment: env)
            #expect(offline.status == 0)
            #expect(try ItemCodec.items(Data(offline.stdout.utf8)) == stored)
            #expect(offline.stderr.isEmpty, "register fetched March whole to compare before sending: \(offline.stderr)")
        }
    }

    @Test func invalidItemsAreAllListedAndNothingIsSent() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let csv = try home.write(
                "bad.csv",
                """
                date,name,price,category,categorySub
                20240301,ok,100,0,1
                20240230,,0,x,1
                20240302,\(String(repeating: "長", count: 31)),100,0,
                """)
            let json = try home.write(
                "bad.json", "[\n  {\"date\":\"20240301\",\"name\":\"a\",\"price\":1.5,\"category\":0}\n]")
            let result = try await CLI.run(
                ["register", csv, json], environment: Samples.environment(home: home, server: server))
            #expect(result.status == 65)
            for expected in [
                "\(csv):3: date:", "\(csv):3: name:", "\(csv):3: price:", "\(csv):3: category:",
                "\(csv):4: name: is 31 characters", "\(json):2: price:",
            ] {
                #expect(result.stderr.contains(expected), "missing \(expected) in \(result.stderr)")
            }
            #expect(result.stderr.contains("nothing was sent"))
            #expect(try await server.requests().isEmpty)
        }
    }

    @Test func dryRunSendsNothingAndBatchSizeSplitsPosts() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let file = try home.write("five.csv", Samples.csv(rows: 5))
            let dry = try await CLI.run(["register", "--dry-run", file], environment: env)
            #expect(dry.status == 0)
            #expect(dry.stderr.contains("5 items would be sent in 1 batch"))
            #expect(try await server.requests().map(\.method) == ["GET"], "a dry run only reads March to compare")

            let sent = try await CLI.run(["register", "--batch-size", "2", file, "--quiet"], environment: env)
            #expect(sent.status == 0)
            #expect(sent.stderr.isEmpty)
            #expect(try await server.requests().filter { $0.method == "POST" }.count == 3)
            #expect(try await server.items().map(\.id) == (1...5).map { "C\($0)" })
        }
    }

    @Test func aBatchAnswered500IsQueuedWithTheRestAndSyncSendsItOnce() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let file = try home.write("five.csv", Samples.csv(rows: 5))
            // The first POST passes (a zero-second stall), the second gets 500: its fate is unknown, so it is queued.
            try await server.addFaults(
                "[{\"kind\": \"stall\", \"seconds\": 0, \"method\": \"POST\"}, {\"status\": 500, \"method\": \"POST\"}]"
            )
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(
                ["register", "--batch-size", "2", file, "--format", "csv"], environment: env)
            #expect(result.status == 75, "\(result.stderr)")
            #expect(try await server.items().map(\.id) == ["C1", "C2"])
            #expect(result.stderr.contains("HTTP 500"))
            #expect(result.stderr.contains("2 of 5 items were registered before this error"))
            #expect(result.stderr.contains("Queued the 3 items from \(file):4 on, in 2 batches, in the outbox"))
            #expect(result.stdout.contains("C1,") && result.stdout.contains("C2,") && !result.stdout.contains("C3,"))

            let pending = try await CLI.run(["pending", "--format", "csv"], environment: env)
            #expect(
                pending.stdout.split(separator: "\n").dropFirst().map { String($0.prefix(2)) } == ["C3", "C4", "C5"])
            // The 500 may have come after the script ran: a plain sync waits; --force sends now.
            let sync = try await CLI.run(["sync", "--force"], environment: env)
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(try await server.items().map(\.id) == ["C1", "C2", "C3", "C4", "C5"])
        }
    }

    @Test func aBatchRefusedWith400IsSetAsideInAFileAndTheRestStaysQueued() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let file = try home.write("five.csv", Samples.csv(rows: 5))
            try await server.addFaults(
                "[{\"kind\": \"stall\", \"seconds\": 0, \"method\": \"POST\"}, {\"status\": 400, \"body\": \"bad batch\", \"method\": \"POST\"}]"
            )
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(["register", "--batch-size", "2", file], environment: env)
            #expect(result.status == 69)
            #expect(result.stderr.contains("The server refused the 2 items from \(file):4 on; they were moved to "))
            #expect(result.stderr.contains("Queued the 1 item from \(file):6 on, in 1 batch, in the outbox"))
            let rejected = try #require(result.stderr.split(separator: " ").first { $0.contains("/rejected/") })
            let path = String(rejected.trimmingCharacters(in: CharacterSet(charactersIn: ".")))
            #expect(try ItemCodec.items(Data(contentsOf: URL(fileURLWithPath: path))).map(\.id) == ["C3", "C4"])
            let pending = try await CLI.run(["pending", "--format", "json"], environment: env)
            #expect(try ItemCodec.items(Data(pending.stdout.utf8)).map(\.id) == ["C5"])

            // The set-aside file registers as it is once the server accepts it; sync sends the rest.
            #expect(try await CLI.run(["register", path], environment: env).status == 0)
            #expect(try await CLI.run(["sync"], environment: env).status == 0)
            #expect(try await server.items().map(\.id) == ["C1", "C2", "C3", "C4", "C5"])
        }
    }

    @Test func a200ThatDoesNotListEveryItemSentIsNotAConfirmation() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let file = try home.write("two.csv", Samples.csv(rows: 2))
            try await server.addFaults(
                "[{\"status\": 200, \"body\": \"[]\", \"contentType\": \"application/json\", \"method\": \"POST\"}]")
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(["register", file], environment: env)
            #expect(result.status == 76)
            #expect(result.stderr.contains("lacks 2 of the 2 sent (C1, C2)"))
            #expect(!result.stderr.contains("Registered"))
            // An answer came, so the script has finished: nothing can still be running, and sync sends them at once.
            let sync = try await CLI.run(["sync"], environment: env)
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(try await server.items().map(\.id) == ["C1", "C2"])
        }
    }

    @Test func aClosedStdoutDoesNotStopTheRunFromQueueingWhatItCouldNotSend() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let file = try home.write("four.csv", Samples.csv(rows: 4))
            try await server.addFaults(
                "[{\"kind\": \"stall\", \"seconds\": 0, \"method\": \"POST\"}, "
                    + "{\"status\": 503, \"method\": \"POST\", \"count\": -1}]")
            // `| head -c 0`: the reader is gone before the saved items are printed.
            let script =
                "\"$0\" register \"$1\" --batch-size 2 --retries 0 | head -c 0; echo \"status ${PIPESTATUS[0]}\" >&2"
            let result = try await CLI.run(
                ["-c", script, try CLI.binary().path, file],
                environment: Samples.environment(home: home, server: server),
                binary: URL(fileURLWithPath: "/bin/bash"))
            #expect(result.stderr.contains("status 75"), "\(result.stderr)")
            let pending = try await CLI.run(
                ["pending", "--format", "json"], environment: Samples.environment(home: home, server: server))
            #expect(try ItemCodec.items(Data(pending.stdout.utf8)).map(\.id) == ["C3", "C4"])
        }
    }

    @Test func inputFormatFlagIsForStdinAndUnknownExtensionsTheExtensionWins() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        let txt = try home.write("rows.txt", Samples.csv(rows: 2, prefix: "T"))
        let csv = try home.write("rows.csv", Samples.csv(rows: 2))
        let flagged = try await CLI.run(
            ["register", "--dry-run", "--format", "ndjson", "--input-format", "csv", txt, csv],
            environment: env)
        #expect(flagged.status == 0, "\(flagged.stderr)")
        #expect(flagged.stdout.split(separator: "\n").count == 4)
        // `--input-format json` does not override the .csv extension (the contract's precedence).
        let overridden = try await CLI.run(["register", "--dry-run", "--input-format", "json", csv], environment: env)
        #expect(overridden.status == 0)
        let ndjson = try await CLI.run(
            ["register", "--dry-run", "--format", "csv", "--input-format", "ndjson", "-"], environment: env,
            stdin: "{\"date\":\"20240101\",\"name\":\"a\",\"price\":1,\"category\":0}\n")
        #expect(ndjson.status == 0 && ndjson.stdout.hasSuffix(",20240101,a,1,0,\n"))
    }

    @Test func hugePricesAreTotalledWithoutOverflow() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write(
            "big.csv", "date,name,price,category\n20240101,a,9223372036854775807,0\n20240102,b,1,0\n")
        let result = try await CLI.run(
            ["register", "--env", "dummy", "--dry-run", file], environment: Samples.environment(home: home))
        #expect(result.status == 0)
        #expect(result.stdout.contains("9,223,372,036,854,775,808"))
    }

    @Test func aCacheThatCannotBeWrittenAfterTheServerSavedExits74AndPrintsTheSavedItems() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let cacheRoot = home.url.appendingPathComponent("expense-log/cache")
            try FileManager.default.createDirectory(at: cacheRoot, withIntermediateDirectories: true)
            try home.write("expense-log/cache/development", "a file where the environment's cache folder should be")
            let file = try home.write("three.csv", Samples.csv(rows: 3))
            let result = try await CLI.run(
                ["register", "--batch-size", "2", "--format", "csv", file], environment: env)
            #expect(result.status == 74)
            #expect(try await server.items().count == 3)  // the cache failure did not stop the second batch
            #expect(result.stdout.split(separator: "\n").count == 4)
            #expect(result.stderr.contains("3 items were registered on the server, but the cache could not be updated"))
            #expect(result.stderr.contains(cacheRoot.appendingPathComponent("development").path))
        }
    }

    @Test func aCSVFileOfManyChunksAndTheSameThroughANamedPipeRegisterEveryRowAsWritten() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            // Over 64 KiB, so the file is read in several chunks, with three-byte characters and quoted commas and
            // CRLFs wherever a chunk happens to end.
            func rows(_ prefix: String) -> String {
                (1...5_000).reduce("\u{FEFF}id,date,name,price,category\r\n") { text, n in
                    text
                        + "\(prefix)\(n),20240\(n % 3 + 1)\(String(format: "%02d", n % 28 + 1)),\"\(prefix)品名 \(n), 多め\",\(n),0\r\n"
                }
            }
            let text = rows("R")
            #expect(text.utf8.count > 3 << 16)
            let sent = try await CLI.run(["register", try home.write("many.csv", text), "--quiet"], environment: env)
            #expect(sent.status == 0, "\(sent.stderr)")
            let stored = try await server.items()
            #expect(stored.map(\.id) == (1...5_000).map { "R\($0)" })
            #expect(stored.map(\.name) == (1...5_000).map { "R品名 \($0), 多め" })
            // Each month's cache holds that month's rows, though they were interleaved in the file.
            for month in 1...3 {
                let offline = try await CLI.run(
                    ["fetch", "--year", "2024", "--month", "\(month)", "--offline", "--format", "json"],
                    environment: env)
                // Printed by date; the server's order among one day's items.
                let expected = stored.filter { $0.date.month == month }.enumerated().sorted {
                    ($0.element.date, $0.offset) < ($1.element.date, $1.offset)
                }.map(\.element)
                #expect(try ItemCodec.items(Data(offline.stdout.utf8)) == expected, "month \(month)")
            }

            // A pipe can be read only once: it is read whole, and gives its items all the same.
            let fifo = home.url.appendingPathComponent("piped.csv").path
            try #require(mkfifo(fifo, 0o600) == 0)
            let writer = try ChildProcess(
                "/bin/sh", ["-c", "cat \"$0\" > \"$1\"", try home.write("other.csv", rows("P")), fifo])
            let piped = try await CLI.run(["register", fifo, "--quiet"], environment: env)
            #expect(await writer.wait() == 0)
            #expect(piped.status == 0, "\(piped.stderr)")
            #expect(try await server.items().dropFirst(5_000).map(\.name) == (1...5_000).map { "P品名 \($0), 多め" })
        }
    }

    @Test func missingInputFileExits66() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let result = try await CLI.run(
            ["register", "--env", "dummy", "/nonexistent/items.csv"], environment: Samples.environment(home: home))
        #expect(result.status == 66)
        #expect(result.stderr.contains("/nonexistent/items.csv: no such file"))
    }

    /// A POST ends at about 512 KiB of body whatever --batch-size allows, counting JSON's escapes; the dry run counts
    /// the same batches the real run sends.
    @Test func batchesEndAtTheirBodySize() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // thirty " in a CSV field: sixty bytes once JSON escapes them
        let quotes = String(repeating: "\"\"", count: 30)
        var csv = "date,name,price,category,categorySub\n"
        for n in 1...7_000 { csv += "202405\(String(format: "%02d", n % 28 + 1)),\"\(quotes)\",\(n),0,1\n" }
        let file = try home.write("quoted.csv", csv)
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let dry = try await CLI.run(
                ["register", "--dry-run", "--batch-size", "10000", "--format", "ndjson", file], environment: env)
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(
                dry.stderr.contains("7000 items would be sent in 3 batches")
                    || dry.stderr.contains("7,000 items would be sent in 3 batches"),
                "\(dry.stderr)")
            let sent = try await CLI.run(
                ["register", "--batch-size", "10000", "--format", "ndjson", file], environment: env)
            #expect(sent.status == 0, "\(sent.stderr)")
            let posts = try await server.requests().filter { $0.method == "POST" }
            #expect(posts.count == 3)
            #expect(
                posts.allSatisfy { ($0.body?.utf8.count ?? 0) <= 512 * 1024 + 200 },
                "\(posts.map { $0.body?.utf8.count ?? 0 })")
            #expect(try await server.items().count == 7_000)
        }
    }
}
