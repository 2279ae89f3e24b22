import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation
import Testing

/// An input handed over `size` bytes at a time, readable as often as asked; counts how often it was opened.
final class Chunks {
    let bytes: [UInt8]
    let size: Int
    private(set) var opened = 0

    init(_ bytes: [UInt8], size: Int) {
        (self.bytes, self.size) = (bytes, size)
    }

    var input: ChunkedInput {
        { [self] in
            opened += 1
            var offset = 0
            return { [self] in
                guard offset < bytes.count else { return nil }
                defer { offset += size }
                return Array(bytes[offset..<min(offset + size, bytes.count)])
            }
        }
    }
}

/// The records of CSV text read a chunk at a time, or the syntax error's line and message.
private func chunkedRecords(_ text: String, size: Int) -> String {
    var records: [CSV.Record] = []
    do {
        var reader = CSV.Reader(chunks: try Chunks(Array(text.utf8), size: size).input())
        while let record = try reader.next() { records.append(record) }
    } catch let error as CSV.SyntaxError {
        return "error at \(error.line): \(error.message)"
    } catch {
        return "\(error)"
    }
    return "\(records)"
}

/// The same, from the text held whole.
private func wholeRecords(_ text: String) -> String {
    do {
        return "\(try CSV.parse(text))"
    } catch let error as CSV.SyntaxError {
        return "error at \(error.line): \(error.message)"
    } catch {
        return "\(error)"
    }
}

/// Everything a read gives, to compare two reads in one expectation.
private func summary(_ outcome: ReadOutcome, drafts: [ItemDraft]) -> String {
    "\(drafts)|\(outcome.problems)|\(outcome.excluded)|\(outcome.warnings)|\(outcome.refusedWhole)"
}

/// Reads bytes through `InputReader.read(_ input:…)` in chunks of `size`.
private func readChunked(
    _ bytes: [UInt8], size: Int, format: InputFormat? = nil, encoding: TextEncoding? = nil,
    profile: ImportProfile = .native
) throws -> (String, opened: Int) {
    let chunks = Chunks(bytes, size: size)
    var drafts: [ItemDraft] = []
    let outcome = try InputReader.read(
        chunks.input, name: "in.csv", format: format, encoding: encoding, profile: profile
    ) {
        drafts.append($0)
    }
    return (summary(outcome, drafts: outcome.refusedWhole ? [] : drafts), chunks.opened)
}

/// Reads the same bytes held whole.
private func readWhole(
    _ bytes: [UInt8], format: InputFormat? = nil, encoding: TextEncoding? = nil,
    profile: ImportProfile = .native
) -> String {
    var drafts: [ItemDraft] = []
    let outcome = InputReader.read(bytes, name: "in.csv", format: format, encoding: encoding, profile: profile) {
        drafts.append($0)
    }
    return summary(outcome, drafts: outcome.refusedWhole ? [] : drafts)
}

struct ReadFailure: Error {}

@Suite("Reading an input a chunk at a time, never whole")
struct ChunkedInputTests {
    static let texts = [
        "a,b,c\n1,2,3\n",
        "a,,c\nd,\n,",
        "\"say \"\"hi\"\"\",b\n\"\"\"\",\"\"",
        "h1,h2\n\"line1\nline2\nline3\",b\nc,d\n",
        "a,b\r\nc,\"x\r\ny\"\r\ne,f\r\n",
        "a,b\n\n\r\nc,d\n\n",
        "品名, 金額 \nコーヒー,178\n🍣,\"寿司, 特上\"\n",
        "a,b\nc,d\ne,\"open\nmore\nstill\n",
        "a,b\nc,d\n\"ab\"c,d\n",
        "a,b\nab\"c,d\n",
        "",
        "\n\n",
    ]

    @Test(
        "CSV read in chunks of any size gives the records and errors of the text held whole",
        arguments: [1, 2, 3, 5, 7, 64])
    func csvChunks(size: Int) {
        for text in Self.texts {
            #expect(chunkedRecords(text, size: size) == wholeRecords(text), "\(text.debugDescription)")
        }
    }

    @Test("a record far longer than a chunk is read whole")
    func longRecord() throws {
        let long = String(repeating: "長い\"\"文,\n", count: 40_000)
        let text = "h,i\n\"\(long)\",x\nlast,row\n"
        #expect(chunkedRecords(text, size: 1000) == wholeRecords(text))
        #expect(try CSV.parse(text)[1].fields[0] == long.replacingOccurrences(of: "\"\"", with: "\""))
    }

