import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation
import Testing

/// January from `summaryItems()` off the server, February a refund from a whole cached copy, March missing.
func sampleSummary(month: Int? = nil, grouping: SummaryGrouping = .category) throws -> Summary {
    let months = try (1...3).map { try #require(YearMonth(year: 2024, month: $0)) }
    let refund = Item(id: "r", date: try day(2024, 2, 3), name: "返品", price: -800, category: 0, categorySub: 0)
    let fetchedAt = Date(timeIntervalSince1970: 1_705_900_000)
    var loaded = [
        LoadedMonth(month: months[0], items: try summaryItems(), source: .server),
        LoadedMonth(month: months[1], items: [refund], source: .cache(fetchedAt: fetchedAt, complete: true)),
        LoadedMonth(month: months[2], items: [], source: .missing(.notCached(months[2]))),
    ]
    if let month { loaded = [loaded[month - 1]] }
    return Summary(
        period: month.map { .month(months[$0 - 1]) } ?? .year(2024), grouping: grouping, catalogue: .standard,
        loaded: loaded)
}

@Suite("Writing summaries")
struct SummaryWriterTests {
    @Test("bars: the largest value fills the width, others in eighths of a cell, none for 0 or less")
    func bars() {
        #expect(TextBar.bar(3478, largest: 3478) == String(repeating: "█", count: 40))
        // 450 × 320 / 3,478 = 41.4 eighths → 41 = 5 cells and 1 eighth.
        #expect(TextBar.bar(450, largest: 3478) == "█████▏")
        // 2,200 × 320 / 3,478 = 202.4 eighths → 202 = 25 cells and 2 eighths.
        #expect(TextBar.bar(2200, largest: 3478) == String(repeating: "█", count: 25) + "▎")
        #expect(TextBar.bar(1, largest: 1_000_000) == "▏", "a tiny positive value still shows")
        #expect(TextBar.bar(0, largest: 3478).isEmpty)
        #expect(TextBar.bar(-800, largest: 3478).isEmpty)
        #expect(TextBar.bar(5, largest: 0).isEmpty)
        #expect(TextBar.bar(7, largest: 8, width: 1) == "▉")
    }

    @Test("a month's table: names, counts, totals with separators, shares, the total under a rule")
    func monthTable() throws {
        let text = SummaryWriter().render(try sampleSummary(month: 1), as: .table)
        #expect(
            lines(text) == [
                "CATEGORY       COUNT  TOTAL   SHARE",
                "Food               2  1,678   40.2%",
                "Entertainment      2  1,500   35.9%",
                "#7                 1  1,000   23.9%",
                "-----------------------------------",
                "TOTAL              5  4,178  100.0%",
            ])
    }

    @Test("--by sub in Japanese: sub-category names, — for items with none")
    func subTableJapanese() throws {
        let text = SummaryWriter(japanese: true).render(try sampleSummary(month: 1, grouping: .sub), as: .table)
        let rows = lines(text)
        #expect(rows.first?.hasPrefix("項目") == true && rows.first?.contains("サブ項目") == true)
        #expect(rows.contains { $0.hasPrefix("食費") && $0.contains("飲料") && $0.contains("178") })
        #expect(rows.contains { $0.hasPrefix("娯楽費") && $0.contains("—") && $0.contains("1,800") })
        #expect(
            rows.contains { $0.hasPrefix("娯楽費") && $0.contains("雑貨") && $0.contains("-300") && $0.contains("-7.2%") })
        #expect(rows.last?.hasPrefix("合計") == true)
    }

    @Test("a year's table: a bar per month, none for a negative month, missing months marked")
    func yearTable() throws {
        let rows = lines(SummaryWriter().render(try sampleSummary(), as: .table))
        #expect(rows[0] == "MONTH    COUNT  TOTAL")
        #expect(rows[1] == "2024-01      5  4,178  " + String(repeating: "█", count: 40))
        #expect(rows[2] == "2024-02      1   -800")
        #expect(rows[3] == "2024-03                (missing)")
        // Year: 4,178 - 800 = 3,378 (6 items); then the year's categories: Food 1,678 - 800 = 878.
        #expect(rows[5] == "TOTAL        6  3,378")
        #expect(rows[6] == "")
        #expect(rows.contains { $0.hasPrefix("Food") && $0.contains(" 878") })
    }

    @Test("CSV: a row per month and category, no rows for a missing month, empty share for a negative month")
    func csv() throws {
        let rows = lines(SummaryWriter().render(try sampleSummary(), as: .csv))
        #expect(
            rows == [
                "year,month,category,categoryName,sub,subName,count,total,share",
                "2024,1,0,Food,,,2,1678,40.2",
                "2024,1,1,Entertainment,,,2,1500,35.9",
                "2024,1,7,#7,,,1,1000,23.9",
                "2024,2,0,Food,,,1,-800,",
                "2024,2,1,Entertainment,,,0,0,",
            ])
    }

    @Test("JSON: valid, docs/summary.md's keys and numbers, null for unknown numbers, sources with fetch times")
    func json() throws {
        let text = SummaryWriter().render(try sampleSummary(grouping: .sub), as: .json)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["year"] as? Int == 2024)
        #expect(object["month"] is NSNull)
        #expect(object["by"] as? String == "sub")
        #expect(object["total"] as? Int == 3378)
        let months = try #require(object["months"] as? [[String: Any]])
        #expect(months.map { $0["month"] as? Int } == [1, 2, 3])
        #expect(months[2]["total"] is NSNull && months[2]["categories"] is NSNull)
        let january = try #require(months[0]["categories"] as? [[String: Any]])
        let drink = try #require(january.first { $0["category"] as? Int == 0 && $0["sub"] as? Int == 1 })
        #expect(
            drink["name"] as? String == "Food" && drink["subName"] as? String == "Drink"
                && drink["total"] as? Int == 178)
        let none = try #require(january.first { $0["category"] as? Int == 1 && $0["sub"] is NSNull })
        #expect(none["subName"] is NSNull && none["total"] as? Int == 1800)
        let february = try #require(months[1]["categories"] as? [[String: Any]])
        #expect(february.allSatisfy { $0["share"] is NSNull })
        let sources = try #require(object["sources"] as? [[String: Any]])
        #expect(sources.map { $0["source"] as? String } == ["server", "cache", "missing"])
        #expect(sources[1]["fetchedAt"] as? String == "2024-01-22T05:06:40Z")
        #expect((sources[2]["error"] as? String)?.contains("2024-03 is not cached") == true)
        // The keys come in the documented order.
        #expect(
            text.hasPrefix(
                "{\"year\":2024,\"month\":null,\"from\":\"2024-01-01\",\"to\":\"2024-12-31\",\"by\":\"sub\",\"count\":6,\"total\":3378,\"categories\":["
            ))
    }
}
