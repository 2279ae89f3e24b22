import Foundation
import Testing

/// Tables line up on a terminal whatever the names hold, and are fitted to a terminal's width only when stdout is one:
/// the binary runs under `script`, which gives it a real pseudo-terminal, and through plain pipes.
@Suite struct CLITableWidthTests {
    /// Names as bank exports and phones write them: half-width kana with ﾞ, emoji sequences, combining marks.
    static let names = ["ｽﾀｰﾊﾞｯｸｽ ｼﾌﾞﾔ", "🍜 ラーメン 👨\u{200D}👩\u{200D}👧 🇯🇵", "Cafe\u{301} か\u{3099} ❤\u{FE0F}", "Tea"]

    /// The terminal columns of the text in these tables, written for the characters the test uses rather than taken
    /// from TextWidth: ASCII, …, half-width katakana and their ﾞ each one column; kana and kanji two; U+0301, U+3099
    /// and VS16 none (they mark the character before); each emoji picture two, however many scalars draw it.
    static func columns(_ text: String) -> Int {
        var width = 0
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            switch scalar.value {
            case 0x0301, 0x3099, 0xFE0F: break  // first: U+3099 lies among the kana
            case 0x20...0x7E, 0x2026, 0xFF61...0xFF9F: width += 1
            case 0x3041...0x30FF, 0x4E00...0x9FFF: width += 2
            case 0x1F35C, 0x2764: width += 2  // 🍜, and ❤, which these names only hold with VS16
            case 0x1F1EF: width += 2; _ = scalars.popFirst()  // 🇯🇵: two regional indicators, one flag
            case 0x1F468: width += 2; scalars = scalars.drop { [0x200D, 0x1F469, 0x1F467].contains($0.value) }  // 👨‍👩‍👧
            default:
                Issue.record(
                    "the test's width function does not know U+\(String(scalar.value, radix: 16, uppercase: true))")
            }
        }
        return width
    }

    /// The cells of a table line (runs of text with single blanks inside; two blanks or more part cells) and the
    /// terminal columns where each starts and ends.
    static func cells(_ line: String) -> [(text: String, start: Int, end: Int)] {
        line.matches(of: /\S+(?: \S+)*/).map { match in
            (
                String(match.output), columns(String(line[..<match.range.lowerBound])),
                columns(String(line[..<match.range.upperBound]))
            )
        }
    }

    /// A home with a fixtures folder whose fetch answers the names, each bought in January 2024.
    static func fixtures(_ home: TemporaryDirectory) throws -> String {
        let prices = [480, 1200, 650, 150]
        let items = names.indices.map { index -> [String: Any] in
            [
                "id": "W\(index)", "date": "2024010\(index + 5)", "name": names[index], "price": prices[index],
                "category": 0, "categorySub": 1,
            ]
        }
        let folder = home.url.appendingPathComponent("fixtures")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: items).write(to: folder.appendingPathComponent("fetch.json"))
        try Data("[]".utf8).write(to: folder.appendingPathComponent("register.json"))
        return folder.path
    }

    /// `fetch` of January 2024 from the fixtures, on a pseudo-terminal through `script` or through pipes.
    static func fetch(onTerminal: Bool, columns: Int) async throws -> CLIResult {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let arguments = ["--env", "dummy", "--fixtures", try fixtures(home), "fetch", "--year", "2024", "--month", "1"]
        let env = Samples.environment(home: home, ["COLUMNS": "\(columns)"])
        guard onTerminal else { return try await CLI.run(arguments, environment: env) }
        // Python's pty (pty_run.py), not `script`, whose options differ between util-linux and BSD (macOS); the terminal
        // turns each "\n" into "\r\n".
        // On a terminal the table comes under its period's title, which is no row of it.
        let result = try await CLIEverydayTests.onTerminal(arguments, answering: [], env)
        let shown = result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(shown.hasPrefix("2024-01\n"), "\(shown)")
        return CLIResult(
            status: result.status, stdout: String(shown.dropFirst(shown.hasPrefix("2024-01\n") ? 8 : 0)),
            stderr: result.stderr)
    }

    /// The table's lines without the rule, each split into cells, after checking that every row's PRICE ends in the
    /// same column and every CATEGORY starts in the same one.
    static func alignedRows(_ output: String) throws -> [[(text: String, start: Int, end: Int)]] {
        let rows = output.split(separator: "\n").map(String.init).filter { !$0.allSatisfy { $0 == "-" } }.map(cells)
        try #require(rows.count == names.count + 2, "\(output)")
        #expect(rows.map { $0.map(\.text) }.first == ["DATE", "NAME", "PRICE", "CATEGORY", "SUB"])
        #expect(rows.last?.map(\.text) == ["TOTAL", "4 items", "2,480"])
        #expect(Set(rows.map { $0[2].end }).count == 1, "PRICE ends in different columns:\n\(output)")
        #expect(Set(rows.dropLast().map { $0[3].start }).count == 1, "CATEGORY starts in different columns:\n\(output)")
        return rows
    }

    @Test func pipedOutputKeepsEveryNameWholeAndLinesUp() async throws {
        let result = try await Self.fetch(onTerminal: false, columns: 40)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try Self.alignedRows(result.stdout)
        // Byte for byte: e + U+0301 must not come back as a precomposed é, nor か + U+3099 as が.
        #expect(
            rows.dropFirst().dropLast().map { Array($0[1].text.unicodeScalars) }
                == Self.names.map { Array($0.unicodeScalars) })
        // The widest name, 🍜 ラーメン 👨‍👩‍👧 🇯🇵, is 17 columns: DATE 10, two blanks, 17, two blanks, PRICE 5.
        #expect(rows[0][2].end == 36)
    }

    @Test func aTerminalNarrowerThanTheTableShortensNamesWithAnEllipsis() async throws {
        let result = try await Self.fetch(onTerminal: true, columns: 40)
        #expect(result.status == 0, "\(result.stdout)")
        let rows = try Self.alignedRows(result.stdout)
        // 40 columns leave less than the eight a name keeps, so names take eight and the rows wrap on the screen.
        #expect(rows[0][2].end == 10 + 2 + 8 + 2 + 5)
        let shown = rows.dropFirst().dropLast().map { $0[1].text }
        #expect(
            shown.map { Array($0.unicodeScalars) }
                == ["ｽﾀｰﾊﾞｯｸ…", "🍜 ラー…", "Cafe\u{301} か\u{3099}…", "Tea"].map { Array($0.unicodeScalars) })
        for (name, full) in zip(shown, Self.names) where name != full {
            #expect(name.hasSuffix("…") && Self.columns(name) <= 8)
            #expect(
                Array(full.unicodeScalars).starts(with: name.unicodeScalars.dropLast()),
                "\(name) is not cut from \(full)")
        }
    }

    @Test func aTerminalJustWideEnoughGetsRowsThatFitIt() async throws {
        let result = try await Self.fetch(onTerminal: true, columns: 46)
        #expect(result.status == 0, "\(result.stdout)")
        let rows = try Self.alignedRows(result.stdout)
        #expect(rows.allSatisfy { ($0.last?.end ?? 0) <= 46 }, "\(result.stdout)")
        #expect(rows.dropFirst().dropLast().map { $0[1].text } == ["ｽﾀｰﾊﾞｯｸｽ…", "🍜 ラーメ…", Self.names[2], "Tea"])
    }
}
