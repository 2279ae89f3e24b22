import ExpenseLogImport
import ExpenseLogUseCases
import Foundation
import TestSupport
import Testing

/// `register`/`import` of the files people actually have, through the real binary: what Excel saves, dates and prices
/// as typed, extra columns, a foreign export given without its profile, and ids made from a row's content so that
/// importing a statement again (or an overlapping one) sends nothing twice.
///
/// Every input file is written by Python's `csv` module and codecs (`excelCSV`), and every made id is computed by
/// Python's `uuid` module (`madeIDs`), so neither the writer nor the checker is the code under test.
@Suite struct CLIImportFilesTests {
    // MARK: - Files and ids made by Python

    /// Runs a Python script with `stdin` and returns what it printed on stdout.
    static func python(_ script: String, _ arguments: [String] = [], stdin: Data) throws -> Data {
        let process = try ChildProcess(
            "/usr/bin/env", ["python3", "-c", script] + arguments, stdin: .pipe, stdout: .pipe)
        process.input?.write(stdin)
        try process.input?.close()
        let output = process.output?.readDataToEndOfFile() ?? Data()
        let status = process.waitBlocking()
        guard status == 0 else { throw TestFailure("python3 failed (exit \(status)) running:\n\(script)") }
        return output
    }

    /// Writes `rows` as Excel does, with Python's `csv.writer` in the `excel` dialect (CRLF line ends, quotes only where
    /// needed) and Python's codec for `encoding` (`utf-8-sig`, Excel's "CSV UTF-8", writes a byte order mark).
    /// An Excel empty row is a row of empty strings (written `,,,`).
    static func excelCSV(_ rows: [[String]], encoding: String = "utf-8-sig", to path: String) throws {
        let script = """
            import csv, json, sys
            rows = json.loads(sys.stdin.buffer.read().decode("utf-8"))
            with open(sys.argv[1], "w", encoding=sys.argv[2], newline="") as f:
                csv.writer(f, dialect="excel").writerows(rows)
            """
        _ = try python(script, [path, encoding], stdin: try JSONEncoder().encode(rows))
    }

    /// `excelCSV` into a file of `home`; returns its path.
    static func write(
        _ rows: [[String]], _ name: String, in home: TemporaryDirectory, encoding: String = "utf-8-sig"
    ) throws -> String {
        let path = home.url.appendingPathComponent(name).path
        try excelCSV(rows, encoding: encoding, to: path)
        return path
    }

    /// The ids rows without one get, as docs/register.md and `DerivedID` define them, computed by Python's `uuid` module:
    /// `uuid5(namespace, "yyyyMMdd␟NAME␟PRICE␟N")` in uppercase, where ␟ is U+001F and N is the row's place among the
    /// file's rows with the same day, name and price. The namespace is checked to be the documented one.
    /// Each row is (yyyyMMdd, name, price, N).
    static func madeIDs(_ rows: [(String, String, Int, Int)]) throws -> [String] {
        let names = rows.map { "\($0.0)\u{1F}\($0.1)\u{1F}\($0.2)\u{1F}\($0.3)" }
        let script = """
            import json, sys, uuid
            namespace = uuid.UUID("0C89BF94-E60E-5D6B-A116-C042F5034BDA")
            assert namespace == uuid.uuid5(uuid.NAMESPACE_URL, "https://github.com/expense-log/expense-log/import-row")
            for name in json.loads(sys.stdin.buffer.read().decode("utf-8")):
                print(str(uuid.uuid5(namespace, name)).upper())
            """
        let ids = String(decoding: try python(script, stdin: try JSONEncoder().encode(names)), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        guard ids.count == rows.count else {
            throw TestFailure("python3 printed \(ids.count) ids for \(rows.count) rows")
        }
        return ids
    }

    /// How many times `needle` occurs in `text`.
    static func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// The stderr line that starts with `prefix`, if any.
    static func line(startingWith prefix: String, in text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
    }

    /// The POSTs the server received (each batch of items is one).
    static func posts(_ server: ReferenceServer) async throws -> Int {
        try await server.requests().filter { $0.method == "POST" }.count
    }

    // MARK: - What Excel saves

    @Test func anExcelSavedUTF8FileWithABOMAndEmptyRowsRegistersOnlyItsRealRows() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let empty = ["", "", "", ""]
        let file = try Self.write(
            [
                ["date", "name", "price", "category"],
                ["2024/3/1", "パン", "250", "0"],
                ["2024/3/2", "牛乳", "198", "0"],
                empty,
                ["2024/3/4", "洗剤", "398", "1"],
                empty, empty, empty,
            ], "家計簿.csv", in: home)
        // The fixture is what Excel writes: a byte order mark, CRLF, and empty rows as bare commas to the sheet's width.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF]))
        #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("398,1\r\n,,,\r\n,,,\r\n,,,\r\n"))

        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(["register", file], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let stored = try await server.items()
            #expect(stored.map(\.name) == ["パン", "牛乳", "洗剤"])
            #expect(stored.map(\.date.compact) == ["20240301", "20240302", "20240304"])
            #expect(stored.map(\.price) == [250, 198, 398])
            #expect(stored.map(\.category) == [0, 0, 1])
            // The empty rows are nothing to read: no line of the file is named as a problem or a warning.
            #expect(!result.stderr.contains("\(file):"), "\(result.stderr)")
            #expect(result.stderr.contains("Rows: 3 added."), "\(result.stderr)")
        }
    }

