import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import Testing

@Suite("Reading and showing yen amounts")
struct PriceTextTests {
    @Test(
        "reads the ways banks, apps and people write an amount",
        arguments: [
            ("1500", 1500),
            ("0", 0),
            ("1,500", 1500),
            ("1,500,000", 1_500_000),
            ("999", 999),
            ("12,345", 12345),
            ("¥1,500", 1500),
            ("￥１，５００", 1500),  // full-width yen sign, digits and comma
            ("１５００", 1500),
            ("\\1,500", 1500),  // Shift_JIS 0x5C, the yen sign, decoded as a backslash
            ("1,500円", 1500),
            ("1500円", 1500),
            ("-1,500", -1500),
            ("−1,500", -1500),  // U+2212 minus sign
            ("－1,500", -1500),  // full-width hyphen-minus
            ("▲1,500", -1500),
            ("△1,500", -1500),
            ("-¥1,500", -1500),
            ("¥-1,500", -1500),
            ("▲¥1,500円", -1500),
            ("  1,500 ", 1500),  // surrounding blanks
            ("9,223,372,036,854,775,807", Int.max),
        ])
    func readsAmounts(text: String, value: Int) {
        #expect(PriceText.parse(text) == value)
    }

    @Test(
        "refuses fractions, misplaced commas, words and numbers too large for an Int",
        arguments: [
            "1,50",
            "1,5000",
            ",500",
            "1,500,",
            "1,,500",
            "1234,567",
            "1.5",
            "1500.50",
            "1,500.5",
            "1500.",
            "abc",
            "¥",
            "円",
            "-",
            "△",
            "",
            "   ",
            "1500-",
            "--1500",
            "¥¥1500",
            "1 500",
            "1,500 yen",
            "9223372036854775808",
            "99,999,999,999,999,999,999",
        ])
    func refusesOthers(text: String) {
        #expect(PriceText.parse(text) == nil)
    }

    @Test("a CSV field quoted because it holds a comma reads as one amount")
    func quotedCSVField() throws {
        let record = try #require(try CSV.parse("20240122,\"1,500\",0\n").first)
        #expect(record.fields.count == 3)
        #expect(PriceText.parse(record.fields[1]) == 1500)
    }

    @Test(
        "shows amounts with thousands separators",
        arguments: [
            (0, "0"), (7, "7"), (999, "999"), (1000, "1,000"), (1500, "1,500"), (-12000, "-12,000"),
            (1_234_567, "1,234,567"), (-100, "-100"),
        ])
    func formats(value: Int, text: String) {
        #expect(PriceText.format(value) == text)
    }

    @Test("what it shows reads back as the same amount", arguments: [1, -1, 999, 1000, -1500, 1_000_000, Int.max])
    func roundTrip(value: Int) {
        #expect(PriceText.parse(PriceText.format(value)) == value)
    }
}
