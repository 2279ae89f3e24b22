import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import Foundation
import Testing

/// What a real Google Sheet behind Apps Script answers (`server.py --sheet`): cells retyped as a person typing them
/// would be, date cells as UTC instants, rows cleared by hand, rows that cannot be items, and the script's error pages.
@Suite struct CLISheetTests {
    /// Registers items through the built binary into a `--sheet` server; returns the environment.
    func registered(
        _ items: [Item], _ home: TemporaryDirectory, _ server: ReferenceServer
    ) async throws -> [String: String] {
        let env = Samples.environment(home: home, server: server)
        let file = try home.write("items.json", ItemJSON.array(items))
        let result = try await CLI.run(["register", file, "--format", "json"], environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        return env
    }

    func names(_ json: String) throws -> [String] {
        try ItemCodec.items(Data(json.utf8)).map(\.name)
    }

    @Test func namesSheetsTurnedIntoBooleansAndNumbersReadAsTheTextTheCellShows() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(["--sheet"]) { server in
            let names = ["TRUE", "FALSE", "0120", "1.5", "1,500"]
            let items = names.enumerated().map { Samples.item("N\($0)", "2024011\($0)", $1, 100 + $0) }
            let env = try await registered(items, home, server)
            let fetch = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--format", "json"], environment: env)
            #expect(fetch.status == 0, "\(fetch.stderr)")
            #expect(fetch.stderr.isEmpty)
            #expect(try self.names(fetch.stdout) == ["TRUE", "FALSE", "120", "1.5", "1500"])

            // The month stays usable for every later command.
            let summary = try await CLI.run(
                ["summary", "--year", "2024", "--month", "1", "--format", "json"], environment: env)
            #expect(summary.status == 0, "\(summary.stderr)")
            #expect(try SummaryDocument(summary.stdout).total == 100 + 101 + 102 + 103 + 104)
            let more = try home.write("more.json", ItemJSON.array([Samples.item("N9", "20240120", "パン", 300)]))
            let register = try await CLI.run(["register", more], environment: env)
            #expect(register.status == 0, "\(register.stderr)")
        }
    }

