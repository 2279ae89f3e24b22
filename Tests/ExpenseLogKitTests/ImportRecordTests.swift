import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import Foundation
import Testing

/// A valid coffee with an id.
private func coffee(_ id: String, price: Int = 178) throws -> Item {
    Item(id: id, date: try day(2024, 1, 22), name: "コーヒー", price: price, category: 0, categorySub: 1)
}

/// A place in an input.
private func at(_ file: String, _ line: Int) -> ExpenseLogModel.SourceLocation {
    ExpenseLogModel.SourceLocation(file: file, line: line)
}

/// A report row for a valid item.
private func row(
    _ file: String, _ line: Int, _ item: Item, _ status: ImportRecord.Status = .notSent
) -> ImportRecord.Row {
    ImportRecord.Row(location: at(file, line), status: status, item: item)
}

/// The report's JSON decoded, failing the test when it is not a JSON object.
private func decodedReport(_ report: ImportRecord, exitCode: Int32 = 0, spool: ItemSpool? = nil) throws -> [String: Any]
{
    let json = try report.json(exitCode: exitCode, spool: spool)
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
    return try #require(object as? [String: Any], "not a JSON object: \(json)")
}

/// The rows of a decoded report.
private func reportRows(_ object: [String: Any]) throws -> [[String: Any]] {
    try #require(object["rows"] as? [[String: Any]])
}