    // MARK: - Dates and prices as people type them

    @Test(arguments: ["utf-8", "cp932"])
    func datesAndPricesAsPeopleTypeThemAreRead(encoding: String) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try Self.write(
            [
                ["date", "name", "price", "category"],
                ["2026/11/3 0:00", "コーヒー", "178", "0"],  // Excel's date-time
                ["2024-1-5", "パン", "1,500 円", "0"],
                ["2024.1.5", "牛乳", "1500.0", "0"],
                ["2024年1月5日", "卵", "1,500.00", "0"],
                ["２０２４/１/６", "お茶", "150", "0"],  // full-width digits
                ["2024-01-07T00:00:00", "水", "100", "0"],  // ISO 8601 with a time
            ], "typed-\(encoding).csv", in: home, encoding: encoding)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        if encoding == "cp932" {
            #expect(String(data: bytes, encoding: .utf8) == nil, "a Shift_JIS file, not one that happens to be UTF-8")
        }
        // The prices with a comma are quoted by the csv module, as Excel quotes them.
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"1,500.00\""))

        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(["register", file], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stderr.contains("\(file):"), "no row has a problem or a warning: \(result.stderr)")
            let stored = try await server.items()
            #expect(stored.map(\.name) == ["コーヒー", "パン", "牛乳", "卵", "お茶", "水"])
            #expect(
                stored.map(\.date.compact) == ["20261103", "20240105", "20240105", "20240105", "20240106", "20240107"])
            #expect(stored.map(\.price) == [178, 1500, 1500, 1500, 150, 100])
        }
    }

    @Test func aDateWithoutAYearOrInAnotherFormOrNotARealDayIsNamedAndNothingIsSent() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try Self.write(
            [
                ["date", "name", "price", "category"],
                ["1/5", "パン", "250", "0"],
                ["5 Jan 2024", "牛乳", "198", "0"],
                ["2024/2/30", "卵", "300", "0"],
                ["2024/2/29", "お茶", "150", "0"],  // 2024 is a leap year: a real day
            ], "dates.csv", in: home)
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(["register", file], environment: env)
            #expect(result.status == 65, "\(result.stderr)")
            #expect(try await Self.posts(server) == 0, "nothing is sent")
            #expect(try await server.items().isEmpty)

            let yearless = try #require(Self.line(startingWith: "\(file):2:", in: result.stderr), "\(result.stderr)")
            #expect(
                yearless == "\(file):2: date: '1/5' has no year, so which year's sheet it belongs to cannot be known; "
                    + "export the dates with their year")

            let english = try #require(Self.line(startingWith: "\(file):3:", in: result.stderr), "\(result.stderr)")
            #expect(
                english.contains(
                    "'5 Jan 2024' is not a date in a form read here "
                        + "(yyyyMMdd, yyyy-M-d, yyyy/M/d, yyyy.M.d or yyyy年M月d日"), "\(english)")
            #expect(!english.contains("not a real day"), "\(english)")

            #expect(
                result.stderr.contains("\(file):4: date: '2024/2/30' is not a real day (2024-02 has 29 days)"),
                "\(result.stderr)")
            #expect(Self.line(startingWith: "\(file):5:", in: result.stderr) == nil, "29 February 2024 is a day")
        }
    }

    // MARK: - Headers

    @Test func anExtraColumnOfANativeFileIsNamedInOneWarningAndTheRowsAreRegistered() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try Self.write(
            [
                ["date", "name", "price", "category", "memo"],
                ["2024/3/1", "パン", "250", "0", "朝食用"],
                ["2024/3/2", "牛乳", "198", "0", ""],
            ], "memo.csv", in: home)
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(["register", file], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let stored = try await server.items()
            #expect(stored.map(\.name) == ["パン", "牛乳"])
            #expect(stored.map(\.price) == [250, 198])
            let warning =
                "warning: \(file):1: ignored the column 'memo' (an item has id, date, name, price, category, categorySub)"
            #expect(Self.occurrences(of: warning, in: result.stderr) == 1, "\(result.stderr)")
        }
    }

    @Test func aMoneyForwardExportWithoutItsProfileIsReadWithTheBuiltInProfileItsHeaderNames() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("収入・支出詳細_2024-03.csv", bytes: try Samples.shiftJIS(CLIImportTests.moneyForwardExport))
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let recognised = try await CLI.run(["register", "--skip-invalid", file], environment: env)
            #expect(
                recognised.stderr.contains(
                    "Read \(file) as a MoneyForward ME export (the built-in profile moneyforward; "
                        + "--profile sets another)."), "\(recognised.stderr)")
            #expect(
                !recognised.stderr.contains("warning:"),
                "a recognised layout is a note, not a warning: \(recognised.stderr)")
            let named = try await server.items()
            #expect(!named.isEmpty)
            // The same file with the profile named adds nothing more: it was read the same way.
            let explicit = try await CLI.run(
                ["register", "--skip-invalid", "--profile", "moneyforward", file], environment: env)
            #expect(explicit.stderr.contains("Nothing to send"), "\(explicit.stderr)")
            #expect(try await server.items() == named)
        }
    }

    // MARK: - A profile's rows it has no category for

    @Test func aMoneyForwardUtilityBillIsLeftOutAndTheReportSaysWhy() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // The export has a header and ten rows (lines 1–11): the bill is line 12.
        let bill = "\"1\",\"2024/03/15\",\"東京電力\",\"-6,000\",\"三井住友銀行\",\"水道・光熱費\",\"電気代\",\"\",\"0\",\"mf-020\"\r\n"
        let file = try home.write("mf.csv", bytes: try Samples.shiftJIS(CLIImportTests.moneyForwardExport + bill))
        let reportPath = home.url.appendingPathComponent("report.json").path
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(
                ["import", "--profile", "moneyforward", "--skip-invalid", "--record", reportPath, file],
                environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let stored = try await server.items()
            #expect(!stored.contains { $0.id == "mf-020" || $0.name == "東京電力" })
            #expect(stored.map(\.id) == ["mf-001", "mf-002", "mf-003", "mf-008", "mf-009", "mf-010"])

            let report = try ReportDocument(path: reportPath)
            #expect(report.exitCode == 0)
            let row = try #require(report.rows.first { $0.line == 12 })
            #expect(row.file == file)
            #expect(row.status == "excluded")
            #expect(
                row.reasons?.contains {
                    $0.contains("no rule of the moneyforward profile matches (大項目 '水道・光熱費', 中項目 '電気代')")
                }
                    == true, "\(String(describing: row.reasons))")
            #expect((report.counts["invalid"] ?? 0) == 0)
        }
    }

    // MARK: - Ids made from content

    /// Two identical coffees on one day, another item that day, and the same coffee the next day; no id column.
    static let coffeeRows = [
        ["date", "name", "price", "category"],
        ["20261103", "コーヒー", "178", "0"],
        ["20261103", "パン", "250", "0"],
        ["20261103", "コーヒー", "178", "0"],
        ["20261104", "コーヒー", "178", "0"],
    ]

    /// The ids `coffeeRows` get, by Python: the second coffee of 3 November is the second of its kind that day.
    static func coffeeIDs() throws -> [String] {
        try madeIDs([
            ("20261103", "コーヒー", 178, 1), ("20261103", "パン", 250, 1), ("20261103", "コーヒー", 178, 2),
            ("20261104", "コーヒー", 178, 1),
        ])
    }

    @Test func rowsWithoutAnIDGetIDsMadeFromTheirContentAndASecondImportSendsNothing() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try Self.write(Self.coffeeRows, "coffee.csv", in: home)
        let expected = try Self.coffeeIDs()
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(["register", file], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let stored = try await server.items()
            #expect(stored.count == 4)
            // Both coffees of 3 November are stored, each with its own id.
            let coffees = stored.filter { $0.date.compact == "20261103" && $0.name == "コーヒー" }
            #expect(coffees.count == 2)
            #expect(Set(coffees.map(\.id)).count == 2)
            #expect(Set(coffees.map(\.id)) == [expected[0], expected[2]])
            #expect(Set(stored.map(\.id)) == Set(expected), "every id is the one Python makes from the row")
            #expect(stored.first { $0.name == "パン" }?.id == expected[1])
            #expect(stored.first { $0.date.compact == "20261104" }?.id == expected[3])

            // The same file again: every row's id is on the server, so nothing is sent.
            let again = try await CLI.run(["register", file], environment: env)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stderr.contains("Nothing to send: every valid row is already there."), "\(again.stderr)")
            #expect(try await server.items().count == 4)
            #expect(try await Self.posts(server) == 1, "one POST in all")
        }
    }

    @Test func anOverlappingStatementSendsOnlyItsNewDaysAndExplainsTheOthers() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        func day(_ n: Int) -> String { "202405" + (n < 10 ? "0" : "") + "\(n)" }
        func statement(_ days: ClosedRange<Int>) -> [[String]] {
            [["date", "name", "price", "category"]] + days.map { [day($0), "ランチ", "800", "0"] }
        }
        let first = try Self.write(statement(1...10), "2024-05-a.csv", in: home)
        let second = try Self.write(statement(5...15), "2024-05-b.csv", in: home)
        // Days 5–10 of the second file (its lines 2–7) are rows the first file had.
        let overlapIDs = try Self.madeIDs((5...10).map { (day($0), "ランチ", 800, 1) })
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let once = try await CLI.run(["register", first], environment: env)
            #expect(once.status == 0, "\(once.stderr)")
            #expect(try await server.items().map(\.date.compact) == (1...10).map(day))

            let result = try await CLI.run(["register", "--explain", second], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let stored = try await server.items()
            #expect(stored.map(\.date.compact).sorted() == (1...15).map(day), "each day once")
            #expect(
                stored.dropFirst(10).map(\.date.compact) == (11...15).map(day), "the second run sent days 11–15 only")
            #expect(try await Self.posts(server) == 2)

            for (offset, id) in overlapIDs.enumerated() {
                let line =
                    "\(second):\(offset + 2): skipped, already there: id \(id) is already on the server (its id is made "
                    + "from its date, name and price and its place among such rows: the same row was imported before)"
                #expect(result.stderr.contains(line), "day \(offset + 5): \(result.stderr)")
            }
            #expect(Self.line(startingWith: "\(second):8:", in: result.stderr) == nil, "day 11 is new")
        }
    }

    @Test func anItemEnteredAnotherWayIsMatchedByTheStatementsRow() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let typedID = "A1B2C3D4-0000-4000-8000-000000000001"
        let file = try Self.write(
            [
                ["date", "name", "price", "category"],
                ["2024/3/5", "パン", "250", "0"],
                ["2024/3/6", "牛乳", "198", "0"],
            ], "march.csv", in: home)
        try await withServer { server in
            // Typed in the app on the day, with the app's random id.
            try await server.seed([Samples.item(typedID, "20240305", "パン", 250)])
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(["register", "--explain", file], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "\(file):2: matched, not sent: the same purchase as 2024-03-05 パン ¥250 (id \(typedID)) "
                        + "on the server: the same amount, the same day, the same name"), "\(result.stderr)")
            let stored = try await server.items()
            #expect(stored.map(\.name) == ["パン", "牛乳"])
            #expect(stored.first?.id == typedID)
        }
    }

    @Test func aRowAnEarlierFileOfTheRunHadIsReportedAsADuplicateOfThatFile() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let a = try Self.write(
            [
                ["date", "name", "price", "category"],
                ["2024/4/1", "パン", "250", "0"],
                ["2024/4/2", "牛乳", "198", "0"],
                ["2024/4/3", "卵", "300", "0"],
            ], "a.csv", in: home)
        let b = try Self.write(
            [
                ["date", "name", "price", "category"],
                ["2024/4/2", "牛乳", "198", "0"],
                ["2024/4/3", "卵", "300", "0"],
                ["2024/4/4", "お茶", "150", "0"],
            ], "b.csv", in: home)
        let reportPath = home.url.appendingPathComponent("report.json").path
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(["register", "--record", reportPath, a, b], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let stored = try await server.items()
            #expect(stored.map(\.name) == ["パン", "牛乳", "卵", "お茶"], "a's rows and b's new one, each once")
            #expect(stored.map(\.date.compact) == ["20240401", "20240402", "20240403", "20240404"])

            let report = try ReportDocument(path: reportPath)
            #expect(report.exitCode == 0)
            #expect(report.rows.filter { $0.file == a }.map(\.status) == ["added", "added", "added"])
            let ofB = report.rows.filter { $0.file == b }
            #expect(ofB.map(\.line) == [2, 3, 4])
            #expect(ofB.map(\.status) == ["duplicate", "duplicate", "added"])
            for row in ofB.prefix(2) {
                #expect(
                    row.reasons?.contains { $0.contains("the same row as one of \(a), read earlier in this run") }
                        == true,
                    "line \(row.line): \(String(describing: row.reasons))")
            }
        }
    }

    @Test func allowDuplicatesLiftsOnlyStatementMatchingNotTheMadeIDs() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try Self.write(Self.coffeeRows, "coffee.csv", in: home)
        let made = try Self.coffeeIDs()
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let first = try await CLI.run(["register", file], environment: env)
            #expect(first.status == 0, "\(first.stderr)")
            let before = try await server.items()
            #expect(Set(before.map(\.id)) == Set(made))

            // The same statement again: its rows are there by id, which --allow-duplicates never sends twice.
            let again = try await CLI.run(["register", "--allow-duplicates", file], environment: env)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stderr.contains("Nothing to send: every valid row is already there."))
            #expect(try await server.items().count == before.count)

            // A JSON item without an id is a purchase of its own, with a random id: the second coffee of the day is sent
            // although it looks like the first, with or without --allow-duplicates.
            let coffee = #"{"date":"20261103","name":"コーヒー","price":178,"category":0}"#
            let sent = try await CLI.run(["register", "-"], environment: env, stdin: coffee)
            #expect(sent.status == 0, "\(sent.stderr)")
            let stored = try await server.items()
            #expect(stored.count == before.count + 1)
            let added = try #require(stored.last)
            #expect(
                !made.contains(added.id) && UUID(uuidString: added.id) != nil && added.id == added.id.uppercased(),
                "\(added.id)")
        }
    }
}

