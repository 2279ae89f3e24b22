import ExpenseLogModel
import Foundation
import Testing

@Suite("Day.daysSinceEpoch")
struct DayEpochTests {
    // Reference values from Python's proleptic Gregorian `date.toordinal()` minus that of 1970-01-01.
    @Test(
        "known days count from 1970-01-01, negative before it",
        arguments: [
            (1970, 1, 1, 0),
            (1970, 1, 2, 1),
            (1969, 12, 31, -1),
            (2000, 2, 29, 11016),
            (2000, 3, 1, 11017),
            (2024, 1, 22, 19744),
            (1900, 3, 1, -25508),
            (2100, 3, 1, 47541),
            (1600, 1, 1, -135140),
            (1, 1, 1, -719_162),
            (9999, 12, 31, 2_932_896),
        ])
    func knownValues(year: Int, month: Int, day: Int, expected: Int) throws {
        #expect(try ExpenseLogKitTests.day(year, month, day).daysSinceEpoch == expected)
    }

    @Test("matches Foundation's Gregorian calendar in UTC for a spread of dates from 1600 to 2400")
    func matchesFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var checked = 0
        for year in stride(from: 1600, through: 2400, by: 7) {
            for month in 1...12 {
                for dayOfMonth in [1, 15, Day.daysIn(year: year, month: month)] {
                    let date = try #require(
                        calendar.date(from: DateComponents(year: year, month: month, day: dayOfMonth)))
                    let expected = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
                    let value = try ExpenseLogKitTests.day(year, month, dayOfMonth)
                    #expect(value.daysSinceEpoch == expected, "\(value)")
                    checked += 1
                }
            }
        }
        #expect(checked > 3000)
    }

    @Test(
        "every day of a leap year and of a common year is one more than the day before",
        arguments: [1900, 2000, 2023, 2024, 1969])
    func consecutiveDays(year: Int) throws {
        var previous = try ExpenseLogKitTests.day(year - 1, 12, 31).daysSinceEpoch
        for month in 1...12 {
            for dayOfMonth in 1...Day.daysIn(year: year, month: month) {
                let current = try ExpenseLogKitTests.day(year, month, dayOfMonth).daysSinceEpoch
                #expect(current == previous + 1, "\(year)-\(month)-\(dayOfMonth)")
                previous = current
            }
        }
    }

    @Test("each year from 1 to 9999 is 365 days long, 366 in Gregorian leap years")
    func yearLengths() throws {
        var start = try ExpenseLogKitTests.day(1, 1, 1).daysSinceEpoch
        var wrong: [Int] = []
        for year in 1..<9999 {
            let next = try ExpenseLogKitTests.day(year + 1, 1, 1).daysSinceEpoch
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            if next - start != (leap ? 366 : 365) { wrong.append(year) }
            start = next
        }
        #expect(wrong.isEmpty, "years of the wrong length: \(wrong.prefix(10))")
    }

    @Test("orders like the days themselves")
    func monotonic() throws {
        let days = try [(1969, 12, 31), (1970, 1, 1), (1999, 12, 31), (2000, 1, 1), (2024, 2, 29), (2024, 3, 1)]
            .map { try ExpenseLogKitTests.day($0.0, $0.1, $0.2) }
        #expect(days.map(\.daysSinceEpoch) == days.map(\.daysSinceEpoch).sorted())
        #expect(Set(days.map(\.daysSinceEpoch)).count == days.count)
    }
}
