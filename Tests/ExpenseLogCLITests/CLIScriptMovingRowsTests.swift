import ExpenseLogFormats
import Foundation
import Testing

/// Issue 45, defects 1 and 5: rows that move while the bundled script works. A read takes no lock, and the lock covers
/// the script only: a delete or a move by another request, or a person deleting or inserting rows in Sheets, can shift
/// the rows between two calls of the script. A read never answers a mixed row, and a delete or an update never hits
/// another item than the one it names.
@Suite struct CLIScriptMovingRowsTests {
    static let book = "家計簿_2024"

    /// M1…M4 in January 2024, each priced by its number (M2 costs 1002), so that a mixed row shows.
    static func register(_ host: ScriptHost, _ ids: ClosedRange<Int> = 1...4, prefix: String = "M") async throws {
        let items = ids.map { CLIScriptOnGoogleTests.item("\(prefix)\($0)", "20240105", price: 1_000 + $0) }
        let answer = try await host.call(post: "[" + items.joined(separator: ",") + "]")
        #expect(!answer.contains("error"), "\(answer)")
    }

    /// The ids and prices of a month as the sheet holds them, below the header.
    static func sheetRows(_ host: ScriptHost, _ sheet: String = "1") async throws -> [String] {
        try await host.rows(book: book, sheet: sheet).dropFirst().map { "\($0[0]) \($0[3])" }
    }

