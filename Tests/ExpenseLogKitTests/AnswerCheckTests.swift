import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogUseCases
import Testing

/// What a POST's answer must list: every id sent, by Sheet key, in any order.
@Suite struct AnswerCheckTests {
    static func item(_ id: String) throws -> Item {
        Item(
            id: id, date: try #require(Day(year: 2024, month: 1, day: 2)), name: "x", price: 1, category: 0,
            categorySub: nil)
    }

    @Test(
        "an answer in the order sent, in another order, with more rows, or with a number for a numeric id lacks nothing"
    )
    func complete() throws {
        let sent = try ["A", "B", "00123"].map { try Self.item($0) }
        #expect(BatchSending.missing(sent, from: SheetAnswer(items: sent)).isEmpty)
        #expect(BatchSending.missing(sent, from: SheetAnswer(items: sent.reversed())).isEmpty)
        #expect(BatchSending.missing(sent, from: SheetAnswer(items: sent + [try Self.item("C")])).isEmpty)
        #expect(
            BatchSending.missing(sent, from: SheetAnswer(items: try ["A", "B", "123"].map { try Self.item($0) }))
                .isEmpty)
    }

    @Test(
        "an answer without some ids names them, in the order sent, whether it is short or holds others in their place")
    func incomplete() throws {
        let sent = try ["A", "B", "C"].map { try Self.item($0) }
        #expect(BatchSending.missing(sent, from: SheetAnswer(items: [try Self.item("B")])) == ["A", "C"])
        #expect(
            BatchSending.missing(sent, from: SheetAnswer(items: try ["A", "X", "C"].map { try Self.item($0) })) == [
                "B"
            ])
        #expect(BatchSending.missing(sent, from: SheetAnswer(items: [])) == ["A", "B", "C"])
    }
}
