import ExpenseLogModel
import Testing

/// Settling up: shares rounded to the yen half away from zero and adding up to the total, personal and unpaid items
/// left out, settlements counted.
@Suite struct SettleUpTests {
    static func item(_ price: Int, _ payer: String?, personal: Bool = false) throws -> Item {
        Item(
            id: "I\(price)", date: try #require(Day(parsing: "2027-03-05")), name: "x", price: price, category: 0,
            categorySub: nil, payer: payer, personal: personal)
    }

    @Test func anOddYenGoesToTheFirstShareAndTheTwoMakeTheTotal() throws {
        let settled = SettleUp(items: [try Self.item(1_001, "A")], people: ("A", "B"), ratio: .even)
        #expect(settled.sides.map(\.share) == [501, 500])
        #expect(settled.owes?.from == "B" && settled.owes?.amount == 500)
        let thirds = SettleUp(items: [try Self.item(1_000, "B")], people: ("A", "B"), ratio: try #require(Split(1, 2)))
        #expect(thirds.sides.map(\.share) == [333, 667] && thirds.owes?.from == "A" && thirds.owes?.amount == 333)
    }

    @Test func personalAndUnpaidItemsAreLeftOutAndRefundsReduceTheTotal() throws {
        let items = [
            try Self.item(10_000, "A"), try Self.item(4_000, "B"), try Self.item(3_000, "A", personal: true),
            try Self.item(9_999, nil), try Self.item(-1_000, "A"),
        ]
        let settled = SettleUp(items: items, people: ("A", "B"), ratio: .even)
        #expect(settled.shared == 13_000 && settled.count == 3)
        #expect(settled.sides.map(\.paid) == [9_000, 4_000] && settled.owes?.amount == 2_500)
    }

    @Test func aRecordedSettlementCountsAsPaid() throws {
        let day = try #require(Day(parsing: "2027-03-31"))
        let paid = Settlement(
            id: "S", from: day, to: day, payer: "B", payee: "A", amount: 3_000, ratio: "50:50", recorded: "")
        let settled = SettleUp(
            items: [try Self.item(10_000, "A"), try Self.item(4_000, "B")], people: ("A", "B"), ratio: .even,
            settlements: [paid])
        #expect(settled.owes == nil && settled.sides.map(\.balance) == [0, 0])
    }
}