    @Test func namesSheetsTurnedIntoDatesAreShownAsTheCellShowsThemWithAWarning() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(["--sheet"]) { server in
            let items = [
                Samples.item("D1", "20240105", "7-11", 500), Samples.item("D2", "20240106", "2024/2/3", 600),
                Samples.item("D3", "20240107", "12:30", 700),
            ]
            let env = try await registered(items, home, server)
            let fetch = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--format", "json"], environment: env)
            #expect(fetch.status == 0, "\(fetch.stderr)")
            #expect(try self.names(fetch.stdout) == ["2026/7/11", "2024/2/3", "12:30"])
            #expect(
                fetch.stderr.contains(
                    "2024-01, row 1 of the server's answer: its name 2026-07-10T15:00:00.000Z is a date Sheets made"))
            #expect(fetch.stderr.contains("format the sheet's name column as plain text"))
        }
    }

    @Test func anIDWhoseLeadingZerosTheSheetDroppedIsNeverSentTwice() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(["--sheet"]) { server in
            let env = Samples.environment(home: home, server: server)
            let file = try home.write("one.json", ItemJSON.array([Samples.item("00123", "20240110", "コーヒー", 178)]))
            // The server saves the item (as id 123), then the connection dies before the answer: its fate is unknown.
            try await server.addFaults("[{\"kind\": \"execute_then_drop\", \"method\": \"POST\"}]")
            let register = try await CLI.run(["register", file, "--retries", "0"], environment: env)
            #expect(register.status == 75, "\(register.stderr)")
            let sync = try await CLI.run(["sync"], environment: env)
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(sync.stderr.contains("skipped 1 the server already had"))
            #expect(try await server.items().count == 1, "the item was registered once")

            // The same id again (a re-import) is recognised as already there, in its retyped form.
            let again = try await CLI.run(["register", file, "--explain"], environment: env)
            #expect(again.status == 0)
            #expect(again.stderr.contains("id 00123 is already on the server"), "\(again.stderr)")
            #expect(try await server.items().count == 1)
        }
    }

    @Test func anAnswerToAPOSTThatRetypesTheItemsStillConfirmsThem() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(["--sheet"]) { server in
            let env = Samples.environment(home: home, server: server)
            let file = try home.write("one.json", ItemJSON.array([Samples.item("0042", "20240110", "TRUE", 178)]))
            let register = try await CLI.run(["register", file, "--format", "json"], environment: env)
            #expect(register.status == 0, "\(register.stderr)")
            let saved = try ItemCodec.items(Data(register.stdout.utf8))
            #expect(saved.map(\.id) == ["42"] && saved.map(\.name) == ["TRUE"])
            #expect(try await CLI.run(["pending"], environment: env).stdout.isEmpty, "nothing is left in the outbox")
        }
    }

    @Test(arguments: [("Asia/Tokyo", "20240203"), ("UTC", "20240202")])
    func aDateCellTypedByHandIsItsDayInTheSheetsTimeZone(zone: String, day: String) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(["--sheet"]) { server in
            // Typed as 2024/2/3 in a sheet in Tokyo: JSON.stringify writes the UTC instant of its midnight.
            try await server.addRows(
                month: "202402",
                #"[{"id":"H1","date":"2024-02-02T15:00:00.000Z","name":"パン","price":300,"category":0,"categorySub":""}]"#
            )
            let config = try home.write("config.json", "{\"serverTimeZone\": \"\(zone)\"}")
            let env = Samples.environment(home: home, server: server, ["EXPENSE_LOG_CONFIG": config])
            let fetch = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "2", "--format", "ndjson"], environment: env)
            #expect(fetch.status == 0, "\(fetch.stderr)")
            #expect(
                fetch.stdout == #"{"id":"H1","date":"\#(day)","name":"パン","price":300,"category":0,"categorySub":null}"#
                    + "\n")
            let show = try await CLI.run(["config", "show"], environment: env)
            #expect(show.stdout.contains(" \(try #require(TimeZone(identifier: zone)).identifier) "))
        }
    }

    @Test func aBadTimeZoneInTheConfigIsAConfigurationError() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let config = try home.write("config.json", #"{"serverTimeZone": "Asia/Tokio"}"#)
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy", "EXPENSE_LOG_CONFIG": config])
        let result = try await CLI.run(["fetch", "--year", "2024", "--month", "1"], environment: env)
        #expect(result.status == 78)
        #expect(result.stderr.contains("'serverTimeZone' must be a time zone name such as \"Asia/Tokyo\""))
    }

    @Test func aRowClearedByHandIsSkippedWithoutAWord() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(["--sheet"]) { server in
            let env = try await registered([Samples.item("C1", "20240110", "コーヒー", 178)], home, server)
            try await server.addRows(
                month: "202401", #"[{"id":"","date":"","name":"","price":"","category":"","categorySub":""}]"#)
            let fetch = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--format", "json"], environment: env)
            #expect(fetch.status == 0)
            #expect(fetch.stderr.isEmpty)
            #expect(try self.names(fetch.stdout) == ["コーヒー"])
        }
    }

    @Test func aRowThatCannotBeReadIsNamedAndLeftOutAndTheRestIsPrintedAndCached() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(["--sheet"]) { server in
            let env = try await registered([Samples.item("C1", "20240110", "コーヒー", 178)], home, server)
            let bad = #"{"id":"X9","date":20240111,"name":"ランチ","price":"ﾒﾓ","category":0,"categorySub":""}"#
            try await server.addRows(month: "202401", "[\(bad)]")

            let fetch = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--format", "json"], environment: env)
            #expect(fetch.status == 65, "\(fetch.stderr)")
            #expect(try self.names(fetch.stdout) == ["コーヒー"])
            #expect(
                fetch.stderr.contains(
                    "left out 2024-01, row 2 of the server's answer: its price the string \"ﾒﾓ\" is not a whole number of yen: \(bad)"
                ),
                "\(fetch.stderr)")
            #expect(fetch.stderr.contains("1 row of the server's answer could not be read as items and was left out"))
            let cached = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--offline", "--format", "json"], environment: env)
            #expect(try self.names(cached.stdout) == ["コーヒー"])

            let summary = try await CLI.run(
                ["summary", "--year", "2024", "--month", "1", "--format", "json"], environment: env)
            #expect(summary.status == 65)
            #expect(try SummaryDocument(summary.stdout).total == 178)

            // An id the unreadable row shows is on the server: it is never sent again.
            let same = try home.write("same.json", ItemJSON.array([Samples.item("X9", "20240111", "ランチ", 900)]))
            let unreachable = env.merging(["EXPENSE_LOG_BASE_URL": "http://127.0.0.1:\(try closedPort())/exec"]) {
                _, new in new
            }
            #expect(try await CLI.run(["register", same, "--retries", "0"], environment: unreachable).status == 75)
            let sync = try await CLI.run(["sync"], environment: env)
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(try await server.items().count == 1, "X9 was not sent: the sheet has it")
        }
    }

    @Test func strictRefusesAMonthWithAnUnreadableRowWhole() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(["--sheet"]) { server in
            let env = try await registered([Samples.item("C1", "20240110", "コーヒー", 178)], home, server)
            #expect(try await CLI.run(["cache", "clear"], environment: env).status == 0)
            try await server.addRows(
                month: "202401",
                #"[{"id":"X9","date":"someday","name":"ランチ","price":900,"category":0,"categorySub":""}]"#)
            let fetch = try await CLI.run(["fetch", "--year", "2024", "--month", "1", "--strict"], environment: env)
            #expect(fetch.status == 76)
            #expect(fetch.stdout.isEmpty)
            #expect(
                fetch.stderr.contains(
                    "2024-01, row 2 of the server's answer: its date the string \"someday\" is not a day"))
            #expect(fetch.stderr.contains("with --strict such an answer is refused whole"))
            #expect(
                try await CLI.run(["fetch", "--year", "2024", "--month", "1", "--offline"], environment: env).status
                    == 69,
                "nothing was cached")
            let summary = try await CLI.run(
                ["summary", "--year", "2024", "--month", "1", "--strict"], environment: env)
            #expect(summary.status == 76)
            #expect(summary.stdout.isEmpty)
        }
    }

    @Test func aScriptErrorPageShowsTheScriptsMessage() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(["--sheet"]) { server in
            let env = Samples.environment(home: home, server: server)
            let message =
                "TypeError: Cannot read properties of undefined (reading 'getSheetByName') (line 66, file \"Code\")"
            try await server.addFaults(
                "[{\"kind\": \"script_error\", \"message\": \(String(decoding: try JSONEncoder().encode(message), as: UTF8.self))}]"
            )
            let fetch = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--retries", "0"], environment: env)
            #expect(fetch.status == 76)
            #expect(
                fetch.stderr.contains("the web app's script failed: \(message) (the script's executions"),
                "\(fetch.stderr)")
            #expect(!fetch.stderr.contains("/exec URL"))

            try await server.addFaults("[{\"kind\": \"signin\"}]")
            let signin = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--retries", "0"], environment: env)
            #expect(signin.status == 76)
            #expect(signin.stderr.contains("is the URL the web app's /exec URL, deployed for your account?"))
            #expect(signin.stderr.contains("Sign in - Google Accounts"))
        }
    }
}

