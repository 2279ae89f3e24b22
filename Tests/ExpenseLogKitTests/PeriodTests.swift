import ExpenseLogModel
import Foundation
import Testing

/// Periods, days and category names as a person types them.
@Suite struct PeriodTests {
    @Test(arguments: [
        ("2024", "year 2024"), ("2024-01", "2024-01"), ("2024/1", "2024-01"), ("202401", "2024-01"),
        ("2024-1", "2024-01"), ("２０２４", "year 2024"),
    ])
    func periods(text: String, expected: String) throws {
        switch try #require(Period(parsing: text)) {
        case .year(let year): #expect("year \(year)" == expected)
        case .month(let month): #expect(month.description == expected)
        case .days: Issue.record("\(text) read as a range")
        }
    }

    @Test(arguments: ["2024-13", "24", "2024-01-05", "x", ""])
    func notPeriods(text: String) {
        #expect(Period(parsing: text) == nil)
    }

    @Test func aRangeRunsFromAMonthsFirstDayToAMonthsLastAndListsItsMonths() throws {
        let range = try #require(Period.range(from: "2024-01-15", to: "2024-02"))
        #expect(range.dayBounds.map { "\($0.from) \($0.to)" } == "2024-01-15 2024-02-29")
        #expect(range.months.map(\.description) == ["2024-01", "2024-02"])
        #expect(Period.range(from: "2024-03", to: "2024-02") == nil)
        #expect(Period.year(2024).months.count == 12)
    }

    @Test func daysAsPeopleGiveThemCountFromTodayInTheZoneAsked() throws {
        // 2024-03-01 00:30 in Tokyo is still 2024-02-29 in UTC.
        let now = try #require(ISO8601DateFormatter().date(from: "2024-02-29T15:30:00Z"))
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        #expect(Day(personDate: "today", now: now, in: tokyo)?.description == "2024-03-01")
        #expect(
            Day(personDate: "today", now: now, in: try #require(TimeZone(identifier: "UTC")))?.description
                == "2024-02-29")
        #expect(Day(personDate: "yesterday", now: now, in: tokyo)?.description == "2024-02-29")
        #expect(Day(personDate: "-3d", now: now, in: tokyo)?.description == "2024-02-27")
        #expect(Day(personDate: "2024/1/5", now: now, in: tokyo)?.description == "2024-01-05")
        #expect(Day(personDate: "soon", now: now, in: tokyo) == nil)
    }

    @Test(
        arguments: [
            ("食費", 0, nil), ("Food", 0, nil), ("FOOD", 0, nil), ("ent", 1, nil), ("food/drink", 0, 1), ("食費/飲料", 0, 1),
            ("0/1", 0, 1), ("1", 1, nil), ("娯楽費/雑貨", 1, 2),
            ("雑貨", 1, 2), ("drink", 0, 1),
        ] as [(String, Int, Int?)])
    func categoryNames(text: String, category: Int, sub: Int?) throws {
        let resolved = try CategoryCatalogue.standard.resolve(text)
        #expect(resolved.category == category && resolved.sub == sub)
    }

    @Test func anUnknownOrAmbiguousNameSaysWhatTheCatalogueHas() {
        #expect(throws: CategoryNameError.self) { try CategoryCatalogue.standard.resolve("7") }
        do {
            _ = try CategoryCatalogue.standard.resolve("food/tea")
            Issue.record("food/tea resolved")
        } catch {
            #expect(
                error.message
                    == "no sub-category of Food is called 'tea'; the catalogue has 0 食品 Grocery, 1 飲料 Drink, 2 菓子 Sweets, 3 栄養補助 Supplement"
            )
        }
    }
}

@Suite("Days as people type them")
struct PersonDateTests {
    /// Wednesday 2026-11-25, 10:00 in Tokyo.
    static let now = Date(timeIntervalSince1970: 1_795_568_400)
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    @Test(
        "words, weekdays, month and day without a year, and full-width digits",
        arguments: [
            ("今日", "2026-11-25"), ("昨日", "2026-11-24"), ("一昨日", "2026-11-23"), ("おととい", "2026-11-23"),
            ("yesterday", "2026-11-24"),
            ("monday", "2026-11-23"), ("月曜", "2026-11-23"), ("水曜日", "2026-11-25"), ("thu", "2026-11-19"),
            ("11/20", "2026-11-20"), ("11-20", "2026-11-20"), ("11月20日", "2026-11-20"), ("12/24", "2025-12-24"),
            ("11/27", "2026-11-27"),
            ("２０２６－１１－２０", "2026-11-20"), ("１１／２０", "2026-11-20"), ("-3d", "2026-11-22"), ("ー3d", "2026-11-22"),
            ("2024年1月5日", "2024-01-05"),
        ])
    func typed(text: String, expected: String) {
        #expect(Day(personDate: text, now: Self.now, in: Self.tokyo)?.description == expected)
    }

    @Test("what is no day stays refused", arguments: ["yesterdy", "13/01", "2/30", "11/20/2026x", "先週"])
    func refused(text: String) {
        #expect(Day(personDate: text, now: Self.now, in: Self.tokyo) == nil)
    }
}

@Suite("Periods as people type them")
struct PersonPeriodTests {
    @Test(
        "months and years in Japanese, words for this and last month, full-width digits",
        arguments: [
            ("10月", "2026-10"), ("12月", "2025-12"), ("2026年10月", "2026-10"), ("２０２６年１月", "2026-01"), ("先月", "2026-10"),
            ("今月", "2026-11"), ("last-month", "2026-10"), ("今年", "2026"), ("2025年", "2025"), ("去年", "2025"),
            ("2024-01", "2024-01"),
        ])
    func typed(text: String, expected: String) throws {
        let period = try #require(Period(parsing: text, now: PersonDateTests.now, in: PersonDateTests.tokyo))
        switch period {
        case .month(let month): #expect(month.description == expected)
        case .year(let year): #expect(String(year) == expected)
        case .days: Issue.record("\(text) read as days")
        }
    }

    @Test("what is no period stays refused", arguments: ["13月", "2026年13月", "来月か", "先週"])
    func refused(text: String) {
        #expect(Period(parsing: text, now: PersonDateTests.now, in: PersonDateTests.tokyo) == nil)
    }
}
