import ExpenseLogFormats
import ExpenseLogModel
import Testing

/// How a fixed cost meets items: the names a statement gives it, the item that already pays an occurrence, what a month
/// still expects, and the rules' JSON on the wire and on disk.
@Suite struct RecurringMatchTests {
    static func day(_ text: String) throws -> Day { try #require(Day(parsing: text)) }
    static func month(_ year: Int, _ month: Int) throws -> YearMonth {
        try #require(YearMonth(year: year, month: month))
    }
    static func item(_ id: String, _ date: String, _ name: String, _ price: Int) throws -> Item {
        Item(id: id, date: try day(date), name: name, price: price, category: 1, categorySub: nil)
    }
    static let rent = RecurringRule(
        id: "RENT", name: "家賃", price: 85_000, day: 27, category: 1, match: ["ﾔﾏﾀﾞﾌﾄﾞｳｻﾝ"])

    @Test func aStatementNamesARuleByItsNameOrAMatchWordInAnyWidthOrKana() {
        #expect(Self.rent.relates(to: "家賃 4月分"))
        #expect(Self.rent.relates(to: "口座振替 ヤマダフドウサン"), "a match word, half-width kana folded")
        #expect(Self.rent.relates(to: "ﾔﾏﾀﾞ ﾌﾄﾞｳｻﾝ"), "spaces left out")
        #expect(!Self.rent.relates(to: "セブンイレブン"))
        #expect(!Self.rent.relates(to: "家"), "one character names nothing")
        let nhk = RecurringRule(id: "N", name: "NHK受信料", price: 1_100, day: 27, category: 1, match: ["NHK"])
        #expect(nhk.relates(to: "ＮＨＫｼﾞﾕｼﾝﾘﾖｳ"))
    }

    @Test func anOccurrenceIsHeldByItsIdOrByAPaymentAPersonTypedNearItsDay() throws {
        let january = try #require(Self.rent.occurrence(in: try Self.month(2027, 1)))
        #expect(january.holder(among: [], window: 3) == nil)
        let posted = try Self.item(january.id, "2027-01-27", "家賃", 85_000)
        #expect(january.holder(among: [posted], window: 3) == posted)
        let typed = try Self.item("T", "2027-01-25", "家賃", 85_000)
        #expect(january.holder(among: [typed], window: 3) == typed)
        #expect(january.holder(among: [typed], window: 1) == nil, "two days from its day")
        #expect(january.holder(among: [try Self.item("X", "2027-01-27", "家賃", 90_000)], window: 3) == nil)
        // February's occurrence, dated near January's day by hand, is still February's.
        let february = try #require(Self.rent.occurrence(in: try Self.month(2027, 2)))
        #expect(january.holder(among: [try Self.item(february.id, "2027-01-28", "家賃", 85_000)], window: 3) == nil)
    }

    @Test func aMonthExpectsWhatNoItemPaysFromThisMonthOn() throws {
        let months = [2026, 2027].flatMap { year in (1...12).compactMap { YearMonth(year: year, month: $0) } }
        let now = try #require(YearMonth(year: 2027, month: 3))
        let paid = try Self.item("P", "2027-04-26", "家賃", 85_000)
        let expected = RecurringOccurrence.expected([Self.rent], in: months, among: [paid], from: now)
        #expect(
            expected.map(\.date.description)
                == ["2027-03-27"] + (5...12).map { "2027-\($0 < 10 ? "0" : "")\($0)-27" })
    }

    @Test func rulesReadBackAsWrittenAndABadRuleIsNamed() throws {
        var yearly = RecurringRule(
            id: "INS", name: "保険 \"年払\"", price: 38_000, about: 36_000...40_000, day: 1, every: .year, month: 4,
            category: 1, categorySub: 2, from: YearMonth(year: 2027, month: 1), until: YearMonth(year: 2030, month: 12))
        yearly.match = ["ｿﾝﾎﾟ", "損保"]
        let text = RecurringRuleJSON.array([Self.rent, yearly])
        let read = try RecurringRuleJSON.rules(try JSONParser.parse(Array(text.utf8)))
        #expect(read == [Self.rent, yearly])
        #expect(RecurringRuleJSON.array(read) == text, "written twice, the same bytes")
        let bad =
            #"[{"id":"A","name":"x","price":1,"day":27,"category":0},{"id":"B","name":"y","price":1,"day":32,"category":0}]"#
        let error = #expect(throws: RuleFormatError.self) {
            try RecurringRuleJSON.rules(try JSONParser.parse(Array(bad.utf8)))
        }
        #expect(error?.message == "rule 2: day must be 1 to 31, not 32")
    }
}