extension CLIImportFilesTests {
    @Test func aFileRefusedWholeBetweenTwoOverlappingOnesDoesNotMakeTheRunForgetTheFirst() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let header = ["date", "name", "price", "category"]
        let first = try Self.write(
            [header, ["20270102", "パン", "300", "0"], ["20270103", "牛乳", "200", "0"]], "a.csv", in: home)
        // An unclosed quote: the file cannot be read as CSV, so none of it counts, not even its rows before the error.
        let broken = try home.write("bad.csv", "date,name,price,category\n\"20270105,x,1,0\n")
        let third = try Self.write(
            [header, ["20270102", "パン", "300", "0"], ["20270104", "卵", "250", "0"]], "c.csv", in: home)
        let reportPath = home.url.appendingPathComponent("report.json").path
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(
                ["register", "--on-invalid", "skip", "--explain", "--record", reportPath, first, broken, third],
                environment: env)
            #expect(result.status == 65, "\(result.stderr)")
            #expect(result.stderr.contains("\(broken) could not be read at all"), "\(result.stderr)")
            let stored = try await server.items()
            #expect(stored.map(\.name) == ["パン", "牛乳", "卵"], "c.csv's bread is a.csv's, sent once")
            #expect(Set(stored.map(\.id)).count == stored.count)
            #expect(
                result.stderr.contains(
                    "\(third):2: skipped, already there: the same row as one of \(first), read earlier in this run"),
                "\(result.stderr)")
            let report = try ReportDocument(path: reportPath)
            #expect(report.rows.filter { $0.file == third }.map(\.status) == ["duplicate", "added"])
        }
    }
}
