import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogUseCases
import Testing

/// Reads text as a named input in a format.
func readInput(_ text: String, format: InputFormat, name: String = "in") -> ReadOutcome {
    InputReader.read(Array(text.utf8), name: name, format: format)
}

/// The valid items of an input that must read without any problem.
func readItems(_ text: String, format: InputFormat) throws -> [Item] {
    let read = readInput(text, format: format)
    try #require(read.problems.isEmpty, "\(read.problems)")
    let validated = read.drafts.validatedAll(catalogue: .wide)
    try #require(validated.problems.isEmpty, "\(validated.problems)")
    return validated.items
}

/// The one problem an input has, failing the test unless there is exactly one.
func onlyProblem(_ text: String, format: InputFormat) throws -> ValidationProblem {
    let problems = readInput(text, format: format).problems
    try #require(problems.count == 1, "\(problems)")
    return problems[0]
}

@Suite("Reading register input")
struct InputReaderTests {
    @Test(
        "the extension names the format",
        arguments: [
            ("items.json", InputFormat?.some(.json)), ("A.JSON", .json), ("x.ndjson", .ndjson), ("x.jsonl", .ndjson),
            ("dir/x.csv", .csv), ("x.CSV", .csv), ("x.txt", nil), ("noext", nil), ("-", nil),
        ])
    func formatFromFileName(name: String, format: InputFormat?) {
        #expect(InputFormat(fileName: name) == format)
    }

    @Test(
        "the content names the format when the extension does not",
        arguments: [
            ("[\n  {\"a\": 1}\n]", InputFormat.json),
            ("\n  [{\"a\": 1}]", .json),
            ("\u{FEFF}[]", .json),
            ("{\n  \"date\": \"20240122\",\n  \"name\": \"x\"\n}\n", .json),
            ("{\"a\": 1}\n", .json),
            ("{\"a\": 1}\n{\"a\": 2}\n", .ndjson),
            ("{\"a\": 1}\r\n\r\n{\"a\": 2}", .ndjson),
            ("date,name,price,category\n20240122,x,1,0\n", .csv),
            ("ID,日付,品名,金額,項目,サブ項目\n", .csv),
            ("", .csv),
        ])
    func formatFromContent(text: String, format: InputFormat) {
        #expect(InputFormat(sniffing: Array(text.utf8)) == format)
    }

    @Test("a JSON object is one draft with its fields as written")
    func jsonObject() throws {
        let read = readInput(
            #"{"id":"A","date":"20240122","name":"コーヒー","price":178,"category":0,"categorySub":null}"#, format: .json)
        #expect(read.problems.isEmpty)
        let draft = try #require(read.drafts.first)
        #expect(read.drafts.count == 1)
        #expect(
            [draft.id, draft.date, draft.name, draft.price, draft.category, draft.categorySub]
                == [.text("A"), .text("20240122"), .text("コーヒー"), .integer(178), .integer(0), .null])
    }

