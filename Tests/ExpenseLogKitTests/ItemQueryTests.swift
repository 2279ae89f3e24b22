import ExpenseLogModel
import Testing

/// Sorting and filtering what `fetch` prints.
@Suite("Item queries")
struct ItemQueryTests {
    static func item(_ id: String, _ date: String, _ price: Int, _ category: Int, _ sub: Int?) -> Item {
        Item(id: id, date: Day(parsing: date)!, name: "item \(id)", price: price, category: category, categorySub: sub)
    }

    /// A month in the server's order, with ties on date (b, c) and on price (a, d; c, e), and a refund.
    static let month = [
        item("a", "20240122", 200, 0, 1),
        item("b", "20240110", 1500, 0, 0),
        item("c", "20240110", 300, 1, nil),
        item("d", "20240105", 200, 0, 1),
        item("e", "20240131", 300, 1, 2),
        item("f", "20240115", -100, 0, 1),
    ]

    func ids(_ query: ItemQuery) -> [String] { query.apply(Self.month).map(\.id) }

    @Test("the default query keeps every item in the server's order")
    func everything() {
        #expect(ids(ItemQuery()) == ["a", "b", "c", "d", "e", "f"])
    }

    @Test(
        "sorting is stable: ties keep the server's order",
        arguments: [
            (ItemSort.date, ["d", "b", "c", "f", "a", "e"]),
            (ItemSort.price, ["f", "a", "d", "c", "e", "b"]),
        ])
    func stableSort(sort: ItemSort, expected: [String]) {
        #expect(ids(ItemQuery(sort: sort)) == expected)
    }

    @Test("stability holds however many ties there are")
    func manyTies() {
        let same = (0..<500).map { Self.item("\($0)", "20240101", 100, 0, nil) }
        #expect(ItemQuery(sort: .price).apply(same) == same)
        #expect(ItemQuery(sort: .date).apply(same) == same)
    }

    @Test("--reverse reverses the server's order, or the sorted order")
    func reverse() {
        #expect(ids(ItemQuery(reverse: true)) == ["f", "e", "d", "c", "b", "a"])
        #expect(ids(ItemQuery(sort: .price, reverse: true)) == ["b", "e", "c", "d", "a", "f"])
    }

    @Test(
        "a category keeps its items, with or without a sub-category; a sub narrows it further",
        arguments: [
            (ItemQuery(category: 0), ["a", "b", "d", "f"]),
            (ItemQuery(category: 1), ["c", "e"]),
            (ItemQuery(category: 0, sub: 1), ["a", "d", "f"]),
            (ItemQuery(category: 1, sub: 2), ["e"]),
            (ItemQuery(category: 1, sub: 1), []),
            (ItemQuery(category: 7), []),
        ])
    func filter(query: ItemQuery, expected: [String]) {
        #expect(ids(query) == expected)
    }

    @Test("filtering, sorting and reversing combine; the total is that of what is kept")
    func combined() {
        let kept = ItemQuery(sort: .date, reverse: true, category: 0, sub: 1).apply(Self.month)
        #expect(kept.map(\.id) == ["a", "f", "d"])
        #expect(kept.totalPrice == 300)
    }
}