    static let inputs: [(String, [UInt8], InputFormat?, TextEncoding?)] = [
        (
            "native CSV",
            Array("date,name,price,category,categorySub\n20240122,コーヒー,178,0,1\n20240123,\"紅茶, 大\",200,0,\n".utf8), nil,
            nil
        ),
        (
            "CSV with a byte order mark",
            [0xEF, 0xBB, 0xBF] + Array("date,name,price,category\n20240122,茶,1,0\n".utf8), nil, nil
        ),
        ("a CSV row that is invalid", Array("date,name,price,category\n2024-13-01,茶,0,0\n".utf8), .csv, nil),
        (
            "a broken CSV file, refused whole", Array("date,name,price,category\n20240122,茶,1,0\n\"open,1,2\n".utf8),
            nil, nil
        ),
        ("JSON", Array("[{\"date\":\"20240122\",\"name\":\"茶\",\"price\":1,\"category\":0}]".utf8), nil, nil),
        (
            "NDJSON",
            Array("{\"date\":\"20240122\",\"name\":\"茶\",\"price\":1,\"category\":0}\n{\"name\":\"x\"}\n".utf8),
            .ndjson, nil
        ),
        (
            "invalid UTF-8 declared UTF-8",
            Array("date,name,price,category\n20240122,".utf8) + [0x82, 0xA0] + Array(",1,0\n".utf8), nil, .utf8
        ),
        ("UTF-16", [0xFF, 0xFE, 0x61, 0x00], nil, nil),
        ("blank", Array(" \n\n".utf8), nil, nil),
    ]

    @Test(
        "every input reads the same in chunks as held whole, whatever its format and encoding",
        arguments: [1, 2, 3, 1 << 16])
    func inputsAgree(size: Int) throws {
        for (label, bytes, format, encoding) in Self.inputs {
            let (chunked, _) = try readChunked(bytes, size: size, format: format, encoding: encoding)
            #expect(chunked == readWhole(bytes, format: format, encoding: encoding), "\(label)")
        }
        let sjis = try shiftJISBytes("date,name,price,category\n20240122,コーヒー,178,0\n")
        #expect(try readChunked(sjis, size: size).0 == readWhole(sjis), "Shift_JIS, detected")
        #expect(
            try readChunked(sjis, size: size, encoding: .shiftJIS).0 == readWhole(sjis, encoding: .shiftJIS),
            "Shift_JIS, declared")
    }

    @Test("UTF-8 CSV is checked in one pass and parsed in a second; other inputs are read whole, once known")
    func passes() throws {
        let csv = Array("date,name,price,category\n20240122,茶,1,0\n".utf8)
        #expect(try readChunked(csv, size: 4).opened == 2)
        #expect(try readChunked(Array("[]".utf8), size: 4).opened == 2, "JSON found by its first byte")
        #expect(
            try readChunked(try shiftJISBytes("date,name\n20240122,茶\n"), size: 4).opened == 2,
            "Shift_JIS found by checking")
        #expect(try readChunked(Array("[]".utf8), size: 4, format: .json).opened == 1)
        #expect(try readChunked(try shiftJISBytes("date,name\n20240122,茶\n"), size: 4, encoding: .shiftJIS).opened == 1)
    }

    @Test(
        "a file that changes between the two passes is refused whole",
        arguments: ["20240122,茶,2,0\n", "", "20240122,茶,1,0\nX"])
    func changedBetweenPasses(change: String) throws {
        let first = Array("date,name,price,category\n20240122,茶,1,0\n".utf8)
        var opened = 0
        let input: ChunkedInput = {
            opened += 1
            let bytes = opened == 1 ? first : Array("date,name,price,category\n".utf8) + Array(change.utf8)
            var given = false
            return {
                defer { given = true }
                return given ? nil : bytes
            }
        }
        var drafts = 0
        let outcome = try InputReader.read(input, name: "in.csv", format: nil) { _ in drafts += 1 }
        #expect(outcome.refusedWhole)
        #expect(
            outcome.problems.map(\.description) == [
                "in.csv:1: the file changed while it was read; register it again once nothing is writing to it"
            ])
    }

    @Test("a character split between chunks is valid UTF-8; one cut off at the end is not")
    func splitCharacters() throws {
        let text = Array("date,name,price,category\n20240122,🍣寿司,1,0\n".utf8)
        for size in 1...5 {
            let (chunked, _) = try readChunked(text, size: size)
            #expect(chunked == readWhole(text))
            #expect(!chunked.contains("problem"))
        }
        let cut = Array(text.dropLast(6)) + [0xE5, 0xAF]
        #expect(try readChunked(cut, size: 3, encoding: .utf8).0 == readWhole(cut, encoding: .utf8))
    }

    @Test("an error reading the input is thrown, not reported as a problem")
    func readError() throws {
        var calls = 0
        let failing: ChunkedInput = {
            calls += 1
            let failAt = calls == 1 ? Int.max : 2
            var chunk = 0
            return {
                chunk += 1
                if chunk >= failAt { throw ReadFailure() }
                return chunk > 3 ? nil : Array("date,name,price,category\n20240122,茶,1,0\n".utf8)
            }
        }
        #expect(throws: ReadFailure.self) { _ = try InputReader.read(failing, name: "in.csv", format: nil) { _ in } }
    }
}
