import ExpenseLogFormats
import ExpenseLogImport
import Testing

/// The records' lines and fields, for comparing in one expectation.
func lineFields(_ text: String) throws -> [[String]] {
    try CSV.parse(text).map { [String($0.line)] + $0.fields }
}

@Suite("CSV reading and quoting")
struct CSVTests {
    @Test("splits records and fields, numbering lines from 1")
    func plain() throws {
        #expect(try lineFields("a,b,c\n1,2,3\n") == [["1", "a", "b", "c"], ["2", "1", "2", "3"]])
    }

    @Test("keeps empty fields, also at the end of a record")
    func emptyFields() throws {
        #expect(try lineFields("a,,c\nd,\n,") == [["1", "a", "", "c"], ["2", "d", ""], ["3", "", ""]])
    }

    @Test("reads the last record without a final newline")
    func noFinalNewline() throws {
        #expect(try lineFields("a,b\nc,d") == [["1", "a", "b"], ["2", "c", "d"]])
    }

    @Test("a quoted field may hold commas")
    func quotedComma() throws {
        #expect(try lineFields("\"x,y\",z\n") == [["1", "x,y", "z"]])
    }

    @Test("a doubled quote inside quotes is one quote")
    func doubledQuotes() throws {
        #expect(try lineFields("\"say \"\"hi\"\"\",b\n\"\"\"\",\"\"") == [["1", "say \"hi\"", "b"], ["2", "\"", ""]])
    }

    @Test(
        "a newline inside quotes belongs to the field; the record keeps its first line and the next record's line is right"
    )
    func newlineInQuotes() throws {
        let text = "h1,h2\n\"line1\nline2\nline3\",b\nc,d\n"
        #expect(try lineFields(text) == [["1", "h1", "h2"], ["2", "line1\nline2\nline3", "b"], ["5", "c", "d"]])
    }

    @Test("CRLF ends records and stays inside quoted fields")
    func crlf() throws {
        #expect(
            try lineFields("a,b\r\nc,\"x\r\ny\"\r\ne,f\r\n") == [
                ["1", "a", "b"], ["2", "c", "x\r\ny"], ["4", "e", "f"],
            ])
    }

    @Test("blank lines are skipped but still counted")
    func blankLines() throws {
        #expect(try lineFields("a,b\n\n\r\nc,d\n\n") == [["1", "a", "b"], ["4", "c", "d"]])
        #expect(try CSV.parse("\n\n").isEmpty)
        #expect(try CSV.parse("").isEmpty)
    }

    @Test("keeps Japanese text and spaces as written")
    func japanese() throws {
        #expect(try lineFields("品名, 金額 \nコーヒー,178") == [["1", "品名", " 金額 "], ["2", "コーヒー", "178"]])
    }

    @Test("reports a quote that is never closed at the line where it opens")
    func unclosedQuote() throws {
        let error = try #require(throws: CSV.SyntaxError.self) { try CSV.parse("a,b\nc,d\ne,\"open\nmore\nstill\n") }
        #expect(error.line == 3)
    }

    @Test("reports stray quotes at their line", arguments: [("a,b\nab\"c,d\n", 2), ("a,b\nc,d\n\"ab\"c,d\n", 3)])
    func strayQuote(text: String, line: Int) throws {
        let error = try #require(throws: CSV.SyntaxError.self) { try CSV.parse(text) }
        #expect(error.line == line)
    }

    @Test(
        "quotes a field only when it must",
        arguments: [
            ("plain", "plain"), ("コーヒー", "コーヒー"), ("", ""),
            ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""), ("two\nlines", "\"two\nlines\""),
            (" lead", "\" lead\""), ("trail ", "\"trail \""),
        ])
    func quoting(text: String, quoted: String) {
        #expect(CSV.field(text) == quoted)
    }

    @Test(
        "quoted fields parse back to the same values",
        arguments: [
            ["a,b", "say \"hi\"", "コーヒー"],
            ["two\nlines", "\"", "", "x"],
            ["cr\r\nlf", " padded ", ",", "\"\""],
            ["", ""],
        ])
    func roundTrip(fields: [String]) throws {
        let line = fields.map(CSV.field).joined(separator: ",")
        let records = try CSV.parse("h\n" + line + "\nlast\n")
        #expect(records.map(\.fields) == [["h"], fields, ["last"]])
        let newlines = fields.joined().filter { $0 == "\n" || $0 == "\r\n" }.count
        #expect(records.last?.line == 3 + newlines)
    }
}
