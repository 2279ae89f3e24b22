import ExpenseLogClient
import ExpenseLogFormats
import Foundation
import Testing

/// The bundled script as Google runs it: what an imitation written from Google's reference (the trash, time cells,
/// Sheets' limits, a cost per call, the time limit) showed wrong, each now kept from coming back.
@Suite struct CLIScriptOnGoogleTests {
    /// A wire item's JSON.
    static func item(_ id: String, _ date: String, _ name: String = "パン", price: Int = 250) -> String {
        "{\"id\":\(ItemJSON.string(id)),\"date\":\"\(date)\",\"name\":\(ItemJSON.string(name)),\"price\":\(price),\"category\":0,\"categorySub\":null}"
    }

    /// The books of a name, as the host holds them.
    static func books(_ host: ScriptHost, _ name: String) async throws -> [[String: Any]] {
        try await host.state().filter { $0["name"] as? String == name }
    }

    /// The ids in a book's month sheet, below the header.
    static func ids(_ book: [String: Any], _ sheet: String) -> [String] {
        let sheets = book["sheets"] as? [[String: Any]] ?? []
        let cells = sheets.first { $0["name"] as? String == sheet }?["cells"] as? [[Any]] ?? []
        return cells.dropFirst().map { "\($0.first ?? "")" }
    }

