import ExpenseLogModel
import Foundation
import Testing

/// A draft of a valid item read from `items.json` at a line; each test spoils the fields it is about.
func draft(
    line: Int = 1, id: RawValue = .missing, date: RawValue = .text("20240122"), name: RawValue = .text("コーヒー"),
    price: RawValue = .integer(178), category: RawValue = .integer(0), categorySub: RawValue = .integer(1)
) -> ItemDraft {
    var draft = ItemDraft(location: SourceLocation(file: "items.json", line: line))
    draft.id = id
    draft.date = date
    draft.name = name
    draft.price = price
    draft.category = category
    draft.categorySub = categorySub
    return draft
}

/// The fields the problems are about, in order.
func fields(_ problems: [ValidationProblem]) -> [String?] {
    problems.map(\.field)
}

@Suite("Validating input items")
struct ItemValidationTests {
    @Test("a complete draft becomes the item it describes")
    func validDraftBecomesItem() throws {
        let result = draft(
            id: .text("ABC-1"), date: .text("2024/1/5"), name: .text("  ラーメン "), price: .text("-1500"),
            category: .text("1"), categorySub: .integer(2)
        ).validated()
        #expect(result.problems.isEmpty)
        let item = try #require(result.item)
        #expect(
            item
                == Item(id: "ABC-1", date: try day(2024, 1, 5), name: "ラーメン", price: -1500, category: 1, categorySub: 2)
        )
    }

    @Test("an empty or blank name is refused", arguments: [RawValue.missing, .null, .text(""), .text("   ")])
    func emptyName(name: RawValue) {
        let result = draft(name: name).validated()
        #expect(result.item == nil)
        #expect(fields(result.problems) == ["name"])
    }

    @Test("a name may have 30 characters, a Japanese character counting as one")
    func thirtyCharacters() throws {
        for name in [
            String(repeating: "あ", count: 30), String(repeating: "a", count: 30),
            String(repeating: "漢", count: 29) + "x",
        ] {
            let item = try #require(draft(name: .text(name)).validated().item)
            #expect(item.name == name)
        }
    }

    @Test("a name of 31 characters is refused with its length and the limit")
    func thirtyOneCharacters() throws {
        for name in [String(repeating: "あ", count: 31), String(repeating: "a", count: 31)] {
            let result = draft(name: .text(name)).validated()
            let problem = try #require(result.problems.first)
            #expect(result.item == nil)
            #expect(problem.field == "name")
            #expect(problem.message.contains("31") && problem.message.contains("30"))
        }
    }

    @Test("a price of 0 is refused, a negative refund is kept", arguments: [RawValue.integer(0), .text("0")])
    func zeroPrice(price: RawValue) throws {
        #expect(fields(draft(price: price).validated().problems) == ["price"])
        #expect(try #require(draft(price: .integer(-300)).validated().item).price == -300)
    }

    @Test(
        "a price that is not a whole number is refused",
        arguments: [RawValue.text("12.5"), .other("the number 12.5"), .text("abc"), .other("true"), .missing, .null])
    func fractionalPrice(price: RawValue) {
        let result = draft(price: price).validated()
        #expect(result.item == nil)
        #expect(fields(result.problems) == ["price"])
    }

    @Test(
        "a category that is no number or name of the catalogue is refused, naming what it has",
        arguments: [
            RawValue.text("travel"), .integer(7), .text("7"), .other("the number 1.5"), .other("an object"), .missing,
        ])
    func unknownCategory(category: RawValue) {
        let problems = draft(category: category).validated().problems
        #expect(fields(problems) == ["category"])
        if case .integer = category {
            #expect(problems.first?.message.contains("0 食費 Food, 1 娯楽費 Entertainment") == true)
        }
    }

    @Test(
        "a category and sub-category by name, as a person writes them in a CSV",
        arguments: [
            (RawValue.text("食費"), RawValue.text("飲料"), 0, 1), (.text("food"), .text("drink"), 0, 1),
            (.text("娯楽費/雑貨"), .missing, 1, 2), (.text("Entertainment"), .integer(1), 1, 1),
        ])
    func namedCategory(category: RawValue, sub: RawValue, expected: Int, expectedSub: Int) throws {
        let item = try #require(draft(category: category, categorySub: sub).validated().item)
        #expect(item.category == expected && item.categorySub == expectedSub)
    }

    @Test("an absent categorySub means none", arguments: [RawValue.missing, .null, .text("")])
    func absentSub(sub: RawValue) throws {
        #expect(try #require(draft(categorySub: sub).validated().item).categorySub == nil)
    }

    @Test(
        "a categorySub given as a number or numeric text is kept",
        arguments: [(RawValue.integer(3), 3), (.text("1"), 1)])
    func givenSub(sub: RawValue, expected: Int) throws {
        #expect(try #require(draft(categorySub: sub).validated().item).categorySub == expected)
    }

    @Test(
        "a categorySub that is no sub-category of its category is refused",
        arguments: [RawValue.text("交通費"), .other("the number 0.5"), .integer(9)])
    func badSub(sub: RawValue) {
        #expect(fields(draft(categorySub: sub).validated().problems) == ["categorySub"])
    }

    @Test(
        "a date that is not a real day is refused",
        arguments: [
            RawValue.text("20240230"), .integer(20241301), .text("2024-1-32"), .text("1/5"), .missing, .other("true"),
        ])
    func badDate(date: RawValue) {
        #expect(fields(draft(date: date).validated().problems) == ["date"])
    }

    @Test("a date given as a JSON number is read as yyyyMMdd")
    func numericDate() throws {
        #expect(try #require(draft(date: .integer(20240122)).validated().item).date == day(2024, 1, 22))
    }

    @Test("every problem of one item is reported, not just the first")
    func allProblemsOfOneItem() {
        let result = draft(
            line: 7, date: .text("20240230"), name: .text(" "), price: .integer(0),
            category: .integer(0), categorySub: .text("y")
        ).validated()
        #expect(result.item == nil)
        #expect(Set(fields(result.problems)) == ["date", "name", "price", "categorySub"])
        // An unknown category leaves its sub-category unchecked: a sub means something only within its category.
        #expect(
            Set(fields(draft(date: .text("x"), category: .text("x"), categorySub: .text("y")).validated().problems))
                == ["date", "category"])
        #expect(result.problems.allSatisfy { $0.location == SourceLocation(file: "items.json", line: 7) })
    }

    @Test("an item without an id gets a fresh uppercase UUID")
    func generatedID() throws {
        let first = try #require(draft(id: .missing).validated().item)
        let second = try #require(draft(id: .text("  ")).validated().item)
        for id in [first.id, second.id] {
            #expect(UUID(uuidString: id) != nil)
            #expect(id == id.uppercased())
        }
        #expect(first.id != second.id)
    }

    @Test("a given id is kept")
    func givenID() throws {
        #expect(try #require(draft(id: .text("100000BF-4AAC")).validated().item).id == "100000BF-4AAC")
        #expect(try #require(draft(id: .integer(42)).validated().item).id == "42")
    }

    @Test("validatedAll keeps the input order and where each item was read")
    func validatedAllKeepsOrder() {
        let drafts = [
            draft(line: 2, id: .text("A")), draft(line: 3, id: .text("B"), price: .integer(0)),
            draft(line: 4, id: .text("C")),
        ]
        let result = drafts.validatedAll()
        #expect(result.items.map(\.id) == ["A", "C"])
        #expect(result.locations.map(\.line) == [2, 4])
        #expect(result.problems.map(\.location.line) == [3])
    }

    @Test("an id used twice is reported at each later item, naming the first")
    func duplicateIDs() {
        let drafts = [
            draft(line: 2, id: .text("X")), draft(line: 5, id: .text("Y")),
            draft(line: 9, id: .text("X")), draft(line: 12, id: .text("X")),
        ]
        let result = drafts.validatedAll()
        #expect(result.items.map(\.id) == ["X", "Y"])
        #expect(result.problems.map(\.location.line) == [9, 12])
        #expect(fields(result.problems) == ["id", "id"])
        #expect(result.problems.allSatisfy { $0.message.contains("items.json:2") })
    }

    @Test("rolling back forgets the items, problems and ids added since the mark, so a refused file's ids stay free")
    func rollBack() {
        var validator = ItemValidator()
        validator.add(draft(line: 2, id: .text("KEEP")))
        let mark = validator.mark
        validator.add(draft(line: 3, id: .text("DROP")))
        validator.add(draft(line: 4, id: .text("BAD"), price: .integer(0)))
        validator.rollBack(to: mark)
        #expect(validator.items.map(\.id) == ["KEEP"])
        #expect(validator.problems.isEmpty)
        validator.add(draft(line: 7, id: .text("DROP")))
        validator.add(draft(line: 8, id: .text("KEEP")))
        #expect(validator.items.map(\.id) == ["KEEP", "DROP"])
        #expect(validator.locations.map(\.line) == [2, 7])
        #expect(validator.problems.map(\.location.line) == [8])
    }

    @Test("generated ids never collide with each other")
    func generatedIDsAreDistinct() {
        let result = (1...50).map { draft(line: $0) }.validatedAll()
        #expect(result.problems.isEmpty)
        #expect(Set(result.items.map(\.id)).count == 50)
    }

    @Test("a problem reads FILE:LINE: field: message")
    func descriptionForm() throws {
        var zero = draft(price: .integer(0))
        zero.location = SourceLocation(file: "in/items.csv", line: 14)
        let problem = try #require(zero.validated().problems.first)
        #expect(problem.description == "in/items.csv:14: price: \(problem.message)")
        #expect(problem.message.contains("0"))
        let wholeFile = ValidationProblem(
            location: SourceLocation(file: "-", line: 1), field: nil, message: "invalid JSON")
        #expect(wholeFile.description == "-:1: invalid JSON")
    }
}

extension CategoryCatalogue {
    /// Categories 0 to 20 with sub-categories 0 to 9: for tests of what a profile maps rows to, whatever the catalogue.
    static let wide = CategoryCatalogue(
        categories: (0...20).map { id in
            Category(
                id: id, japanese: "分類\(id)", english: "Kind \(id)",
                subs: (0...9).map { SubCategory(id: $0, japanese: "小分類\($0)", english: "Sub \($0)") })
        })
}
