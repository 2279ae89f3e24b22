import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogRendering
import Foundation
import Testing

/// Items whose names are hard to write: a comma, quotes, Japanese, a line break; one without a sub-category.
func awkwardItems() throws -> [Item] {
    [
        Item(
            id: "100000BF-4AAC-48A6-B316-8A533358859B", date: try day(2024, 1, 22), name: "コーヒー", price: 178,
            category: 0, categorySub: 1),
        Item(
            id: "A2", date: try day(2024, 1, 5), name: "Tea, \"green\" 緑茶", price: 1500, category: 0, categorySub: nil),
        Item(id: "A3", date: try day(2024, 2, 29), name: "refund\\back", price: -200, category: 1, categorySub: 2),
        Item(id: "A4", date: try day(2024, 3, 1), name: "改行\nあり\tタブ", price: 12000, category: 7, categorySub: 9),
    ]
}

/// The rendered lines without the final empty one.
func lines(_ text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
}

/// The screen columns (start, end) of each non-empty cell of a row, found left to right in the line.
func cellColumns(_ line: String, _ cells: [String]) throws -> [Int: (start: Int, end: Int)] {
    var columns: [Int: (start: Int, end: Int)] = [:]
    var from = line.startIndex
    for (index, cell) in cells.enumerated() where !cell.isEmpty {
        let range = try #require(line.range(of: cell, range: from..<line.endIndex), "'\(cell)' not in '\(line)'")
        let start = TextWidth.of(String(line[..<range.lowerBound]))
        columns[index] = (start, start + TextWidth.of(cell))
        from = range.upperBound
    }
    return columns
}

@Suite("Writing items")
struct ItemWriterTests {
    @Test("every machine format reads back to the same items", arguments: [OutputFormat.json, .ndjson, .csv])
    func roundTrip(format: OutputFormat) throws {
        let items = try awkwardItems()
        let output = ItemWriter().render(items, as: format)
        let inputFormat = try #require(InputFormat(rawValue: format.rawValue))
        #expect(try readItems(output, format: inputFormat) == items)
        #expect(InputFormat(sniffing: Array(output.utf8)) == inputFormat)
    }

    @Test("an empty list reads back as no items", arguments: [OutputFormat.json, .ndjson, .csv])
    func emptyRoundTrip(format: OutputFormat) throws {
        let output = ItemWriter().render([], as: format)
        #expect(try readItems(output, format: #require(InputFormat(rawValue: format.rawValue))).isEmpty)
    }

    @Test("CSV output quotes an id holding a comma or a quote, so it reads back")
    func csvQuotesID() throws {
        let items = [
            Item(id: "bank,2024-01,#7", date: try day(2024, 1, 22), name: "x", price: 1, category: 0, categorySub: nil),
            Item(id: "say \"A\"", date: try day(2024, 1, 23), name: "y", price: 2, category: 0, categorySub: nil),
        ]
        let output = ItemWriter().render(items, as: .csv)
        #expect(try readItems(output, format: .csv) == items)
    }

    @Test("JSON writes a missing categorySub as null, every key present")
    func jsonNull() throws {
        let items = try awkwardItems()
        let output = ItemWriter().render(items, as: .json)
        #expect(output.contains(#""categorySub":null"#))
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        #expect(parsed.count == items.count)
        #expect(parsed[1]["categorySub"] is NSNull)
        #expect(parsed[0]["categorySub"] as? Int == 1)
        #expect(parsed.allSatisfy { Set($0.keys) == ["id", "date", "name", "price", "category", "categorySub"] })
    }

    @Test("NDJSON writes one object per line")
    func ndjsonLines() throws {
        let output = ItemWriter().render(try awkwardItems(), as: .ndjson)
        #expect(lines(output).count == 4)
        #expect(lines(output).allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") })
    }

    @Test("CSV writes the native header and an empty cell for a missing categorySub")
    func csvEmptySub() throws {
        let records = try CSV.parse(ItemWriter().render(try awkwardItems(), as: .csv))
        #expect(records.first?.fields == ["id", "date", "name", "price", "category", "categorySub"])
        #expect(records[2].fields == ["A2", "20240105", "Tea, \"green\" 緑茶", "1500", "0", ""])
    }