    @Test func aFetchWhileAPersonDeletesARowNeverAnswersMixedRows() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            try await Self.register(host)
            // The person's delete lands between the script's read of the text and its read of the numbers.
            try await host.hand(.deleteRows, book: Self.book, sheet: "1", row: 2, after: "getDisplayValues")
            let fetched = try await CLI.run(
                ["fetch", "2024-01", "--format", "json"], environment: host.environment(home: home))
            #expect(fetched.status == 0, "\(fetched.stderr)")
            let items = try ItemCodec.items(Data(fetched.stdout.utf8)).map { "\($0.id) \($0.price)" }
            #expect(
                items == ["M2 1002", "M3 1003", "M4 1004"], "read again, never M1 with M2's price: \(fetched.stdout)")
        }
    }

    @Test func fetchesSideBySideWithDeletesAndMovesNeverAnswerAMixedRow() async throws {
        try await withScriptHost { host in
            // Apps Script's pace, slept for real so that the executions overlap as on Google.
            try await host.setLatency(ms: 8, real: true)
            for round in 0..<12 {
                let prefix = "R\(round)-"
                try await Self.register(host, 1...3, prefix: prefix)
                let doomed = "{\"id\":\"\(prefix)2\",\"date\":\"20240105\""
                let change =
                    round % 2 == 0
                    ? #"{"action":"delete","items":["# + doomed + "}]}"
                    : #"{"action":"update","#.appending(doomed.dropFirst()) + #","changes":{"date":"20240210"}}"#
                async let changed = host.call(post: change)
                // Each round starts the read a little later, so that over the rounds it meets the change at every step.
                try await Task.sleep(for: .milliseconds(20 + 12 * round))
                let read = try await host.call("?year=2024&month=1")
                _ = try await changed
                let items = try ItemCodec.items(Data(read.utf8))
                for item in items {
                    let number = Int(item.id.split(separator: "-").last ?? "") ?? 0
                    #expect(
                        item.price == 1_000 + number, "round \(round): \(item.id) answered with \(item.price): \(read)")
                }
                #expect(items.filter { $0.id.hasPrefix(prefix) }.count >= 2, "round \(round): \(read)")
            }
        }
    }

    @Test func aDeleteWhileAPersonDeletesARowAboveRemovesTheItemItNames() async throws {
        try await withScriptHost { host in
            try await Self.register(host)
            // The person deletes M1's row after the script found M3 on row 4: M4 is on row 4 now.
            try await host.hand(.deleteRows, book: Self.book, sheet: "1", row: 2, after: "getDisplayValues")
            let answer = try await host.call(post: #"{"action":"delete","items":[{"id":"M3","date":"20240105"}]}"#)
            #expect(answer.contains(#""deleted":["M3"]"#), "\(answer)")
            #expect(try await Self.sheetRows(host) == ["M2 1002", "M4 1004"])
        }
    }

    @Test func anUpdateWhileAPersonInsertsARowAboveChangesTheItemItNames() async throws {
        try await withScriptHost { host in
            try await Self.register(host)
            // A row inserted above M2 after the script read the month (its text and its values): M1 is on row 3 now.
            try await host.hand(.insertRows, book: Self.book, sheet: "1", row: 2, after: "getValues")
            let answer = try await host.call(
                post: #"{"action":"update","id":"M2","date":"20240105","changes":{"price":5000}}"#)
            #expect(answer.contains(#""price":5000"#), "\(answer)")
            let rows = try await host.rows(book: Self.book, sheet: "1").dropFirst().map { "\($0[0]) \($0[3])" }
            #expect(rows == [" ", "M1 1001", "M2 5000", "M3 1003", "M4 1004"], "M1 kept, M2 changed once: \(rows)")
        }
    }

    @Test func aMoveOutOfAMonthBelowAFrozenHeaderKeepsARowAndFinishes() async throws {
        try await withScriptHost { host in
            try await Self.register(host, 1...1)
            // The month's only item, under a frozen header, with the empty rows below deleted by hand.
            try await host.freeze(book: Self.book, sheet: "1", rows: 1)
            try await host.hand(.deleteRows, book: Self.book, sheet: "1", row: 3, count: 998)
            let moved = try await host.call(
                post: #"{"action":"update","id":"M1","date":"20240105","changes":{"date":"20240405"}}"#)
            #expect(moved.contains(#""date":"20240405""#), "\(moved)")
            #expect(try await Self.sheetRows(host, "1").isEmpty)
            #expect(try await Self.sheetRows(host, "4") == ["M1 1001"])
        }
    }

    @Test func aRegisterWhileAPersonInsertsARowAppendsAfterTheLastItemAndOverwritesNone() async throws {
        try await withScriptHost { host in
            try await Self.register(host, 1...3)
            // After the script found the month's end on row 4, a row is inserted above: M3 is on row 5 now.
            try await host.hand(.insertRows, book: Self.book, sheet: "1", row: 2, after: "getDisplayValues")
            try await Self.register(host, 9...9, prefix: "N")
            #expect(try await Self.sheetRows(host) == [" ", "M1 1001", "M2 1002", "M3 1003", "N9 1009"])
        }
    }

    @Test func aRegisterOverTwoMonthsPlansAgainOnlyTheMonthThatMoved() async throws {
        try await withScriptHost { host in
            try await Self.register(host, 1...2)
            _ = try await host.call(post: "[\(CLIScriptOnGoogleTests.item("F1", "20240210", price: 2001))]")
            // Both months are read before either is written; January's rows move after its read.
            try await host.hand(.deleteRows, book: Self.book, sheet: "1", row: 2, after: "getDisplayValues")
            let items = [
                CLIScriptOnGoogleTests.item("J9", "20240109", price: 1009),
                CLIScriptOnGoogleTests.item("F9", "20240219", price: 2009),
            ]
            let answer = try await host.call(
                post: #"{"action":"register","items":["# + items.joined(separator: ",") + "]}")
            #expect(answer.contains(#""existing":[]"#), "\(answer)")
            #expect(try await Self.sheetRows(host, "1") == ["M2 1002", "J9 1009"])
            #expect(try await Self.sheetRows(host, "2") == ["F1 2001", "F9 2009"])
        }
    }

    @Test func anIdNamedUnderTwoMonthsIsDeletedFromTheOneThatHasIt() async throws {
        try await withScriptHost { host in
            _ = try await host.call(post: "[\(CLIScriptOnGoogleTests.item("D1", "20240210", price: 2001))]")
            let answer = try await host.call(
                post: #"{"action":"delete","items":[{"id":"D1","date":"20240110"},{"id":"D1","date":"20240210"}]}"#)
            #expect(answer.contains(#""deleted":["D1"],"missing":[]"#), "\(answer)")
            #expect(try await Self.sheetRows(host, "2").isEmpty)
        }
    }

    @Test func deletingTheLastItemBelowTwoFrozenRowsKeepsARow() async throws {
        try await withScriptHost { host in
            try await Self.register(host, 1...2)
            try await host.freeze(book: Self.book, sheet: "1", rows: 2)
            try await host.hand(.deleteRows, book: Self.book, sheet: "1", row: 4, count: 997)
            let answer = try await host.call(post: #"{"action":"delete","items":[{"id":"M2","date":"20240105"}]}"#)
            #expect(answer.contains(#""deleted":["M2"]"#), "\(answer)")
            #expect(try await Self.sheetRows(host) == ["M1 1001"])
        }
    }
}