/// The cache kept per server: months cached by an older version, of an unknown server, are moved aside once.
@Suite struct CLICacheLayoutTests {
    @Test func monthsCachedBeforeThePerServerLayoutAreMovedAsideOnceAndNeverServed() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = try Samples.offlineEnvironment(home: home)
        // An older version kept every server's months in one folder per environment.
        let old = home.url.appendingPathComponent("expense-log/cache/development")
        try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
        try Data(#"{"month":"2024-01","fetchedAt":1705900000,"items":[]}"#.utf8).write(
            to: old.appendingPathComponent("2024-01.json"))

        let first = try await CLI.run(["fetch", "--year", "2024", "--month", "1", "--offline"], environment: env)
        #expect(first.status == 69, "a month of an unknown server is never served")
        #expect(first.stderr.contains("The cache is now kept per server"))
        #expect(first.stderr.contains("1 month cached before, from an unknown server, was moved to \(old.path)/legacy"))
        #expect(FileManager.default.fileExists(atPath: old.appendingPathComponent("legacy/2024-01.json").path))
        #expect(!FileManager.default.fileExists(atPath: old.appendingPathComponent("2024-01.json").path))

        let second = try await CLI.run(["fetch", "--year", "2024", "--month", "1", "--offline"], environment: env)
        #expect(!second.stderr.contains("The cache is now kept per server"), "the note is said once")
        let path = try await CLI.run(["cache", "path"], environment: env)
        #expect(path.stdout == (try Samples.cacheFolder(home: home, env)).path + "\n")
    }
}
