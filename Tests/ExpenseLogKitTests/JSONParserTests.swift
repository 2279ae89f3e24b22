import ExpenseLogFormats
import ExpenseLogImport
import Testing

/// Parses UTF-8 text with the input parser.
func parseJSON(_ text: String) throws -> JSONValue {
    try JSONParser.parse(Array(text.utf8))
}

/// The line a parse error is reported on, failing the test when the text parses.
func syntaxErrorLine(_ text: String) throws -> Int {
    let error = try #require(throws: JSONSyntaxError.self) { try parseJSON(text) }
    return error.line
}

@Suite("The JSON input parser")
struct JSONParserTests {
    @Test("reads every kind of value, keeping number text and member order")
    func values() throws {
        let value = try parseJSON(#"{"s":"x","i":-12,"f":1.5e3,"t":true,"n":null,"a":[false,{}]}"#)
        let expected = JSONValue.object(
            [
                ("s", .string("x", line: 1)), ("i", .number("-12", line: 1)), ("f", .number("1.5e3", line: 1)),
                ("t", .bool(true, line: 1)), ("n", .null(line: 1)),
                ("a", .array([.bool(false, line: 1), .object([], line: 1)], line: 1)),
            ], line: 1)
        #expect(value == expected)
    }

    @Test("knows the line each element of a pretty-printed array starts on")
    func elementLines() throws {
        let text = """
            [
              {"id": 1},
              {
                "id": 2
              },

              3
            ]
            """
        guard case .array(let elements, let line) = try parseJSON(text) else {
            Issue.record("not an array")
            return
        }
        #expect(line == 1)
        #expect(elements.map(\.line) == [2, 3, 7])
        guard case .object(let members, _) = elements[1] else {
            Issue.record("not an object")
            return
        }
        #expect(members.first?.value == .number("2", line: 4))
    }

    @Test("counts blank lines before the value")
    func leadingLines() throws {
        #expect(try parseJSON("\n\r\n  [1]").line == 3)
    }

    @Test("offsets lines by firstLine")
    func firstLineOffset() throws {
        #expect(try JSONParser.parse(Array("{}".utf8), firstLine: 40).line == 40)
    }

    @Test("decodes every escape")
    func escapes() throws {
        let value = try parseJSON(#""q\" b\\ s\/ \b\f\n\r\t \u00e9\u65E5""#)
        #expect(value == .string("q\" b\\ s/ \u{08}\u{0C}\n\r\t é日", line: 1))
    }

    @Test("joins a UTF-16 surrogate pair into one character")
    func surrogatePair() throws {
        #expect(try parseJSON(#""\ud83c\udf63 \uD83D\uDE00""#) == .string("🍣 😀", line: 1))
    }

    @Test(
        "refuses broken surrogates and bad escapes",
        arguments: [#""\ud83c""#, #""\udf63""#, #""\ud83c\u0041""#, #""\ud83cx""#, #""\x""#, #""\u12""#, #""\u12G4""#])
    func badEscapes(text: String) {
        #expect(throws: JSONSyntaxError.self) { try parseJSON(text) }
    }

    @Test("keeps raw UTF-8 Japanese text")
    func rawJapanese() throws {
        #expect(try parseJSON(#"{"name":"コーヒー　豆"}"#) == .object([("name", .string("コーヒー　豆", line: 1))], line: 1))
    }

    @Test("skips a UTF-8 byte order mark")
    func byteOrderMark() throws {
        let value = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8))
        #expect(value == .object([("a", .number("1", line: 1))], line: 1))
    }

    @Test(
        "reports syntax errors at their line",
        arguments: [
            ("[\n  {\"a\": 1},\n  {\"a\": 2", 3),  // truncated
            ("[\n  1,\n  2,\n]", 4),  // trailing comma in an array
            ("{\n  \"a\": 1,\n}", 3),  // trailing comma in an object
            ("{\n  \"price\": 0178\n}", 2),  // leading zero
            ("{\n  \"name\": \"abc\n}", 2),  // string not closed on its line
            ("{\"name\": \"abc", 1),  // string cut off
            ("{\"a\":1}\n\nx", 3),  // trailing garbage
            ("[1]\n[2]", 2),  // a second document
            ("\n\n{\"a\" 1}", 3),  // missing colon
            ("[\n  -\n]", 2),  // a sign without digits
            ("[\n  1.\n]", 2),  // a point without digits
            ("\n  tru", 2),  // a cut-off word
        ])
    func errorLines(text: String, line: Int) throws {
        #expect(try syntaxErrorLine(text) == line)
    }

    @Test("refuses empty input, a lone BOM and a single quote string", arguments: ["", "   \n", "\u{FEFF}", "'a'"])
    func emptyInput(text: String) {
        #expect(throws: JSONSyntaxError.self) { try parseJSON(text) }
    }

    @Test("refuses a string that is not UTF-8")
    func invalidUTF8() {
        #expect(throws: JSONSyntaxError.self) {
            try JSONParser.parse(Array("[\"".utf8) + [0x83, 0x52] + Array("\"]".utf8))
        }
    }

    @Test(
        "accepts -0 and exponents but not leading zeros",
        arguments: [("-0", true), ("0", true), ("1E+2", true), ("00", false), ("-01", false), ("+1", false)])
    func numbers(text: String, valid: Bool) {
        #expect(((try? parseJSON(text)) != nil) == valid)
    }
}
