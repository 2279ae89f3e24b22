import ExpenseLogModel
import Testing

/// Fixed costs' occurrences: the day a month has them on (the 31st on a short month's last day), yearly ones, the
/// rule's months, and ids that name one occurrence whoever posts it.
@Suite struct RecurringRuleTests {
    static func month(_ year: Int, _ month: Int) throws -> YearMonth {
        try #require(YearMonth(year: year, month: month))
    }
    static func day(_ text: String) throws -> Day { try #require(Day(parsing: text)) }

    @Test func aDayPastTheMonthsEndFallsOnItsLastDay() throws {
        let rule = RecurringRule(id: "R1", name: "駐車場", price: 12_000, day: 31, category: 1)
        let days = rule.occurrences(from: try Self.day("2027-01-01"), through: try Self.day("2027-04-30"))
            .map(\.date.description)
        #expect(days == ["2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30"])
        #expect(rule.occurrence(in: try Self.month(2028, 2))?.date.description == "2028-02-29", "a leap year")
        let thirtieth = RecurringRule(id: "R2", name: "家賃", price: 85_000, day: 30, category: 1)
        #expect(thirtieth.occurrence(in: try Self.month(2027, 2))?.date.description == "2027-02-28")
    }

    @Test func rentOnThe27thThroughMarchIsOneOccurrenceAMonthEachWithItsOwnStableId() throws {
        let rule = RecurringRule(id: "RENT", name: "家賃", price: 85_000, day: 27, category: 1, categorySub: 2)
        let posted = rule.occurrences(from: try Self.day("2027-01-01"), through: try Self.day("2027-03-31"))
        #expect(posted.map(\.date.description) == ["2027-01-27", "2027-02-27", "2027-03-27"])
        #expect(Set(posted.map(\.id)).count == 3, "one id a month")
        // Posted again, or by the partner's machine, or after the rent went up: the same ids.
        var raised = rule
        raised.price = 88_000
        let again = raised.occurrences(from: try Self.day("2027-01-01"), through: try Self.day("2027-03-31"))
        #expect(again.map(\.id) == posted.map(\.id))
        #expect(again[0].item.price == 88_000 && again[0].item.name == "家賃" && again[0].item.categorySub == 2)
        // A day before the 27th does not have this month's yet.
        #expect(rule.occurrences(from: try Self.day("2027-04-01"), through: try Self.day("2027-04-26")).isEmpty)
    }

    @Test func aYearlyRuleComesInItsMonthAndARuleOnlyWithinItsMonths() throws {
        let insurance = RecurringRule(
            id: "INS", name: "火災保険", price: 20_000, day: 10, every: .year, month: 4, category: 1)
        let dates = insurance.occurrences(from: try Self.day("2027-01-01"), through: try Self.day("2028-12-31"))
            .map(\.date.description)
        #expect(dates == ["2027-04-10", "2028-04-10"])
        let phone = RecurringRule(
            id: "PHONE", name: "携帯", price: 3_000, day: 5, category: 1, from: try Self.month(2027, 2),
            until: try Self.month(2027, 3))
        #expect(
            phone.occurrences(from: try Self.day("2027-01-01"), through: try Self.day("2027-12-31")).map(\.month) == [
                try Self.month(2027, 2), try Self.month(2027, 3),
            ])
    }

    @Test func aStatementAmountIsTheRulesWhenItIsThePriceOrWithinAbout() {
        let nhk = RecurringRule(id: "NHK", name: "NHK", price: 1_100, day: 28, category: 1)
        #expect(nhk.accepts(price: 1_100) && !nhk.accepts(price: 1_225))
        let power = RecurringRule(id: "POWER", name: "電気", price: 8_000, about: 5_000...12_000, day: 20, category: 1)
        #expect(power.accepts(price: 9_870) && !power.accepts(price: 13_000))
    }
}
