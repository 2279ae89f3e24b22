import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation
import Testing

/// Text as Shift_JIS bytes, the way Japanese banks and apps export CSV.
func shiftJISBytes(_ text: String) throws -> [UInt8] {
    Array(try #require(text.data(using: .shiftJIS), "'\(text)' should encode as Shift_JIS"))
}

/// The decoded text and the encoding used, failing the test on a problem.
private func decoded(_ bytes: [UInt8], declared: TextEncoding? = nil) throws -> (text: String, encoding: TextEncoding) {
    switch TextEncoding.utf8Bytes(of: bytes, declared: declared, name: "in.csv") {
    case .success(let result):
        return (
            try #require(String(validating: result.bytes, as: UTF8.self), "the result must be UTF-8"), result.encoding
        )
    case .failure(let problem):
        Issue.record("unexpected problem: \(problem)")
        throw problem
    }
}

/// The problem decoding gives, failing the test when it decodes.
private func decodingProblem(_ bytes: [UInt8], declared: TextEncoding? = nil) throws -> ValidationProblem {
    switch TextEncoding.utf8Bytes(of: bytes, declared: declared, name: "in.csv") {
    case .success(let result):
        Issue.record("decoded as \(result.encoding) but should have been refused")
        throw CancellationError()
    case .failure(let problem): return problem
    }
}

@Suite("Detecting and decoding text encodings")
struct TextEncodingTests {
    @Test("UTF-8 text is kept as it is")
    func utf8() throws {
        let result = try decoded(Array("日付,品名\n2024/1/22,コーヒー\n".utf8))
        #expect(result.text == "日付,品名\n2024/1/22,コーヒー\n")
        #expect(result.encoding == .utf8)
    }

    @Test("a UTF-8 byte order mark is dropped, detected or declared", arguments: [TextEncoding?.none, .utf8])
    func utf8BOM(declared: TextEncoding?) throws {
        let result = try decoded([0xEF, 0xBB, 0xBF] + Array("date,name\n".utf8), declared: declared)
        #expect(result.text == "date,name\n")
        #expect(result.encoding == .utf8)
    }

    @Test(
        "Shift_JIS is detected when the bytes are not valid UTF-8, and declaring it gives the same text",
        arguments: [TextEncoding?.none, .shiftJIS])
    func shiftJIS(declared: TextEncoding?) throws {
        let text = "日付,品名,金額\r\n2024/1/22,コーヒー,178\r\n2024/1/23,お茶・菓子,300\r\n"
        let result = try decoded(try shiftJISBytes(text), declared: declared)
        #expect(result.text == text)
        #expect(result.encoding == .shiftJIS)
    }

    @Test(
        "CP932 extensions that Windows exports use decode",
        arguments: [
            ([0x87, 0x40], "①"),  // NEC special character
            ([0xFB, 0xFC], "髙"),  // IBM extension (the "ladder" taka)
            ([0x87, 0x54], "Ⅰ"),
        ])
    func cp932Extensions(bytes: [UInt8], expected: String) throws {
        let input = Array("name\r\n".utf8) + bytes + [0x0D, 0x0A]
        let result = try decoded(input)
        #expect(result.text == "name\r\n\(expected)\r\n")
        #expect(result.encoding == .shiftJIS)
    }

    @Test("Shift_JIS bytes declared as UTF-8 are refused at the line they start on, suggesting --encoding shift_jis")
    func declaredUTF8OnShiftJIS() throws {
        let bytes = try shiftJISBytes("date,name,price,category\n20240122,tea,1,0\n20240123,コーヒー,2,0\n")
        let problem = try decodingProblem(bytes, declared: .utf8)
        #expect(problem.location == SourceLocation(file: "in.csv", line: 3))
        #expect(problem.message.contains("--encoding shift_jis"))
    }

    @Test("bytes that are neither UTF-8 nor Shift_JIS are refused at the line of the first bad byte")
    func undecodableAfterASCII() throws {
        let bytes = Array("date,name\n20240122,ok\n20240123,".utf8) + [0xFF, 0xFF] + Array("\n".utf8)
        let problem = try decodingProblem(bytes)
        #expect(problem.location == SourceLocation(file: "in.csv", line: 3))
        #expect(problem.message.contains("neither UTF-8 nor Shift_JIS"))
    }

    @Test("a bad byte after Shift_JIS text is reported at its own line, not at the first Shift_JIS line")
    func undecodableAfterShiftJIS() throws {
        let bytes = try shiftJISBytes("date,name\n20240122,コーヒー\n") + Array("20240123,".utf8) + [0xFF, 0xFF, 0x0A]
        let problem = try decodingProblem(bytes)
        #expect(problem.location == SourceLocation(file: "in.csv", line: 3))
        #expect(problem.message.contains("neither UTF-8 nor Shift_JIS"))
    }

    @Test("a bad byte in a file that starts with a UTF-8 byte order mark is refused at its line, not passed on")
    func undecodableAfterBOM() throws {
        let bytes = [0xEF, 0xBB, 0xBF] + Array("date,name\n20240122,".utf8) + [0xFF, 0xFE, 0x0A]
        let problem = try decodingProblem(bytes)
        #expect(problem.location == SourceLocation(file: "in.csv", line: 2))
    }

    @Test(
        "bytes declared as Shift_JIS that are not are refused at the line of the first bad byte, suggesting --encoding utf-8"
    )
    func declaredShiftJISUndecodable() throws {
        let bytes = try shiftJISBytes("date,name\n20240122,コーヒー\n") + Array("20240123,".utf8) + [0xFF, 0xFF, 0x0A]
        let problem = try decodingProblem(bytes, declared: .shiftJIS)
        #expect(problem.location.line == 3)
        #expect(problem.message.contains("--encoding utf-8"))
    }

    @Test(
        "UTF-16 text is refused at line 1 with advice, whatever its byte order or declared encoding",
        arguments: [
            ([UInt8(0xFF), 0xFE], TextEncoding?.none), ([0xFE, 0xFF], .none), ([0xFF, 0xFE], .utf8),
            ([0xFE, 0xFF], .shiftJIS),
        ])
    func utf16(bom: [UInt8], declared: TextEncoding?) throws {
        let problem = try decodingProblem(bom + [0x64, 0x00, 0x61, 0x00, 0x0A, 0x00], declared: declared)
        #expect(problem.location == SourceLocation(file: "in.csv", line: 1))
        #expect(problem.message.contains("UTF-16"))
    }

    @Test(
        "encoding names are read as users write them",
        arguments: [
            ("utf-8", TextEncoding?.some(.utf8)), ("UTF-8", .utf8), ("utf8", .utf8), ("utf_8", .utf8),
            ("shift_jis", .shiftJIS), ("Shift_JIS", .shiftJIS), ("shift-jis", .shiftJIS), ("sjis", .shiftJIS),
            ("SJIS", .shiftJIS), ("cp932", .shiftJIS), ("windows-31j", .shiftJIS), ("Windows-31J", .shiftJIS),
            ("MS932", .shiftJIS),
            ("euc-jp", nil), ("latin1", nil), ("utf-16", nil), ("", nil),
        ])
    func names(name: String, encoding: TextEncoding?) {
        #expect(TextEncoding(name: name) == encoding)
    }

    @Test("every name shown in help is one that is read")
    func helpNames() {
        #expect(TextEncoding.names.allSatisfy { TextEncoding(name: $0) != nil })
        #expect(Set(TextEncoding.names.compactMap(TextEncoding.init(name:))) == Set(TextEncoding.allCases))
    }
}

@Suite("Reading encoded register input")
struct EncodedInputTests {
    @Test("a Shift_JIS CSV with the sheet's Japanese header reads without naming a format or an encoding")
    func shiftJISSheetCSV() throws {
        let text = "ID,日付,品名,金額,項目,サブ項目\r\nA1,2024/1/22,コーヒー,\"\\1,500\",0,1\r\nA2,20240123,お弁当,680円,0,0\r\n"
        let read = InputReader.read(try shiftJISBytes(text), name: "kakeibo.csv", format: nil)
        #expect(read.problems.isEmpty, "\(read.problems)")
        let checked = read.drafts.validatedAll()
        #expect(checked.problems.isEmpty, "\(checked.problems)")
        #expect(
            checked.items == [
                Item(id: "A1", date: try day(2024, 1, 22), name: "コーヒー", price: 1500, category: 0, categorySub: 1),
                Item(id: "A2", date: try day(2024, 1, 23), name: "お弁当", price: 680, category: 0, categorySub: 0),
            ])
        #expect(checked.locations.map(\.line) == [2, 3])
    }

    @Test("an encoding problem is the only outcome: no drafts are read from undecodable text")
    func encodingProblemOnly() throws {
        let bytes = try shiftJISBytes("date,name,price,category\n20240122,コーヒー,1,0\n")
        let read = InputReader.read(bytes, name: "x.csv", format: .csv, encoding: .utf8)
        #expect(read.drafts.isEmpty)
        #expect(read.problems.map(\.location) == [SourceLocation(file: "x.csv", line: 2)])
    }

    @Test("a profile's encoding is used unless --encoding names another")
    func profileEncoding() throws {
        var profile = ImportProfile(
            name: "bank", description: "", columns: [.date: ["日付"], .name: ["摘要"], .price: ["金額"]])
        profile.defaultCategory = 0
        profile.encoding = .utf8
        let bytes = try shiftJISBytes("日付,摘要,金額\n20240122,コンビニ,500\n")
        let refused = InputReader.read(bytes, name: "b.csv", format: .csv, profile: profile)
        #expect(refused.problems.first?.message.contains("--encoding shift_jis") == true)
        let read = InputReader.read(bytes, name: "b.csv", format: .csv, encoding: .shiftJIS, profile: profile)
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.drafts.map(\.name) == [.text("コンビニ")])
    }

    @Test("UTF-8 JSON with a byte order mark is recognised as JSON after decoding")
    func bomJSON() throws {
        let bytes = [0xEF, 0xBB, 0xBF] + Array(#"[{"date":"20240122","name":"紅茶","price":200,"category":0}]"#.utf8)
        let read = InputReader.read(bytes, name: "-", format: nil)
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.drafts.map(\.name) == [.text("紅茶")])
    }
}