    @Test("a JSON array gives one draft per element at the element's line")
    func jsonArray() throws {
        let text = """
            [
              {"date":"20240122","name":"コーヒー","price":178,"category":0,"categorySub":1},
              {
                "date": "2024-01-10", "name": "紅茶", "price": 200.5, "category": 0
              }
            ]
            """
        let read = readInput(text, format: .json, name: "a.json")
        #expect(
            read.drafts.map(\.location) == [
                SourceLocation(file: "a.json", line: 2), SourceLocation(file: "a.json", line: 3),
            ])
        #expect(read.drafts.last?.price == .other("the number 200.5"))
        #expect(read.drafts.last?.categorySub == .missing)
    }

    @Test("NDJSON gives one draft per non-blank line and reports a bad line without losing the others")
    func ndjson() throws {
        let text =
            "{\"date\":\"20240122\",\"name\":\"a\",\"price\":1,\"category\":0}\n\n{\"date\":\n{\"date\":\"20240123\",\"name\":\"b\",\"price\":2,\"category\":1}\n"
        let read = readInput(text, format: .ndjson)
        #expect(read.drafts.map(\.location.line) == [1, 4])
        #expect(read.problems.map(\.location.line) == [3])
        #expect(read.problems.first?.message.contains("invalid JSON") == true)
    }

    @Test("CSV with the native header reads every column, id and categorySub optional")
    func csvNative() throws {
        let items = try readItems(
            "date,name,price,category\n20240122,\"コーヒー, 大\",178,0\n2024/1/5,紅茶,-200,1\n", format: .csv)
        #expect(items.map(\.name) == ["コーヒー, 大", "紅茶"])
        #expect(items.map(\.date) == [try day(2024, 1, 22), try day(2024, 1, 5)])
        #expect(items.map(\.price) == [178, -200])
        #expect(items.allSatisfy { $0.categorySub == nil })
    }

    @Test("CSV with the sheet's Japanese header reads the same fields")
    func csvJapanese() throws {
        let text = "ID,日付,品名,金額,項目,サブ項目\r\n100000BF,2024-01-22,コーヒー,178,0,1\r\n200000BF,20240110,紅茶,200,0,\r\n"
        let items = try readItems(text, format: .csv)
        #expect(
            items == [
                Item(id: "100000BF", date: try day(2024, 1, 22), name: "コーヒー", price: 178, category: 0, categorySub: 1),
                Item(id: "200000BF", date: try day(2024, 1, 10), name: "紅茶", price: 200, category: 0, categorySub: nil),
            ])
    }

    @Test("CSV columns may come in any order and with a BOM")
    func csvReordered() throws {
        let items = try readItems("\u{FEFF}price,category,name,date\n500,1,本,20240301\n", format: .csv)
        #expect(items.map(\.price) == [500])
        #expect(items.map(\.name) == ["本"])
    }

    @Test("a CSV header without a required column is reported at its line, naming the column")
    func csvMissingColumn() throws {
        let problem = try onlyProblem("\n\ndate,name,price\n20240122,x,1\n", format: .csv)
        #expect(problem.location.line == 3)
        #expect(problem.message.contains("category"))
    }

    @Test("an unknown CSV column is ignored with one warning naming it")
    func csvUnknownColumn() throws {
        let read = readInput("date,name,price,category,memo,tag\n20240122,x,1,0,hi,a\n20240123,y,2,0,,\n", format: .csv)
        #expect(read.problems.isEmpty)
        #expect(read.drafts.count == 2)
        #expect(
            read.warnings.map(\.description) == [
                "in:1: ignored the columns 'memo', 'tag' (an item has id, date, name, price, category, categorySub)"
            ])
    }

    @Test("a CSV record with the wrong number of fields is reported at its own line")
    func csvFieldCount() throws {
        let text = "date,name,price,category\n20240122,a,1,0\n\"20240123\",\"b\nc\",2\n20240124,d,3,0\n"
        let read = readInput(text, format: .csv)
        #expect(read.problems.map(\.location.line) == [3])
        #expect(read.problems.first?.message.contains("3 fields") == true)
        #expect(read.drafts.map(\.location.line) == [2, 5])
    }

    @Test("a CSV syntax error is reported at its line")
    func csvSyntaxError() throws {
        let problem = try onlyProblem("date,name,price,category\n20240122,\"open,1,0\n", format: .csv)
        #expect(problem.location.line == 2)
        #expect(problem.message.contains("invalid CSV"))
    }

    @Test("a CSV syntax error refuses the whole file, even after rows that were already handed out")
    func csvSyntaxErrorRefusesTheWholeFile() throws {
        let bytes = Array("date,name,price,category\n20240122,a,1,0\n20240123,b,2,0\n20240124,\"open,3,0\n".utf8)
        var handed: [Int] = []
        let streamed = InputReader.read(bytes, name: "in.csv", format: .csv) { handed.append($0.location.line) }
        #expect(handed == [2, 3])
        #expect(streamed.refusedWhole)
        #expect(streamed.problems.map(\.location.line) == [4])
        let collected = InputReader.read(bytes, name: "in.csv", format: .csv)
        #expect(collected.drafts.isEmpty && collected.refusedWhole)
    }

    @Test("CSV that is neither UTF-8 nor Shift_JIS is refused at the line of the first bad byte, with a hint")
    func csvUndecodable() throws {
        let bytes =
            Array("date,name,price,category\n20240122,ok,1,0\n20240123,".utf8) + [0xFF, 0xFF] + Array(",1,0\n".utf8)
        let problems = InputReader.read(bytes, name: "bad.csv", format: .csv).problems
        #expect(problems.map(\.location) == [SourceLocation(file: "bad.csv", line: 3)])
        #expect(problems.first?.message.contains("neither UTF-8 nor Shift_JIS") == true)
    }

    @Test("an unknown JSON key is reported at its item, naming the key")
    func unknownKey() throws {
        let problem = try onlyProblem(
            "[\n  {\"date\":\"20240122\",\"name\":\"x\",\"price\":1,\"category\":0,\"memo\":\"hi\"}\n]", format: .json)
        #expect(problem.location.line == 2)
        #expect(problem.field == "memo")
    }

    @Test("an array element that is not an object is reported at its line")
    func nonObjectElement() throws {
        let text = "[\n  {\"date\":\"20240122\",\"name\":\"x\",\"price\":1,\"category\":0},\n  42,\n  \"text\"\n]"
        let read = readInput(text, format: .json)
        #expect(read.drafts.count == 1)
        #expect(read.problems.map(\.location.line) == [3, 4])
        #expect(read.problems.first?.message.contains("42") == true)
    }

    @Test("a JSON syntax error is reported once, at its line, with the input's name")
    func jsonSyntaxError() throws {
        let problem = try onlyProblem("[\n  {\"date\":\"20240122\",},\n]", format: .json)
        #expect(problem.location == SourceLocation(file: "in", line: 2))
        #expect(problem.message.contains("invalid JSON"))
    }
}