@Suite("The import report: a row per input row")
struct ImportRecordTests {
    @Test("problems become one invalid row per location, with every reason in order")
    func appendInvalid() {
        var report = ImportRecord(files: ["a.csv"])
        report.appendInvalid([
            ValidationProblem(location: at("a.csv", 2), field: "date", message: "is missing"),
            ValidationProblem(location: at("a.csv", 2), field: "price", message: "must not be 0"),
            ValidationProblem(location: at("a.csv", 4), field: nil, message: "has 5 fields but the header has 4"),
            ValidationProblem(location: at("a.csv", 2), field: "name", message: "is empty"),
            ValidationProblem(location: at("b.csv", 2), field: nil, message: "invalid JSON"),
        ])
        #expect(report.rows.map(\.location) == [at("a.csv", 2), at("a.csv", 4), at("b.csv", 2)])
        #expect(report.rows.allSatisfy { $0.status == .invalid && $0.item == nil })
        #expect(
            report.rows.map(\.reasons) == [
                ["date: is missing", "price: must not be 0", "name: is empty"], ["has 5 fields but the header has 4"],
                ["invalid JSON"],
            ])
        #expect(report.count(.invalid) == 3)
    }

    @Test(
        "marking rows changes only those rows, adding reasons and what they matched; a row number not there is ignored")
    func mark() throws {
        var report = ImportRecord()
        let (a, b, c) = (try coffee("A"), try coffee("B"), try coffee("C"))
        for (line, item) in [a, b, c].enumerated() { report.append(row("in.csv", line + 2, item)) }
        let known = KnownItem(item: try coffee("S1"), place: .server)
        report.mark(row: 1, .matched, reasons: ["the same purchase as S1"], matched: known)
        report.mark(row: 0, .added)
        report.mark(row: 3, .added)
        #expect(report.rows.map(\.status) == [.added, .matched, .notSent])
        #expect(report.rows.map(\.reasons) == [[], ["the same purchase as S1"], []])
        #expect(report.rows[1].matched == known)
        #expect(report.rows[0].matched == nil && report.rows[2].matched == nil)
        #expect(report.rows.count == 3)
        report.mark(row: 1, .queued, reasons: ["network down"])
        #expect(report.rows[1].status == .queued)
        #expect(report.rows[1].reasons == ["the same purchase as S1", "network down"])
        #expect(report.rows[1].matched == known)
    }

    @Test("count gives the rows of each status")
    func count() throws {
        var report = ImportRecord()
        report.append(row("in.csv", 2, try coffee("A"), .added))
        report.append(row("in.csv", 3, try coffee("B"), .added))
        report.append(ImportRecord.Row(location: at("in.csv", 4), status: .excluded, reasons: ["income (収入)"]))
        #expect(report.count(.added) == 2)
        #expect(report.count(.excluded) == 1)
        #expect(report.count(.queued) == 0)
    }

    @Test(
        "the summary names the non-zero counts in a fixed order",
        arguments: [
            ([ImportRecord.Status](), "no rows"),
            ([.invalid, .added, .added], "2 added, 1 invalid"),
            (
                [
                    .notSent, .excluded, .invalid, .matched, .held, .skipped, .duplicate, .duplicate, .rejected,
                    .queued, .added, .added, .added,
                ],
                "3 added, 1 queued in the outbox, 1 refused by the server, 2 skipped as already there (same id), "
                    + "1 matched to items already there (not sent), 1 held for you to decide, 1 skipped as decided, 1 invalid, "
                    + "1 left out by the profile, 1 valid but not sent"
            ),
        ])
    func summary(statuses: [ImportRecord.Status], expected: String) {
        var report = ImportRecord()
        for (line, status) in statuses.enumerated() {
            report.append(ImportRecord.Row(location: at("in.csv", line + 2), status: status))
        }
        #expect(report.summary == expected)
    }

    @Test("the JSON report is valid JSON with the exit code and a count for every status")
    func jsonCounts() throws {
        var report = ImportRecord(files: ["in.csv"])
        report.append(row("in.csv", 2, try coffee("A"), .added))
        report.appendInvalid([ValidationProblem(location: at("in.csv", 3), field: "price", message: "is missing")])
        let object = try decodedReport(report, exitCode: 65)
        #expect(object["exitCode"] as? Int == 65)
        let counts = try #require(object["counts"] as? [String: Int])
        #expect(Set(counts.keys) == Set(ImportRecord.Status.allCases.map(\.rawValue)))
        #expect(
            counts["added"] == 1 && counts["invalid"] == 1 && counts["matched"] == 0 && counts["held"] == 0
                && counts["not-sent"] == 0)
    }

    @Test("the JSON rows follow the order of the files, then the line, whatever order they were added in")
    func jsonOrder() throws {
        var report = ImportRecord(files: ["b.csv", "a.csv"])
        report.append(row("a.csv", 2, try coffee("A2")))
        report.append(row("b.csv", 5, try coffee("B5")))
        report.appendInvalid([ValidationProblem(location: at("a.csv", 1), field: nil, message: "unknown column 'memo'")]
        )
        report.append(row("c.csv", 1, try coffee("C1")))
        report.append(row("b.csv", 3, try coffee("B3")))
        let rows = try reportRows(try decodedReport(report))
        #expect(
            rows.map { "\($0["file"] as? String ?? "?"):\($0["line"] as? Int ?? 0)" } == [
                "b.csv:3", "b.csv:5", "a.csv:1", "a.csv:2", "c.csv:1",
            ])
    }

    @Test(
        "a JSON row holds its status, the item in the wire format, its reasons, the matched item with its place, and a held row's candidates"
    )
    func jsonRow() throws {
        var report = ImportRecord(files: ["in.csv"])
        report.append(row("in.csv", 2, try coffee("A")))
        report.append(row("in.csv", 3, try coffee("B", price: -50)))
        report.mark(
            row: 1, .matched, reasons: ["the same purchase"], matched: KnownItem(item: try coffee("Q"), place: .outbox))
        report.append(row("in.csv", 4, try coffee("C")))
        report.mark(
            row: 2, .held, reasons: ["it may be"],
            candidates: [
                KnownItem(item: try coffee("S1"), place: .server),
                KnownItem(item: try coffee("S2"), place: .server),
            ])
        let rows = try reportRows(try decodedReport(report))
        try #require(rows.count == 3)
        #expect(rows[0]["status"] as? String == "not-sent")
        #expect(rows[0]["reasons"] == nil && rows[0]["matched"] == nil)
        let item = try #require(rows[1]["item"] as? [String: Any])
        #expect(item["id"] as? String == "B" && item["date"] as? String == "20240122" && item["price"] as? Int == -50)
        #expect(item["name"] as? String == "コーヒー" && item["category"] as? Int == 0 && item["categorySub"] as? Int == 1)
        #expect(rows[1]["status"] as? String == "matched")
        #expect(rows[1]["reasons"] as? [String] == ["the same purchase"])
        let matched = try #require(rows[1]["matched"] as? [String: Any])
        #expect(matched["in"] as? String == "outbox")
        #expect((matched["item"] as? [String: Any])?["id"] as? String == "Q")
        #expect(rows[2]["status"] as? String == "held")
        let candidates = try #require(rows[2]["candidates"] as? [[String: Any]])
        #expect(candidates.map { ($0["item"] as? [String: Any])?["id"] as? String } == ["S1", "S2"])
        #expect(candidates.allSatisfy { $0["in"] as? String == "server" })
    }

    @Test("the JSON of an empty report is valid, with no rows")
    func jsonEmpty() throws {
        let object = try decodedReport(ImportRecord(files: ["in.csv"]), exitCode: 0)
        #expect(try reportRows(object).isEmpty)
        #expect((object["counts"] as? [String: Int])?.values.allSatisfy { $0 == 0 } == true)
    }

    @Test("file names and reasons with quotes, backslashes and line breaks stay valid JSON")
    func jsonEscaping() throws {
        let file = "C:\\明細\\\"2024\".csv"
        let reason = "name: 'a\tb\nc' is \"odd\" \u{01}"
        var report = ImportRecord(files: [file])
        report.appendInvalid([ValidationProblem(location: at(file, 7), field: nil, message: reason)])
        let rows = try reportRows(try decodedReport(report, exitCode: 65))
        #expect(rows.first?["file"] as? String == file)
        #expect(rows.first?["reasons"] as? [String] == [reason])
    }

    @Test(
        "a spooled row's item is read back from the spool into the JSON, and truncating forgets rows and their reasons")
    func spooledRows() throws {
        let spool = try ItemSpool()
        var report = ImportRecord(files: ["in.csv"])
        let (a, b, c) = (try coffee("A"), try coffee("B", price: 200), try coffee("C"))
        for (line, item) in [a, b].enumerated() {
            report.appendSpooled(at: at("in.csv", line + 2), offset: try spool.append(item, tag: Int32(report.count)))
        }
        let mark = report.count
        report.appendSpooled(at: at("in.csv", 9), offset: try spool.append(c, tag: Int32(report.count)))
        report.mark(row: 2, .duplicate, reasons: ["dropped"])
        report.truncate(to: mark)
        report.mark(row: 1, .added)
        #expect(report.location(ofRow: 1) == at("in.csv", 3))
        let rows = try reportRows(try decodedReport(report, spool: spool))
        #expect(rows.map { $0["status"] as? String } == ["not-sent", "added"])
        #expect(rows.map { ($0["item"] as? [String: Any])?["id"] as? String } == ["A", "B"])
        #expect(rows.map { ($0["item"] as? [String: Any])?["price"] as? Int } == [178, 200])
        #expect(rows.allSatisfy { $0["reasons"] == nil })
    }

    @Test("a line too far to pack keeps its place, in the rows, the order of the JSON and after truncating")
    func farPlaces() throws {
        var report = ImportRecord(files: ["in.csv"])
        let far = 1 << 45
        report.append(row("in.csv", far, try coffee("F")))
        report.append(row("in.csv", 2, try coffee("A")))
        report.append(row("in.csv", far + 1, try coffee("G")))
        #expect(report.rows.map(\.location) == [at("in.csv", far), at("in.csv", 2), at("in.csv", far + 1)])
        let rows = try reportRows(try decodedReport(report))
        #expect(rows.map { $0["line"] as? Int } == [2, far, far + 1])
        report.truncate(to: 1)
        report.append(row("in.csv", 3, try coffee("B")))
        #expect(report.rows.map(\.location) == [at("in.csv", far), at("in.csv", 3)])
    }

    @Test(
        "rows of files that come back, over blocks of 1,024, keep their file, line and spooled item, truncated mid-block too"
    )
    func manyRowsOverBlocks() throws {
        let spool = try ItemSpool()
        let files = ["a.csv", "b.csv", "c.csv"]
        var report = ImportRecord(files: files)
        let items = try (0..<6).map { try coffee("I\($0)", price: 100 + $0) }
        var expected: [(file: String, line: Int, id: String?)] = []
        func add(_ index: Int, _ file: String) throws {
            let line = index % 800 + 2
            if index % 3 == 0 {
                report.append(ImportRecord.Row(location: at(file, line), status: .invalid, reasons: ["bad"]))
                expected.append((file, line, nil))
            } else {
                let item = items[index % 6]
                report.appendSpooled(at: at(file, line), offset: try spool.append(item, tag: Int32(report.count)))
                expected.append((file, line, item.id))
            }
        }
        for index in 0..<3_000 { try add(index, ["a.csv", "b.csv", "a.csv", "c.csv"][index / 800]) }
        report.truncate(to: 2_500)
        expected.removeSubrange(2_500...)
        for index in 2_500..<2_700 { try add(index, "b.csv") }
        #expect((0..<report.count).map { report.location(ofRow: $0) } == expected.map { at($0.file, $0.line) })
        let order = expected.indices.sorted {
            (files.firstIndex(of: expected[$0].file)!, expected[$0].line, $0) < (
                files.firstIndex(of: expected[$1].file)!, expected[$1].line, $1
            )
        }
        let rows = try reportRows(try decodedReport(report, spool: spool))
        #expect(rows.map { "\($0["file"] ?? "")" } == order.map { expected[$0].file })
        #expect(rows.map { $0["line"] as? Int } == order.map { expected[$0].line })
        #expect(rows.map { ($0["item"] as? [String: Any])?["id"] as? String } == order.map { expected[$0].id })
    }

    @Test("truncating at a block's start, inside a file's run and to nothing keeps files and spooled items right")
    func truncationEdges() throws {
        let spool = try ItemSpool()
        var report = ImportRecord(files: ["a.csv", "b.csv", "c.csv"])
        let item = try coffee("X")
        let empty = spool.mark
        func spooled(_ file: String, _ line: Int) throws {
            report.appendSpooled(at: at(file, line), offset: try spool.append(item, tag: Int32(report.count)))
        }
        for line in 0..<100 { report.append(ImportRecord.Row(location: at("a.csv", line), status: .invalid)) }
        for line in 0..<2_000 { try spooled("b.csv", line) }
        report.truncate(to: 50)  // inside a.csv's run: b.csv's run goes, and block 0 keeps no spooled row
        #expect(report.count == 50)
        try spool.truncate(to: empty)
        for line in 0..<10 { try spooled("c.csv", line) }
        #expect(report.location(ofRow: 49) == at("a.csv", 49))
        #expect(report.location(ofRow: 50) == at("c.csv", 0))
        var rows = try reportRows(try decodedReport(report, spool: spool))
        #expect(rows.compactMap { ($0["item"] as? [String: Any])?["id"] as? String }.count == 10)
        report.truncate(to: 0)
        #expect(report.isEmpty)
        for line in 0..<1_024 { report.append(ImportRecord.Row(location: at("a.csv", line), status: .invalid)) }
        for line in 0..<5 { try spooled("b.csv", line) }
        report.truncate(to: 1_024)  // at a block's start
        try spooled("c.csv", 7)
        #expect(report.location(ofRow: 1_024) == at("c.csv", 7))
        rows = try reportRows(try decodedReport(report, spool: spool))
        #expect(rows.last?["file"] as? String == "c.csv")
        #expect((rows.last?["item"] as? [String: Any])?["id"] as? String == "X")
    }
}
