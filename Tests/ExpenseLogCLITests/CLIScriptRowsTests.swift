import ExpenseLogClient
import ExpenseLogFormats
import Foundation
import Testing

/// Edits of rows as people and the original app leave them, through the bundled script: typed by hand, in the sheet's
/// default format, and a change that arrives twice.
@Suite struct CLIScriptRowsTests {
    @Test func rowsTypedByHandOrWrittenByTheOriginalAppAreEditedAsTheyRead() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("q.csv", "id,date,name,price,category,categorySub\nQ1,20240105,コーヒー,178,0,1\n")
        try await withScriptHost { host in
            let env = host.environment(home: home)
            #expect(try await CLI.run(["register", file], environment: env).status == 0)
            // A person retypes Q1's date (a plain-text cell: it stays "2024/1/5"), and adds a row below as the
            // original app's rows are, in the default format (Sheets makes a date of "2024/01/08" and a number of "120").
            try await host.type(book: "家計簿_2024", sheet: "1", row: 2, column: 2, "2024/1/5")
            for column in 1...3 { try await host.format(book: "家計簿_2024", sheet: "1", column: column, "General") }
            for (column, value) in ["O1", "2024/01/08", "パン", "120", "0", ""].enumerated() {
                try await host.type(book: "家計簿_2024", sheet: "1", row: 3, column: column + 1, value)
            }
            let fetched = try await CLI.run(["fetch", "2024-01", "--format", "json"], environment: env)
            #expect(
                try ItemCodec.items(Data(fetched.stdout.utf8)).map { "\($0.id) \($0.date.compact) \($0.name)" }
                    == ["Q1 20240105 コーヒー", "O1 20240108 パン"], "\(fetched.stdout)")

            let redated = try await CLI.run(["edit", "Q1", "--date", "2024-01-09"], environment: env)
            #expect(redated.status == 0, "a date typed as 2024/1/5 is the day 20240105, no conflict: \(redated.stderr)")
            let renamed = try await CLI.run(["edit", "O1", "--name", "0120"], environment: env)
            #expect(renamed.status == 0, "\(renamed.stderr)")
            let rows = try await host.rows(book: "家計簿_2024", sheet: "1")
            #expect(rows[1][1] as? String == "20240109")
            #expect(rows[2][2] as? String == "0120", "the name is written as text, not retyped as 120: \(rows[2])")
            // The same update again (a retry whose answer was lost) is no conflict: the name already holds its new value.
            let retried = try await host.call(
                post: #"{"action":"update","id":"O1","date":"20240108","changes":{"name":"0120"},"was":{"name":"パン"}}"#)
            #expect(!retried.contains("error"), "\(retried)")
        }
    }

    @Test func aChangeThatArrivesTwiceIsMadeOnceEvenAfterANewerOneUndidIt() async throws {
        try await withScriptHost { host in
            _ = try await host.call(
                post: #"[{"id":"A1","date":"20240105","name":"本","price":178,"category":1,"categorySub":null}]"#)
            let first =
                #"{"action":"update","id":"A1","date":"20240105","changes":{"price":200},"was":{"price":178},"change":"c1"}"#
            _ = try await host.call(post: first)
            _ = try await host.call(
                post:
                    #"{"action":"update","id":"A1","date":"20240105","changes":{"price":178},"was":{"price":200},"change":"c2"}"#
            )
            // c1's first try, running late after its retry and c2: its fields match "was" again, but it was made already.
            let late = try await host.call(post: first)
            #expect(try ItemCodec.items(Data("[\(late)]".utf8)).map(\.price) == [178], "\(late)")
            #expect(try await host.rows(book: "家計簿_2024", sheet: "1")[1][3] as? Int == 178)
        }
    }
}
