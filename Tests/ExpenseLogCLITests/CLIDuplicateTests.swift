import ExpenseLogModel
import Foundation
import Testing

/// `register` compares with the server and the outbox before sending, and reports every row.
@Suite struct CLIDuplicateTests {
    /// An item typed in the app (a random id), which a statement row below is.
    static let typed = Samples.item("7A2B3C4D-0000-4000-8000-000000000002", "20240116", "天丼", 900, sub: 0)

    /// A1 again (same id), the typed 天丼 as a statement shows it (no id of its own, the shop's branch after its name,
    /// booked a day later), and one new item, all in January 2024.
    static let input = """
        id,date,name,price,category,categorySub
        A1,20240105,コーヒー,178,0,1
        ,20240117,天丼 渋谷店,900,0,0
        X3,20240120,うどん,600,0,0

        """

    @Test func itemsOnTheServerAreSkippedByIDAndStatementRowsMatchedToThem() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("jan.csv", Self.input)
        let reportPath = home.url.appendingPathComponent("report.json").path
        try await withServer { server in
            try await server.seed(Samples.seed + [Self.typed])
            let env = Samples.environment(home: home, server: server)
            // `--report`, the old name of `--record`, still writes the record.
            let result = try await CLI.run(["register", file, "--report", reportPath], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                try await server.items().map(\.id) == ["A1", "A2", "A3", "B1", Self.typed.id, "X3"],
                "only the new item was sent")
            #expect(
                result.stderr.contains(
                    "Skipped 2 rows already there (1 matched to items entered another way); --explain says what each matched"
                ))
            #expect(
                result.stderr.contains(
                    "Rows: 1 added, 1 skipped as already there (same id), 1 matched to items already there (not sent)."
                ))

            let report = try ReportDocument(path: reportPath)
            #expect(report.rows.map(\.status) == ["duplicate", "matched", "added"])
            #expect(report.rows.map(\.line) == [2, 3, 4])
            #expect(report.rows[1].matched?.item.id == Self.typed.id && report.rows[1].matched?.in == "server")

            // --explain names what each skipped row matched; --allow-duplicates sends the matched one, never the same id.
            let explained = try await CLI.run(
                ["register", file, "--explain", "--allow-duplicates", "--dry-run"], environment: env)
            #expect(explained.status == 0)
            #expect(explained.stderr.contains("\(file):2: skipped, already there: id A1 is already on the server"))
            #expect(explained.stderr.contains("\(file):4: skipped, already there: id X3 is already on the server"))
            #expect(explained.stderr.contains("Dry run: 1 item would be sent"))
            let likely = try await CLI.run(["register", file, "--explain"], environment: env)
            // The first run kept the rule's decision: this run follows it, and says so.
            let matchedLine = try #require(
                likely.stderr.split(separator: "\n").first { $0.hasPrefix("\(file):3: ") }, "\(likely.stderr)")
            #expect(
                matchedLine.contains("matched, not sent: decided by the matching rule on ")
                    && matchedLine.hasSuffix(
                        "the same purchase as 2024-01-16 天丼 ¥900 (id \(Self.typed.id)) on the server"),
                "\(matchedLine)")
        }
    }

    @Test func theServersCurrentMonthIsComparedNotAnOlderCachedCopy() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed(Samples.seed)
            let env = Samples.environment(home: home, server: server)
            #expect(try await CLI.run(["fetch", "--year", "2024", "--month", "1"], environment: env).status == 0)
            // Another machine registers an item after this one cached January whole.
            try await server.seed([Samples.item("M1", "20240125", "のり", 300)])
            let before = try await server.requests().count
            let file = try home.write(
                "two.csv", "id,date,name,price,category\nM1,20240125,のり,300,0\nM2,20240305,傘,700,1\n")
            let result = try await CLI.run(["register", file, "--explain"], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("\(file):2: skipped, already there: id M1 is already on the server"))
            #expect(try await server.items().filter { $0.id == "M1" }.count == 1, "never sent twice")
            let asked = try await server.requests().dropFirst(before).filter { $0.method == "GET" }.map(\.query)
            #expect(asked.sorted() == ["year=2024&month=1", "year=2024&month=3"])
        }
    }

    @Test func theReportIsWrittenWhenTheComparisonIsRefusedAndADryRunNeedsNoServer() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("a.csv", "date,name,price,category\n20240301,パン,250,0\n20240302,,100,0\n")
        let reportPath = home.url.appendingPathComponent("r.json").path
        try await withServer { server in
            try await server.addFaults("[{\"status\": 401, \"count\": -1}]")
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(
                ["register", file, "--skip-invalid", "--report", reportPath], environment: env)
            #expect(result.status == 77)
            #expect(result.stderr.contains("HTTP 401"))
            let report = try ReportDocument(path: reportPath)
            #expect(report.exitCode == 77 && report.rows.map(\.status) == ["not-sent", "invalid"])
            #expect(try await server.requests().allSatisfy { $0.method == "GET" })
        }
        // No base URL at all: a dry run still validates, comparing with the cache and the outbox.
        let dry = try await CLI.run(
            ["register", "--dry-run", "--skip-invalid", file], environment: Samples.environment(home: home))
        #expect(dry.status == 65)
        #expect(dry.stderr.contains("the dry run compares with the cache and the outbox only"))
        #expect(dry.stderr.contains("Dry run: 1 item would be sent"))
        let twice = try await CLI.run(
            ["register", "--dry-run", file, file], environment: Samples.environment(home: home))
        #expect(twice.status == 64)
        #expect(twice.stderr.contains("is named twice"))
    }

    @Test func aFileWithACSVSyntaxErrorIsLeftOutWholeWhileTheOtherFilesValidRowsAreSent() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let good = try home.write("good.csv", "id,date,name,price,category\nG1,20240301,パン,250,0\n")
        let broken = try home.write(
            "broken.csv", "id,date,name,price,category\nB1,20240302,水,100,0\nB2,20240303,\"open,1,0\n")
        let reportPath = home.url.appendingPathComponent("r.json").path
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(
                ["register", good, broken, "--skip-invalid", "--report", reportPath], environment: env)
            #expect(result.status == 65)
            #expect(result.stderr.contains("\(broken):3: invalid CSV"))
            #expect(
                try await server.items().map(\.id) == ["G1"],
                "no row of the broken file is sent, not even the one before the error")
            let report = try ReportDocument(path: reportPath)
            #expect(report.rows.map(\.status) == ["added", "invalid"])
        }
    }

    @Test func rerunningAnIDlessFileAfterExit75SkipsWhatWaitsInTheOutbox() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("new.csv", "date,name,price,category\n20240301,パン,250,0\n20240302,水,100,0\n")
        let offline = try Samples.offlineEnvironment(home: home)
        let first = try await CLI.run(["register", file, "--retries", "0"], environment: offline)
        #expect(first.status == 75)
        #expect(first.stderr.contains("could not compare with 2024-03 on the server"))
        let again = try await CLI.run(["register", file, "--retries", "0", "--explain"], environment: offline)
        #expect(again.status == 0, "\(again.stderr)")
        // The rows have no id: the ids made from their content are the ones waiting, so they match by id.
        #expect(
            again.stderr.contains("\(file):2: skipped, already there: id ")
                && again.stderr.contains("waiting in the outbox"))
        #expect(again.stderr.contains(DerivedID.explanation), "\(again.stderr)")
        #expect(again.stderr.contains("Nothing to send: every valid row is already there."))
        // One story, and a true one: the rows were compared with the outbox, which is why they were skipped.
        #expect(again.stderr.contains("its rows were compared with the outbox only"), "\(again.stderr)")
        #expect(!again.stderr.contains("not checked"), "\(again.stderr)")
        try await withServer { server async throws in
            let env = Samples.environment(home: home, server: server)
            #expect(try await CLI.run(["sync"], environment: env).status == 0)
            #expect(try await server.items().map(\.name) == ["パン", "水"], "each once")
        }
    }

    @Test func withoutSkipInvalidNothingIsSentAndWithItTheValidRowsAreSentAndTheExitIs65() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write(
            "mixed.csv",
            "date,name,price,category\n20240301,パン,250,0\n20240302,,100,0\n20240303,水,0,0\n20240304,茶,150,0\n")
        let reportPath = home.url.appendingPathComponent("r.json").path
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let strict = try await CLI.run(["register", file, "--report", reportPath], environment: env)
            #expect(strict.status == 65)
            #expect(
                strict.stderr.contains("\(file):3: name: is empty")
                    && strict.stderr.contains("\(file):4: price: must not be 0"))
            #expect(strict.stderr.contains("nothing was sent"))
            #expect(try await server.requests().isEmpty)
            let held = try ReportDocument(path: reportPath)
            #expect(held.exitCode == 65 && held.rows.map(\.status) == ["not-sent", "invalid", "invalid", "not-sent"])

            let lenient = try await CLI.run(
                ["register", file, "--skip-invalid", "--report", reportPath], environment: env)
            #expect(lenient.status == 65)
            #expect(try await server.items().map(\.name) == ["パン", "茶"])
            #expect(lenient.stderr.contains("Rows: 2 added, 2 invalid."))
            #expect(
                try ReportDocument(path: reportPath).rows.map(\.status) == ["added", "invalid", "invalid", "added"])
        }
    }

    @Test func inTheDummyEnvironmentTheFixturesAreWhatIsAlreadyThere() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        // Resources/fetch.json has コーヒー 178 on 2024-01-22.
        let file = try home.write(
            "d.csv", "date,name,price,category,categorySub\n20240122,コーヒー,178,0,1\n20240123,お茶,150,0,1\n")
        let result = try await CLI.run(["register", file, "--explain", "--format", "csv"], environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\(file):2: matched, not sent: the same purchase as 2024-01-22 コーヒー ¥178"))
        #expect(result.stderr.contains("Rows: 1 added, 1 matched to items already there (not sent)."))
    }

    @Test func progressIsDrawnOnlyWhenStderrIsATerminal() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("many.csv", Samples.csv(rows: 60))
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let args = ["register", file, "--batch-size", "10"]
            let piped = try await CLI.run(args, environment: env)
            #expect(piped.status == 0)
            #expect(!piped.stderr.contains("\r") && !piped.stderr.contains("items/s"))

            // Under a pseudo-terminal (Python's pty module), the progress line is drawn and cleared.
            let script =
                "import os, pty, subprocess, sys\nm, s = pty.openpty()\n"
                + "p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=s)\nos.close(s)\nout = b''\n"
                + "while True:\n    try:\n        d = os.read(m, 65536)\n    except OSError:\n        break\n    if not d:\n        break\n    out += d\n"
                + "sys.stdout.buffer.write(out)\nsys.exit(p.wait())\n"
            let other = try home.write("more.csv", Samples.csv(rows: 60, prefix: "T"))
            let tty = try await CLI.run(
                ["-c", script, try CLI.binary().path, "register", other, "--batch-size", "10"],
                environment: env, binary: URL(fileURLWithPath: "/usr/bin/python3"))
            #expect(tty.status == 0, "\(tty.stderr)")
            #expect(tty.stdout.contains("\r\u{1B}[KRead 60 rows"))
            #expect(tty.stdout.contains("\r\u{1B}[KSent 1/6 batches, 10 of 60 items,"))
            #expect(tty.stdout.contains("items/s"))
            #expect(tty.stdout.contains("\r\u{1B}[KRows: 60 added."), "the line is cleared before the report")
        }
    }
}
