import ExpenseLogModel
import Testing

/// A checked day, failing the test when the numbers are not a real date.
func day(_ year: Int, _ month: Int, _ day: Int) throws -> Day {
    try #require(Day(year: year, month: month, day: day))
}

@Suite("Day and YearMonth")
struct DayTests {
    @Test(
        "parses the wire and import forms",
        arguments: [
            ("20240122", 2024, 1, 22),
            ("2024-01-22", 2024, 1, 22),
            ("2024/1/5", 2024, 1, 5),
            ("2024/01/05", 2024, 1, 5),
            ("2024/12/31", 2024, 12, 31),
            ("20240229", 2024, 2, 29),  // leap year
            ("20000229", 2000, 2, 29),  // divisible by 400
            ("00010101", 1, 1, 1),
        ])
    func parsesValidDays(text: String, year: Int, month: Int, dayOfMonth: Int) throws {
        let parsed = try #require(Day(parsing: text))
        #expect((parsed.year, parsed.month, parsed.day) == (year, month, dayOfMonth))
    }

    @Test(
        "rejects days that are not real or not in an accepted form",
        arguments: [
            "20240230",  // February 30th
            "20230229",  // not a leap year
            "19000229",  // divisible by 100, not by 400
            "20241301",  // month 13
            "20240001",  // month 0
            "20240100",  // day 0
            "20240431",  // April has 30 days
            "2024-1-5",  // ISO form needs two digits each
            "2024-01-5",
            "2024/1/32",
            "+2024010",  // a sign is not a digit
            "-2024010",
            "２０２４０１０１",  // full-width digits
            "",
            "00000101",  // year 0
            "2024.01.22",
            "202401221",
            "2024122",
            "2024/1/",
            " 20240122",
            "24/1/5",
        ])
    func rejectsInvalidDays(text: String) {
        #expect(Day(parsing: text) == nil)
    }

    @Test("rejects impossible numbers when built directly")
    func rejectsImpossibleNumbers() {
        #expect(Day(year: 2023, month: 2, day: 29) == nil)
        #expect(Day(year: 2024, month: 6, day: 31) == nil)
        #expect(Day(year: 10000, month: 1, day: 1) == nil)
        #expect(Day(year: 2024, month: 2, day: 29) != nil)
    }

    @Test("prints the wire form yyyyMMdd and the readable form yyyy-MM-dd, zero padded")
    func printsBothForms() throws {
        let early = try day(987, 3, 4)
        #expect(early.compact == "09870304")
        #expect(early.description == "0987-03-04")
        let late = try day(2024, 12, 31)
        #expect(late.compact == "20241231")
        #expect(late.description == "2024-12-31")
    }

    @Test("compact form parses back to the same day", arguments: ["2024/1/5", "2024-02-29", "19991231"])
    func compactRoundTrips(text: String) throws {
        let parsed = try #require(Day(parsing: text))
        #expect(Day(parsing: parsed.compact) == parsed)
        #expect(Day(parsing: parsed.description) == parsed)
    }

    @Test("orders by year, then month, then day")
    func ordersChronologically() throws {
        let days = [try day(2024, 2, 1), try day(2023, 12, 31), try day(2024, 1, 31), try day(2024, 1, 5)]
        #expect(days.sorted().map(\.compact) == ["20231231", "20240105", "20240131", "20240201"])
        #expect(try day(2024, 1, 31) < day(2024, 2, 1))
        #expect(!(try day(2024, 2, 1) < day(2024, 2, 1)))
    }

    @Test("knows the month a day falls in")
    func yearMonthOfDay() throws {
        let month = try day(2024, 1, 22).yearMonth
        #expect(month == YearMonth(year: 2024, month: 1))
        #expect(month.description == "2024-01")
        #expect(month.compactPrefix == "202401")
    }

    @Test("YearMonth parses yyyy-MM", arguments: [("2024-01", 2024, 1), ("1999-12", 1999, 12)])
    func yearMonthParses(text: String, year: Int, month: Int) throws {
        let parsed = try #require(YearMonth(parsing: text))
        #expect((parsed.year, parsed.month) == (year, month))
        #expect(parsed.description == text)
    }

    @Test(
        "YearMonth rejects other forms",
        arguments: [
            "2024-1", "2024-13", "2024-00", "24-01", "202401", "2024-01-01", "", "２０２４-01", "+024-01", "2024/01",
        ])
    func yearMonthRejects(text: String) {
        #expect(YearMonth(parsing: text) == nil)
    }

    @Test("YearMonth orders chronologically")
    func yearMonthOrders() throws {
        let months = try ["2024-02", "2023-12", "2024-01"].map { try #require(YearMonth(parsing: $0)) }
        #expect(months.sorted().map(\.description) == ["2023-12", "2024-01", "2024-02"])
    }
}
