import ExpenseLogFormats
import Foundation
import Testing

/// Issue 45, defects 2, 3, 4 and 7: Google's services failing under the bundled script, as they do for a while, worded
/// in the owner's language (Japanese here). What the client sees is a request kept and sent again, and what lands on
/// the sheet, row by row, is each item once and whole.
@Suite struct CLIScriptGoogleFailsTests {
    /// How a Japanese owner's Apps Script words a passing Sheets failure (the service's name stays in English).
    static let failing = "サービス Spreadsheets でエラーが発生しました。しばらくしてからもう一度お試しください。"

    static func sheetRows(_ host: ScriptHost, _ sheet: String = "1") async throws -> [String] {
        try await host.rows(book: "家計簿_2024", sheet: sheet).map { $0.map { "\($0)" }.joined(separator: ",") }
    }

    @Test func aSheetsFailureWordedInJapaneseIsKeptAndSentAgainNotTakenForABug() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("j.csv", "id,date,name,price,category\nJ1,20240105,パン,250,0\n")
        try await withScriptHost { host in
            let env = host.environment(home: home)
            try await host.failNext("getDataRange", message: Self.failing)
            let kept = try await CLI.run(["register", file, "--retries", "0"], environment: env)
            #expect(kept.status == 75, "kept to send again, not a script bug (76): \(kept.stderr)")
            #expect(
                kept.stderr.contains("Google's services failed") && kept.stderr.contains(Self.failing), "\(kept.stderr)"
            )
            let executions = try await host.executions()
            let logged = executions.last?["logs"] as? [[String: String]] ?? []
            #expect(
                logged.contains { $0["level"] == "error" && $0["message"]?.contains(Self.failing) == true },
                "the failure is logged for the Executions page: \(executions)")
            #expect(try await CLI.run(["sync"], environment: env).status == 0)
            #expect(try await Self.sheetRows(host) == ["ID,日付,品名,金額,項目,サブ項目", "J1,20240105,パン,250,0,"])
        }
    }

    @Test func aJavaScriptErrorIsTheScriptsOwnAndIsLoggedWithItsLine() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // A mistake in the script (as an edit of Code.gs could make): deleting reads a property of nothing.
        let broken = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("Resources/server/Code.gs"), encoding: .utf8
        )
        .replacingOccurrences(
            of: "function remove(targets) {", with: "function remove(targets) {\n  var nothing = null; nothing.length;")
        let script = try home.write("Broken.gs", broken)
        try await withScriptHost(["--script", script]) { host in
            let answer = try await host.call(post: #"{"action":"delete","items":[{"id":"X","date":"20240105"}]}"#)
            #expect(
                answer.contains(#""kind":"script""#) && answer.contains("Cannot read properties of null"), "\(answer)")
            let logs = try await host.executions().last?["logs"] as? [[String: String]] ?? []
            #expect(
                logs.contains {
                    $0["level"] == "error" && $0["message"]?.contains("TypeError") == true
                        && $0["message"]?.contains("at remove (Code:") == true
                }, "\(logs)")
        }
    }

    @Test func anEditWhoseFlushFailedIsMadeWhenSentAgain() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("e.csv", "id,date,name,price,category\nE1,20240105,コーヒー,178,0\n")
        try await withScriptHost { host in
            let env = host.environment(home: home)
            #expect(try await CLI.run(["register", file], environment: env).status == 0)
            // The update is written, then Google fails to apply it: the write is lost with the flush.
            try await host.failNext("flush", message: Self.failing, lose: true)
            let edited = try await CLI.run(["edit", "E1", "--price", "200", "--retries", "0"], environment: env)
            #expect(edited.status == 75, "\(edited.stderr)")
            #expect(try await Self.sheetRows(host).last == "E1,20240105,コーヒー,178,0,", "the flush lost the write")
            let synced = try await CLI.run(["sync"], environment: env)
            #expect(synced.status == 0, "\(synced.stderr)")
            #expect(
                try await Self.sheetRows(host).last == "E1,20240105,コーヒー,200,0,",
                "made when sent again, not answered as done")
        }
    }

    @Test func aWriteCutShortBetweenItsTwoCallsIsWrittenWholeWhenSentAgain() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("w.csv", "id,date,name,price,category\nW1,20240105,パン,250,0\n")
        try await withScriptHost { host in
            let env = host.environment(home: home)
            // Google fails after the id, date and name are written and before the numbers are (the header's too).
            try await host.failNext("setValues", message: Self.failing)
            let cut = try await CLI.run(["register", file, "--retries", "0"], environment: env)
            #expect(cut.status == 75, "the item waits in the outbox: \(cut.stderr)")
            #expect(try await Self.sheetRows(host) == ["ID,日付,品名", "W1,20240105,パン"], "the row names its item")
            let synced = try await CLI.run(["sync"], environment: env)
            #expect(synced.status == 0, "\(synced.stderr)")
            #expect(try await Self.sheetRows(host) == ["ID,日付,品名,金額,項目,サブ項目", "W1,20240105,パン,250,0,"])
            let fetched = try await CLI.run(["fetch", "2024-01", "--refresh", "--format", "json"], environment: env)
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(try ItemCodec.items(Data(fetched.stdout.utf8)).map { "\($0.id) \($0.price)" } == ["W1 250"])
        }
    }

    /// O1 in January, then on the row below it what version 2 left when Google failed between its writes: the numbers
    /// (250 and `category`), and no id, date or name; the body gets the host, the environment and a CSV of O2 (198).
    static func withLeftoverRow(
        category: String, _ body: (ScriptHost, [String: String], String) async throws -> Void
    ) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("o.csv", "id,date,name,price,category\nO2,20240106,牛乳,198,0\n")
        try await withScriptHost { host in
            _ = try await host.call(post: "[\(CLIScriptOnGoogleTests.item("O1", "20240105"))]")
            try await host.type(book: "家計簿_2024", sheet: "1", row: 3, column: 4, "250")
            try await host.type(book: "家計簿_2024", sheet: "1", row: 3, column: 5, category)
            try await body(host, host.environment(home: home), file)
        }
    }

    @Test func numbersAnOlderScriptLeftWithoutAnIdAreFreeSpaceForTheNextItem() async throws {
        try await Self.withLeftoverRow(category: "0") { host, env, file async throws in
            #expect(
                try await CLI.run(["fetch", "2024-01"], environment: env).status == 65, "the row is named when read")
            #expect(try await CLI.run(["register", file], environment: env).status == 0)
            #expect(
                try await Self.sheetRows(host) == [
                    "ID,日付,品名,金額,項目,サブ項目", "O1,20240105,パン,250,0,", "O2,20240106,牛乳,198,0,",
                ])
            #expect(try await CLI.run(["fetch", "2024-01", "--refresh"], environment: env).status == 0)
        }
    }

    @Test func aWriteCutShortOverNumbersAnOlderScriptLeftNeverSavesTheOldPrice() async throws {
        try await Self.withLeftoverRow(category: "1") { host, env, file in
            // Google fails after one of the two writes into the leftover row.
            try await host.failNext("setRichTextValues", message: Self.failing)
            #expect(try await CLI.run(["register", file, "--retries", "0"], environment: env).status == 75)
            #expect(try await CLI.run(["sync"], environment: env).status == 0)
            #expect(
                try await Self.sheetRows(host) == [
                    "ID,日付,品名,金額,項目,サブ項目", "O1,20240105,パン,250,0,", "O2,20240106,牛乳,198,0,",
                ])
        }
    }
}
