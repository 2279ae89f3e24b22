import ExpenseLogModel
import Testing

/// A pattern that must be a valid layout.
private func layout(_ text: String) throws -> DatePattern {
    try #require(DatePattern(text), "'\(text)' should be a date layout")
}

@Suite("Date layouts of import profiles")
struct DatePatternTests {
    @Test(
        "reads each layout exports use",
        arguments: [
            ("yyyy/M/d", "2024/1/5", 2024, 1, 5),
            ("yyyy/M/d", "2024/01/05", 2024, 1, 5),
            ("yyyy/M/d", "2024/12/31", 2024, 12, 31),
            ("yyyy-MM-dd", "2024-01-22", 2024, 1, 22),
            ("yyyyMMdd", "20240122", 2024, 1, 22),
            ("dd.MM.yyyy", "22.01.2024", 2024, 1, 22),
            ("M/d/yyyy", "1/5/2024", 2024, 1, 5),
            ("M/d/yyyy", "12/31/2023", 2023, 12, 31),
            ("yyyy年M月d日", "2024年1月5日", 2024, 1, 5),
            ("yyyy年M月d日", "2024年12月25日", 2024, 12, 25),
            ("yyyyMMd", "2024015", 2024, 1, 5),  // a variable field is readable last
            ("yyyy/M/d", " 2024/1/5 ", 2024, 1, 5),
            ("dd MM yyyy", "22 01 2024", 2024, 1, 22),  // a space is a separator like any other
            ("yyyy年 M月 d日", "2024年 1月 5日", 2024, 1, 5),
        ])
    func readsDays(pattern: String, text: String, year: Int, month: Int, dayOfMonth: Int) throws {
        let found = try #require(try layout(pattern).day(from: text))
        #expect(found == (try day(year, month, dayOfMonth)))
    }

    @Test("keeps the layout as written, for messages")
    func description() throws {
        #expect(try layout("yyyy年M月d日").description == "yyyy年M月d日")
        #expect(try layout("dd.MM.yyyy") == layout("dd.MM.yyyy"))
        #expect(try layout("dd.MM.yyyy") != layout("dd/MM/yyyy"))
    }

    @Test(
        "refuses layouts that do not name one year, month and day, or cannot be read",
        arguments: [
            "yyyy/MM",  // no day
            "yyy/M/d",  // a three-digit year
            "yyyyy/M/d",
            "yyyy/MMM/d",
            "yyyy/M/ddd",
            "yyyyMd",  // M and d side by side: 2024111 could be 1/11 or 11/1
            "Mdyyyy",
            "dMMyyyy",
            "yyyy/M/d/d",
            "yyyy/M/d M",
            "M/d",
            "",
            "date",
        ])
    func refusesLayouts(pattern: String) {
        #expect(DatePattern(pattern) == nil)
    }

    @Test(
        "refuses text that does not fit the layout",
        arguments: [
            ("yyyy/M/d", "2024-1-5"),  // wrong separator
            ("yyyy/M/d", "2024/1/5x"),  // trailing text
            ("yyyy/M/d", "2024/1/5/"),
            ("yyyy/M/d", "x2024/1/5"),
            ("yyyy/M/d", "2024/1"),
            ("yyyy/M/d", "2024/1/123"),
            ("yyyy/M/d", "24/1/5"),
            ("yyyy/M/d", ""),
            ("yyyy-MM-dd", "2024-1-05"),  // MM needs two digits
            ("yyyy-MM-dd", "2024-01-5"),
            ("yyyyMMdd", "2024012"),
            ("yyyyMMdd", "202401221"),
            ("dd.MM.yyyy", "2024.01.22"),
            ("M/d/yyyy", "2024/1/5"),
            ("yyyy年M月d日", "2024年1月5"),
            ("yyyy年M月d日", "2024/1/5"),
        ])
    func refusesText(pattern: String, text: String) throws {
        #expect(try layout(pattern).day(from: text) == nil)
    }

    @Test(
        "refuses numbers that fit the layout but are not a real day",
        arguments: [
            "2023/2/29", "2024/2/30", "2024/4/31", "2024/13/1", "2024/0/1", "2024/1/0", "2024/1/32", "0000/1/1",
        ])
    func refusesNonDays(text: String) throws {
        #expect(try layout("yyyy/M/d").day(from: text) == nil)
    }

    @Test("accepts the leap day of a leap year")
    func leapDay() throws {
        #expect(try layout("yyyy/M/d").day(from: "2024/2/29") == (try day(2024, 2, 29)))
        #expect(try layout("dd.MM.yyyy").day(from: "29.02.2000") == (try day(2000, 2, 29)))
        #expect(try layout("dd.MM.yyyy").day(from: "29.02.1900") == nil)
    }
}