    @Test func aBookInTheTrashIsNeverWrittenToAndTheOwnerIsTold() async throws {
        try await withScriptHost { host in
            _ = try await host.call(post: "[\(Self.item("T1", "20240105"))]")
            try await host.trash(book: "家計簿_2024")
            // The iOS app's POST goes to a live book (made anew), not to the one in the trash.
            _ = try await host.call(post: "[\(Self.item("T2", "20240106"))]")
            let books = try await Self.books(host, "家計簿_2024")
            let trashed = books.filter { $0["trashed"] as? Bool == true },
                live = books.filter { $0["trashed"] as? Bool != true }
            #expect(trashed.count == 1 && live.count == 1, "\(books.map { $0["trashed"] ?? "" })")
            #expect(trashed.first.map { Self.ids($0, "1") } == ["T1"])
            #expect(live.first.map { Self.ids($0, "1") } == ["T2"])
            #expect(try await host.call("?year=2024&month=1").contains("\"T2\""))

            // Once Drive deletes the book for good, the year goes on in a new one, and an answer with room for it says so.
            try await host.deleteFile(book: "家計簿_2024")
            let answer = try await host.call(post: #"{"action":"delete","items":[{"id":"T2","date":"20240106"}]}"#)
            let members = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any]
            #expect(members?["missing"] as? [String] == ["T2"], "\(answer)")
            let notices = members?["notices"] as? [String] ?? []
            #expect(notices.contains { $0.contains("家計簿_2024") && $0.contains("deleted") }, "\(answer)")
            #expect(
                try await host.call("?year=2024&month=1") == "[]",
                "a year with no live book reads as empty, not as an error")
            _ = try await host.call(post: "[\(Self.item("T3", "20240107"))]")
            #expect(try await host.call("?year=2024&month=1").contains("\"T3\""))
        }
    }

    @Test func theClientShowsWhatTheWebAppSaysOfABookItCanNoLongerUse() async throws {
        try await withRegistered("id,date,name,price,category\nN1,20240105,パン,250,0\nN2,20240106,牛乳,200,0\n") {
            host, env in
            try await host.trash(book: "家計簿_2024")
            let deleted = try await CLI.run(["delete", "--yes", "N1"], environment: env)
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(
                deleted.stderr.contains("warning: the web app says: 家計簿_2024") && deleted.stderr.contains("trash")
                    && deleted.stderr.contains("Restore it from Drive's trash"), "\(deleted.stderr)")
            // A month's read has no room for the notice; a month that comes back empty where the cache held items is said.
            let fetched = try await CLI.run(["fetch", "2024-01"], environment: env)
            #expect(
                fetched.status == 0 && fetched.stderr.contains("where the cache held 1")
                    && fetched.stderr.contains("server check"),
                "\(fetched.stderr)")
        }
    }

    @Test func whatWasWrittenIsFlushedBeforeTheLockIsReleasedAlsoWhenTheScriptFails() async throws {
        try await withScriptHost { host in
            _ = try await host.call(post: "[\(Self.item("U1", "20240105"))]")
            let before = try #require(try await Self.books(host, "家計簿_2024").first?["flushes"] as? Int)
            // The move writes U1 into April, then fails to remove it from January.
            try await host.failNext("deleteRows", message: "Service Spreadsheets failed while accessing document")
            let moved = try await host.call(
                post: #"{"action":"update","id":"U1","date":"20240105","changes":{"date":"20240405"}}"#)
            #expect(
                moved.contains(#""kind":"unavailable""#) && moved.contains("Service Spreadsheets failed"), "\(moved)")
            #expect(try await Self.books(host, "家計簿_2024").first?["flushes"] as? Int == before + 1)
            // Sent again, the update finds U1 in January and April, and finishes the move.
            _ = try await host.call(
                post: #"{"action":"update","id":"U1","date":"20240105","changes":{"date":"20240405"}}"#)
            #expect(try await host.call("?year=2024&month=1") == "[]")
            #expect(try await host.call("?year=2024&month=4").contains("\"U1\""))
        }
    }

    @Test func aTimeTypedByHandReadsAsItShows() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            _ = try await host.call(post: "[\(Self.item("H1", "20240105")),\(Self.item("H2", "20240106"))]")
            // The original app's sheets leave the name column automatic; a person types a time and a date there.
            try await host.format(book: "家計簿_2024", sheet: "1", column: 3, "General")
            try await host.type(book: "家計簿_2024", sheet: "1", row: 2, column: 3, "12:30")
            try await host.type(book: "家計簿_2024", sheet: "1", row: 3, column: 3, "2024/2/3")
            let fetched = try await CLI.run(
                ["fetch", "2024-01", "--format", "json"], environment: host.environment(home: home))
            #expect(fetched.status == 0, "\(fetched.stderr)")
            let names = try ItemCodec.items(Data(fetched.stdout.utf8)).map(\.name)
            #expect(names == ["12:30:00", "2024/02/03"], "as Sheets shows them, not a day in 1899")
        }
    }

    @Test func aRequestOverALimitOfSheetsIsRefusedWholeNamingTheItem() async throws {
        try await withScriptHost { host in
            let long = String(repeating: "長", count: 50_001)
            let answer = try await host.call(
                post: "[\(Self.item("J1", "20240105")),\(Self.item("F1", "20240205", long))]")
            #expect(
                answer.contains(#""kind":"too-large""#) && answer.contains("item 2") && answer.contains("F1")
                    && answer.contains("50000"), "\(answer.prefix(300))")
            #expect(try await Self.books(host, "家計簿_2024").isEmpty, "nothing written, not even January's item")

            let twice = try await host.call(
                post: #"{"action":"register","items":["# + Self.item("D1", "20240105") + ","
                    + Self.item("D1", "20240106", "牛乳") + "]}")
            #expect(
                twice.contains(#""kind":"bad-request""#) && twice.contains("items 1 and 2 have the same id"), "\(twice)"
            )
            #expect(try await Self.books(host, "家計簿_2024").isEmpty)

            // Exactly 50,000 characters fit a cell, and read back whole.
            let fits = String(repeating: "長", count: 50_000)
            _ = try await host.call(post: "[\(Self.item("L1", "20240105", fits))]")
            #expect(try await host.call("?year=2024&month=1").contains(fits))
        }
    }

    @Test func idsThatNameAnObjectsOwnPropertiesAreIdsLikeAnyOther() async throws {
        try await withScriptHost { host in
            let body =
                "[" + ["__proto__", "constructor", "toString"].map { Self.item($0, "20240305") }.joined(separator: ",")
                + "]"
            _ = try await host.call(post: body)
            _ = try await host.call(post: body)
            let items = try ItemCodec.items(Data(try await host.call("?year=2024&month=3").utf8))
            #expect(items.map(\.id) == ["__proto__", "constructor", "toString"], "each saved once")
            let deleted = try await host.call(
                post: #"{"action":"delete","items":[{"id":"__proto__","date":"20240305"},"#
                    + #"{"id":"constructor","date":"20240305"},{"id":"hasOwnProperty","date":"20240305"}]}"#)
            #expect(deleted == #"{"deleted":["__proto__","constructor"],"missing":["hasOwnProperty"]}"#)
            // An id a person copied onto another row goes with every copy; an empty id names nothing.
            _ = try await host.call(post: "[\(Self.item("C1", "20240306"))]")
            try await host.type(book: "家計簿_2024", sheet: "3", row: 4, column: 1, "C1")
            try await host.type(book: "家計簿_2024", sheet: "3", row: 5, column: 2, "20240307")
            #expect(
                try await host.call(post: #"{"action":"delete","items":[{"id":"","date":"20240307"}]}"#).contains(
                    "bad-request"))
            _ = try await host.call(post: #"{"action":"delete","items":[{"id":"C1","date":"20240306"}]}"#)
            #expect(
                try await host.rows(book: "家計簿_2024", sheet: "3").map { "\($0.first ?? "")" } == ["ID", "toString", ""])
        }
    }

    @Test func aNewYearsSpreadsheetHoldsOnlyItsMonthsInOrder() async throws {
        try await withScriptHost { host in
            for date in ["20240305", "20240105", "20241205", "20240205"] {
                _ = try await host.call(post: "[\(Self.item("M" + date, date))]")
            }
            let book = try #require(try await Self.books(host, "家計簿_2024").first)
            #expect(
                (book["sheets"] as? [[String: Any]])?.map { $0["name"] as? String } == ["1", "2", "3", "12"],
                "no シート1, in month order")
        }
    }

    @Test func aNameThatLooksLikeAFormulaIsStoredAndReadAsText() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let names = ["=1+1", #"=IMPORTXML("http://example.com/","//a")"#, "+81", "-5", "@x"]
        try await withScriptHost { host in
            _ = try await host.call(
                post: "["
                    + names.enumerated().map { Self.item("F\($0.offset)", "20240105", $0.element) }.joined(
                        separator: ",") + "]")
            let fetched = try await CLI.run(
                ["fetch", "2024-01", "--format", "json"], environment: host.environment(home: home))
            #expect(try ItemCodec.items(Data(fetched.stdout.utf8)).map(\.name) == names, "\(fetched.stderr)")
            let sheet = try #require(
                ((try await Self.books(host, "家計簿_2024").first)?["sheets"] as? [[String: Any]])?.first)
            let formulas = "\(sheet["formulas"] ?? "")"
            #expect(!formulas.contains("="), "no cell holds a formula: \(formulas)")
        }
    }
}
