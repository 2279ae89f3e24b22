import ExpenseLogClient
import ExpenseLogFormats
import Foundation
import Testing

/// `server check`, the deployment's self-test, and the key as the path after `/exec` (what the iOS app can carry).
@Suite struct CLIServerCheckTests {
    /// The temporary books the check made, as the host holds them.
    static func checkBooks(_ host: ScriptHost) async throws -> [[String: Any]] {
        try await host.state().filter { ($0["name"] as? String)?.hasPrefix("expense-log check") == true }
    }

    @Test func theCheckReportsEveryHazardAndLeavesNothingBehind() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost(["--key", "k3y"]) { host in
            var env = host.environment(home: home)
            env["EXPENSE_LOG_TOKEN"] = "k3y"
            let checked = try await CLI.run(["server", "check"], environment: env)
            #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
            for hazard in [
                "0120", "TRUE", "12:30", "2024/2/3", "=1+1", "+81", "@x", "'quoted", "00123", "50000 characters",
                "formula",
                "500 items", "refused before anything is written", "an edit", "a delete",
            ] {
                #expect(checked.stdout.contains(hazard), "\(hazard) in \(checked.stdout)")
            }
            #expect(
                !checked.stdout.contains("✗") && checked.stderr.contains("All ")
                    && checked.stderr.contains("checks held"))
            #expect(
                checked.stdout.contains("register 500 items") && checked.stdout.contains("delete 100 items"),
                "\(checked.stdout)")
            let books = try await Self.checkBooks(host)
            #expect(
                books.count == 1 && books.allSatisfy { $0["trashed"] as? Bool == true },
                "the temporary spreadsheet is in the trash")
            #expect(
                try await host.state().allSatisfy { ($0["name"] as? String)?.hasPrefix("家計簿") != true },
                "no book of the log was touched")

            env["EXPENSE_LOG_TOKEN"] = "wrong"
            let refused = try await CLI.run(["server", "check"], environment: env)
            #expect(refused.status == 77, "the check needs the key: \(refused.stderr)")
        }
    }

    @Test func aYearsSpreadsheetInTheTrashIsACheckThatDidNotHold() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            _ = try await host.call(post: "[\(CLIScriptOnGoogleTests.item("Y1", "20240105"))]")
            try await host.trash(book: "家計簿_2024")
            // A read (the iOS app's, a fetch) takes no lock, and changes nothing the script remembers.
            #expect(try await host.call("?year=2024&month=1") == "[]")
            let checked = try await CLI.run(["server", "check"], environment: host.environment(home: home))
            #expect(checked.status == 1, "\(checked.stderr)")
            #expect(checked.stdout.contains("✗ 家計簿_2024 is live in Drive: it is in Drive's trash"), "\(checked.stdout)")
            #expect(
                checked.stderr.contains("1 of ") && checked.stderr.contains("Do what each ✗ above says"),
                "\(checked.stderr)")

            // Once a write has moved the year to a new spreadsheet, every check (and every answer with room) says so,
            // until the owner deletes the script property the notice names.
            _ = try await host.call(post: "[\(CLIScriptOnGoogleTests.item("Y2", "20240106"))]")
            let again = try await CLI.run(["server", "check"], environment: host.environment(home: home))
            #expect(
                again.status == 1 && again.stdout.contains("✗ the items of 2024 are all in the 家計簿_2024 in use")
                    && again.stdout.contains("lost_2024"), "\(again.stdout)")
            let answer = try await host.call(post: #"{"action":"delete","items":[{"id":"Y9","date":"20240107"}]}"#)
            #expect(answer.contains("notices") && answer.contains("Restore it from Drive's trash"), "\(answer)")
        }
    }

    @Test func aStepThatFailsStillTrashesTheTemporarySpreadsheet() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            try await host.failNext("getFormulas", message: "Service Spreadsheets failed while accessing document")
            let checked = try await CLI.run(["server", "check"], environment: host.environment(home: home))
            #expect(checked.status == 1, "\(checked.stderr)")
            #expect(
                checked.stdout.contains("the check stopped before its end: Service Spreadsheets failed"),
                "\(checked.stdout)")
            #expect(
                checked.stderr.contains("did not hold") && checked.stderr.contains("expense-log server script"),
                "\(checked.stderr)")
            let books = try await Self.checkBooks(host)
            #expect(books.count == 1 && books.allSatisfy { $0["trashed"] as? Bool == true })
        }
    }

    @Test func anOlderDeploymentAndTheOriginalScriptAreToldWhatToDo() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let older = """
            function doGet(e) {
              return ContentService.createTextOutput(JSON.stringify({app: 'expense-log', version: 1,
                actions: ['info', 'fetch', 'register', 'delete', 'update']})).setMimeType(ContentService.MimeType.JSON);
            }
            """
        try await withScriptHost(["--script", try home.write("Old.gs", older)]) { host in
            let checked = try await CLI.run(["server", "check"], environment: host.environment(home: home))
            #expect(checked.status == 69, "\(checked.stderr)")
            #expect(
                checked.stderr.contains("older version") && checked.stderr.contains("New version"), "\(checked.stderr)")
        }
        try await withServer { server in
            let checked = try await CLI.run(
                ["server", "check"], environment: Samples.environment(home: home, server: server))
            #expect(checked.status == 69, "\(checked.stderr)")
            #expect(
                checked.stderr.contains("does not run expense-log's script")
                    && checked.stderr.contains("server script"), "\(checked.stderr)")
            #expect(try await server.requests().filter { $0.method == "POST" }.isEmpty, "nothing was sent to write")
        }
        let dummy = try await CLI.run(
            ["--env", "dummy", "server", "check"], environment: Samples.environment(home: home))
        #expect(dummy.status == 78 && dummy.stderr.contains("dummy environment"), "\(dummy.stderr)")
    }

    @Test func theKeyAsThePathAfterExecLetsTheAppAndTheClientInAndIsNeverShown() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let key = "p4th-key-0123456789"
        let file = try home.write("k.csv", "id,date,name,price,category\nP1,20240401,パン,250,0\n")
        try await withScriptHost(["--key", key]) { host in
            // The iOS app's requests: its own query on the base URL's path.
            #expect(try await host.call("/\(key)?year=2024&month=4") == "[]")
            #expect(try await host.call("/wrong?year=2024&month=4").contains(#""kind":"unauthorized""#))

            var env = host.environment(home: home)
            env["EXPENSE_LOG_BASE_URL"] = host.base + "/" + key
            let registered = try await CLI.run(["register", file, "--verbose"], environment: env)
            #expect(registered.status == 0, "\(registered.stderr)")
            #expect(registered.stderr.contains("/exec/***") && !registered.stderr.contains(key), "\(registered.stderr)")
            let fetched = try await CLI.run(["fetch", "2024-04", "--format", "json"], environment: env)
            #expect(try ItemCodec.items(Data(fetched.stdout.utf8)).map(\.id) == ["P1"], "\(fetched.stderr)")
            let shown = try await CLI.run(["config", "show"], environment: env)
            #expect(!shown.stdout.contains(key) && shown.stdout.contains("/exec/***"), "\(shown.stdout)")

            env["EXPENSE_LOG_BASE_URL"] = host.base + "/n0t-the-k3y"
            let refused = try await CLI.run(["fetch", "2024-04", "--refresh"], environment: env)
            #expect(
                refused.status == 77 && refused.stderr.contains("/exec/***") && !refused.stderr.contains("n0t-the-k3y"),
                "\(refused.stderr)")
            #expect(refused.stderr.contains("The key at the end of the base URL"), "\(refused.stderr)")
            // A right token beside a wrong key in the path is no way in: the iOS app, with the path alone, would be refused.
            env["EXPENSE_LOG_TOKEN"] = key
            let both = try await CLI.run(["server", "check"], environment: env)
            #expect(both.status == 77, "\(both.stderr)")
        }
    }

    @Test func onlyALeftoverCheckIsTrashedNotTheOwnersFilesOfASimilarName() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            // Drive's `title contains` matches by word: both are found by the search for leftovers.
            try await host.createBook("expense-log check notes")
            try await host.createBook("expense-log check 2026-01-02 03:04:05")
            let checked = try await CLI.run(["server", "check"], environment: host.environment(home: home))
            #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
            let trashed = try await Self.checkBooks(host).map {
                "\($0["name"] ?? "") \($0["trashed"] as? Bool == true)"
            }.sorted()
            #expect(
                trashed.count == 3 && trashed.contains("expense-log check notes false")
                    && trashed.contains("expense-log check 2026-01-02 03:04:05 true"), "\(trashed)")
        }
    }
}
