import ExpenseLogModel
import ExpenseLogRendering
import Testing

/// Items whose names are hard to measure: half-width kana with voicing marks, emoji sequences, combining marks.
func hardToMeasureItems() throws -> [Item] {
    let names = ["ｽﾀｰﾊﾞｯｸｽ ｼﾌﾞﾔ", "🍜 ラーメン 👨\u{200D}👩\u{200D}👧 🇯🇵", "Cafe\u{301} か\u{3099} ❤\u{FE0F}", "Tea"]
    let prices = [480, 1200, 650, 150]
    return try names.indices.map { index in
        Item(
            id: "W\(index)", date: try day(2024, 1, 5 + index), name: names[index], price: prices[index], category: 0,
            categorySub: 1)
    }
}

@Suite("Fitting a table to the terminal")
struct TableFitTests {
    @Test(
        "a name is cut between characters, never inside ﾊﾞ, an emoji or é, and ends in …",
        arguments: [
            ("ｽﾀｰﾊﾞｯｸｽ ｼﾌﾞﾔ", 8, "ｽﾀｰﾊﾞｯｸ…", 8),
            ("ｽﾀｰﾊﾞｯｸｽ ｼﾌﾞﾔ", 5, "ｽﾀｰ…", 4),  // ﾊﾞ takes two columns; with ﾊ alone it would read as another word
            ("スターバックス", 8, "スター…", 7),  // バ would straddle the edge: one column is left for padding
            ("🍜👨\u{200D}👩\u{200D}👧🇯🇵", 5, "🍜👨\u{200D}👩\u{200D}👧…", 5),
            ("🍜👨\u{200D}👩\u{200D}👧🇯🇵", 4, "🍜…", 3),
            ("Cafe\u{301} latte", 5, "Cafe\u{301}…", 5),
            ("か\u{3099}か\u{3099}か\u{3099}", 5, "か\u{3099}か\u{3099}…", 5),
            ("コンビニ おにぎり", 10, "コンビニ…", 9),  // no blank left before the …
        ])
    func cut(text: String, width: Int, expected: String, columns: Int) {
        let cut = TableFit.cut(text, to: width)
        // Scalar by scalar: Swift's == would take a precomposed é for e + U+0301.
        #expect(Array(cut.text.unicodeScalars) == Array(expected.unicodeScalars))
        #expect(cut.width == columns)
        #expect(TextWidth.of(cut.text) == columns)
    }

    @Test("on a narrow terminal, names are shortened so that each row is one line and the columns line up")
    func narrow() throws {
        let output = ItemWriter(terminalWidth: 46).render(try hardToMeasureItems(), as: .table)
        #expect(
            lines(output) == [
                "DATE        NAME        PRICE  CATEGORY  SUB",
                "2024-01-05  ｽﾀｰﾊﾞｯｸｽ…     480  Food      Drink",
                "2024-01-06  🍜 ラーメ…  1,200  Food      Drink",
                "2024-01-07  Cafe\u{301} か\u{3099} ❤\u{FE0F}    650  Food      Drink",
                "2024-01-08  Tea           150  Food      Drink",
                "----------------------------------------------",
                "TOTAL       4 items     2,480",
            ])
        #expect(lines(output).allSatisfy { TextWidth.of($0) <= 46 })
    }

    @Test("a terminal wide enough, or none, prints every name whole", arguments: [nil, 53, 200])
    func wideEnough(width: Int?) throws {
        let items = try hardToMeasureItems()
        let output = ItemWriter(terminalWidth: width).render(items, as: .table)
        #expect(output == ItemWriter().render(items, as: .table))
        #expect(!output.contains("…"))
        for item in items { #expect(output.contains(item.name)) }
    }

    @Test("the name column is never cut below eight columns: a terminal narrower than that wraps the rows instead")
    func minimum() throws {
        let items = try hardToMeasureItems()
        let output = lines(ItemWriter(terminalWidth: 20).render(items, as: .table))
        #expect(output[0] == "DATE        NAME      PRICE  CATEGORY  SUB")
        #expect(output[1] == "2024-01-05  ｽﾀｰﾊﾞｯｸ…    480  Food      Drink")
        #expect(output.last == "TOTAL       4 items   2,480")
        // 44 columns is exactly the table with an eight-column name: anything narrower prints the same.
        #expect(output == lines(ItemWriter(terminalWidth: 44).render(items, as: .table)))
    }

    @Test("the total's count is never cut, even when it is wider than the minimum")
    func longCount() throws {
        let items = try (1...100).map { n in
            Item(
                id: "N\(n)", date: try day(2024, 1, 1), name: "とても長い名前の品物 \(n)", price: 10, category: 0,
                categorySub: nil)
        }
        let output = lines(ItemWriter(terminalWidth: 30).render(items, as: .table))
        #expect(output.last == "TOTAL       100 items  1,000")
        #expect(output[1] == "2024-01-01  とても長…     10  Food")
    }
}