    @Test("table columns line up on screen with Japanese and half-width names", arguments: [false, true])
    func tableAlignment(japanese: Bool) throws {
        let items = [
            Item(id: "1", date: try day(2024, 1, 22), name: "コーヒー", price: 178, category: 0, categorySub: 1),
            Item(id: "2", date: try day(2024, 1, 5), name: "ﾗｰﾒﾝ", price: 1500, category: 0, categorySub: 0),
            Item(id: "3", date: try day(2024, 1, 9), name: "Tea", price: -200, category: 1, categorySub: nil),
            Item(id: "4", date: try day(2024, 1, 31), name: "特大チャーシュー麺", price: 1_234_567, category: 1, categorySub: 1),
        ]
        let expectedRows =
            japanese
            ? [
                ["日付", "品名", "金額", "項目", "サブ項目"],
                ["2024-01-22", "コーヒー", "178", "食費", "飲料"],
                ["2024-01-05", "ﾗｰﾒﾝ", "1,500", "食費", "食品"],
                ["2024-01-09", "Tea", "-200", "娯楽費", ""],
                ["2024-01-31", "特大チャーシュー麺", "1,234,567", "娯楽費", "交通費"],
                ["合計", "4件", "1,236,045", "", ""],
            ]
            : [
                ["DATE", "NAME", "PRICE", "CATEGORY", "SUB"],
                ["2024-01-22", "コーヒー", "178", "Food", "Drink"],
                ["2024-01-05", "ﾗｰﾒﾝ", "1,500", "Food", "Grocery"],
                ["2024-01-09", "Tea", "-200", "Entertainment", ""],
                ["2024-01-31", "特大チャーシュー麺", "1,234,567", "Entertainment", "Transportation"],
                ["TOTAL", "4 items", "1,236,045", "", ""],
            ]
        var output = lines(ItemWriter(japanese: japanese).render(items, as: .table))
        try #require(output.count == expectedRows.count + 1)
        let rule = output.remove(at: output.count - 2)
        #expect(!rule.isEmpty && rule.allSatisfy { $0 == "-" })

        let columns = try zip(output, expectedRows).map { try cellColumns($0, $1) }
        for column in [0, 1, 3, 4] {
            #expect(Set(columns.compactMap { $0[column]?.start }).count == 1, "column \(column) starts differ")
        }
        #expect(Set(columns.compactMap { $0[2]?.end }).count == 1, "prices are not right-aligned")
        let header = try #require(columns.first)
        #expect(try #require(header[0]).start == 0)
        #expect(try #require(header[1]).start > TextWidth.of("2024-01-22"))
        #expect(output.allSatisfy { !$0.hasSuffix(" ") })
    }

    @Test("a cell of 255 columns or more still lines up the next column", arguments: [254, 255, 300])
    func wideCell(columns: Int) {
        let wide = String(repeating: "表", count: columns / 2) + String(repeating: "x", count: columns % 2)
        let output = lines(TextTable(rows: [["a", wide, "end"], [wide, "b", "end"]]).render())
        #expect(
            output == [
                "a" + String(repeating: " ", count: columns + 1) + wide + "  end",
                wide + "  b" + String(repeating: " ", count: columns + 1) + "end",
            ])
    }

    @Test("an empty table still shows the headings and a zero total")
    func emptyTable() {
        let output = lines(ItemWriter().render([], as: .table))
        #expect(output.first?.hasPrefix("DATE") == true)
        #expect(output.last?.contains("0 items") == true)
        #expect(output.last?.hasSuffix("0") == true)
    }

    @Test("the total row sums the prices, refunds included")
    func total() throws {
        let prices = [178, 1500, -200, 12000, 3]
        let items = try prices.enumerated().map { index, price in
            Item(
                id: "\(index)", date: try day(2024, 1, index + 1), name: "n\(index)", price: price, category: 0,
                categorySub: nil)
        }
        let last = try #require(lines(ItemWriter().render(items, as: .table)).last)
        #expect(last.hasPrefix("TOTAL"))
        #expect(last.contains("5 items"))
        #expect(last.hasSuffix("13,481"))
    }

    @Test(
        "prices get thousands separators",
        arguments: [
            (0, "0"), (7, "7"), (999, "999"), (1000, "1,000"), (-1500, "-1,500"), (-999, "-999"),
            (100_000, "100,000"), (1_234_567, "1,234,567"), (-1_000_000, "-1,000,000"),
        ])
    func thousands(value: Int, text: String) {
        #expect(PriceText.format(value) == text)
    }

    @Test(
        "text width counts wide characters as two columns",
        arguments: [
            ("abc", 3), ("", 0), ("コーヒー", 8), ("ｺｰﾋｰ", 4), ("漢字", 4), ("ＡＢＣ", 6), ("A漢b", 4),
            ("、。", 4), ("e\u{301}", 1), ("가", 2), ("1,234", 5),
            // Each half-width scalar is a column, the voicing marks ﾞ and ﾟ too, though Swift joins ﾊﾞ into one character.
            ("ｽﾀｰﾊﾞｯｸｽ ｼﾌﾞﾔ", 13), ("ﾊﾟﾝ", 3), ("ﾊﾞ", 2),
            // Combining marks take no column of their own: é, が written as か + U+3099, a Hangul syllable from its jamo.
            ("Cafe\u{301}", 4), ("か\u{3099}", 2), ("\u{1100}\u{1161}\u{11A8}", 2), ("a\u{200B}b", 2),
            // An emoji is two columns however many scalars draw it: ZWJ family, flag, VS16, skin tone, keycap.
            ("🍜", 2), ("👨\u{200D}👩\u{200D}👧", 2), ("🇯🇵", 2), ("❤\u{FE0F}", 2), ("👍🏽", 2), ("1\u{FE0F}\u{20E3}", 2),
            ("🇯🇵 ramen 👨\u{200D}👩\u{200D}👧", 11),
            // Text that is not drawn as an emoji stays one column: a heart or a digit without VS16, ambiguous …, ±, é.
            ("❤", 1), ("1\u{20E3}", 1), ("…±é", 3), ("Ｃafé ｶﾌｪ", 9),
        ])
    func textWidth(text: String, width: Int) {
        #expect(TextWidth.of(text) == width)
    }
}
