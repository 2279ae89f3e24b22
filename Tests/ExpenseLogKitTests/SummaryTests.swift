import ExpenseLogModel
import ExpenseLogUseCases
import Foundation
import Testing

/// A January: two Food items, an Entertainment item, a refund, an unknown category, items with and without a sub.
func summaryItems() throws -> [Item] {
    [
        Item(id: "1", date: try day(2024, 1, 5), name: "コーヒー", price: 178, category: 0, categorySub: 1),
        Item(id: "2", date: try day(2024, 1, 15), name: "ラーメン", price: 1500, category: 0, categorySub: 0),
        Item(id: "3", date: try day(2024, 1, 20), name: "映画", price: 1800, category: 1, categorySub: nil),
        Item(id: "4", date: try day(2024, 1, 21), name: "返金", price: -300, category: 1, categorySub: 2),
        Item(id: "5", date: try day(2024, 1, 31), name: "寄付", price: 1000, category: 7, categorySub: nil),
    ]
}

/// The line of a category (and sub) in some totals.
func line(_ totals: SummaryTotals, _ category: Int, _ sub: Int? = nil) throws -> SummaryLine {
    try #require(totals.lines.first { $0.key == SummaryKey(category: category, sub: sub) })
}

@Suite("Summary arithmetic")
struct SummaryTests {
    @Test("totals per category, refunds reduce them, shares of the month in tenths of a percent")
    func perCategory() throws {
        let totals = SummaryTotals(items: try summaryItems(), grouping: .category, catalogue: .standard)
        // Food: 178 + 1,500 = 1,678 (2 items); Entertainment: 1,800 - 300 = 1,500 (2); #7: 1,000 (1).
        // Month: 1,678 + 1,500 + 1,000 = 4,178 (5 items).
        #expect(totals.count == 5)
        #expect(totals.total == 4178)
        #expect(try line(totals, 0).count == 2 && line(totals, 0).total == 1678)
        #expect(try line(totals, 1).count == 2 && line(totals, 1).total == 1500)
        #expect(try line(totals, 7).count == 1 && line(totals, 7).total == 1000)
        // 1,678 / 4,178 = 40.162 % → 40.2; 1,500 / 4,178 = 35.902 % → 35.9; 1,000 / 4,178 = 23.934 % → 23.9.
        #expect(totals.lines.map(\.shareTenths) == [402, 359, 239])
    }

    @Test("catalogue order first, unknown categories after by number, empty catalogue categories kept")
    func order() throws {
        let items = [
            Item(id: "x", date: try day(2024, 1, 1), name: "x", price: 10, category: 9, categorySub: nil),
            Item(id: "y", date: try day(2024, 1, 1), name: "y", price: 20, category: 3, categorySub: nil),
            Item(id: "z", date: try day(2024, 1, 1), name: "z", price: 30, category: 1, categorySub: nil),
        ]
        let totals = SummaryTotals(items: items, grouping: .category, catalogue: .standard)
        #expect(totals.lines.map(\.key.category) == [0, 1, 3, 9])
        #expect(try line(totals, 0).count == 0 && line(totals, 0).total == 0 && line(totals, 0).shareTenths == 0)
    }

    @Test("--by sub: a row per catalogue sub, unknown subs after them, items with none in a row of their own")
    func perSub() throws {
        var items = try summaryItems()
        items.append(Item(id: "6", date: try day(2024, 1, 6), name: "謎", price: 50, category: 0, categorySub: 9))
        let totals = SummaryTotals(items: items, grouping: .sub, catalogue: .standard)
        let keys = totals.lines.map { "\($0.key.category)/\($0.key.sub.map(String.init) ?? "-")" }
        #expect(keys == ["0/0", "0/1", "0/2", "0/3", "0/9", "1/0", "1/1", "1/2", "1/-", "7/-"])
        // Month: 178 + 1,500 + 1,800 - 300 + 1,000 + 50 = 4,228.
        #expect(totals.total == 4228)
        #expect(try line(totals, 0, 0).total == 1500)
        #expect(try line(totals, 0, 1).total == 178)
        #expect(try line(totals, 0, 9).total == 50)
        #expect(try line(totals, 1, 2).total == -300, "a refund alone makes a negative line")
        #expect(try line(totals, 1, nil).total == 1800)
        // -300 / 4,228 = -7.095 % → -7.1 (half away from zero); 50 / 4,228 = 1.183 % → 1.2.
        #expect(try line(totals, 1, 2).shareTenths == -71)
        #expect(try line(totals, 0, 9).shareTenths == 12)
        #expect(totals.lines.map(\.count).reduce(0, +) == totals.count)
    }

    @Test("a month whose total is 0 or negative has no shares")
    func noShareOfANegativeTotal() throws {
        let refund = [Item(id: "r", date: try day(2024, 4, 1), name: "返品", price: -800, category: 0, categorySub: 0)]
        let negative = SummaryTotals(items: refund, grouping: .category, catalogue: .standard)
        #expect(negative.total == -800)
        #expect(negative.lines.allSatisfy { $0.shareTenths == nil })
        let zero = SummaryTotals(
            items: refund + [
                Item(
                    id: "p", date: try day(2024, 4, 2), name: "本", price: 800, category: 1,
                    categorySub: nil)
            ], grouping: .category, catalogue: .standard)
        // -800 + 800 = 0.
        #expect(zero.total == 0 && zero.count == 2)
        #expect(zero.lines.allSatisfy { $0.shareTenths == nil })
        #expect(
            SummaryTotals(items: [], grouping: .category, catalogue: .standard).lines.allSatisfy {
                $0.shareTenths == nil
            })
    }

    @Test(
        "shares round half away from zero",
        arguments: [
            (Int128(1), Int128(8), Int128(125)),  // 12.5 % exactly
            (Int128(1), Int128(3), Int128(333)),  // 33.33 %
            (Int128(2), Int128(3), Int128(667)),  // 66.67 %
            (Int128(1), Int128(2000), Int128(1)),  // 0.05 % → 0.1
            (Int128(-1), Int128(2000), Int128(-1)),  // -0.05 % → -0.1
            (Int128(3), Int128(2), Int128(1500)),  // a part larger than the whole (others are refunds)
        ])
    func shareRounding(part: Int128, whole: Int128, tenths: Int128) {
        #expect(SummaryTotals.shareTenths(of: part, in: whole) == tenths)
    }

    @Test("a year: each month's totals, the year's over the months that are not missing")
    func year() throws {
        let january = try #require(YearMonth(year: 2024, month: 1))
        let february = try #require(YearMonth(year: 2024, month: 2))
        let march = try #require(YearMonth(year: 2024, month: 3))
        let tea = Item(id: "t", date: try day(2024, 2, 1), name: "紅茶", price: 200, category: 0, categorySub: 1)
        let loaded = [
            LoadedMonth(month: january, items: try summaryItems(), source: .server),
            LoadedMonth(month: february, items: [tea], source: .cache(fetchedAt: nil, complete: false)),
            LoadedMonth(month: march, items: [], source: .missing(.notCached(march))),
        ]
        let summary = Summary(period: .year(2024), grouping: .category, catalogue: .standard, loaded: loaded)
        #expect(summary.months.map(\.totals.total) == [4178, 200, 0])
        // Year: 4,178 + 200 = 4,378 (6 items); Food 1,678 + 200 = 1,878.
        #expect(summary.totals.total == 4378 && summary.totals.count == 6)
        #expect(try line(summary.totals, 0).total == 1878)
        #expect(summary.missingMonths == [march])
        #expect(summary.months.map(\.isMissing) == [false, false, true])
    }
}
