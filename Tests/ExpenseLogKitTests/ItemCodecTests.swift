import ExpenseLogFormats
import Foundation
import Testing

/// What the one item codec says about JSON it cannot read: the line, the item and the field, in words.
@Suite struct ItemCodecTests {
    static let cases: [(body: String, problem: String)] = [
        (
            "[\n  {\"id\":\"A\",\"date\":\"20240101\",\"name\":\"x\",\"price\":1,\"category\":0},\n  {\"id\":\"B\",\"date\":\"20240102\",\"name\":\"y\",\"price\":\"abc\",\"category\":0}\n]",
            "line 3: item 2: price: expected a whole number, found the string \"abc\""
        ),
        (
            "[\n{\"id\":\"A\",\"date\":\"20241301\",\"name\":\"x\",\"price\":1,\"category\":0}]",
            "line 2: item 1: date: \"20241301\" is not a yyyyMMdd day"
        ),
        ("[{\"id\":\"A\",\"date\":\"20240101\",\"name\":\"x\",\"price\":1}]", "line 1: item 1: category: missing"),
        (
            "[{\"id\":\"A\",\"date\":\"20240101\",\"name\":true,\"price\":1,\"category\":0}]",
            "line 1: item 1: name: expected a string, found true"
        ),
        (
            "[{\"id\":\"A\",\"id\":\"B\",\"date\":\"20240101\",\"name\":\"x\",\"price\":1,\"category\":0}]",
            "line 1: item 1: id: given twice"
        ),
        (
            "[{\"id\":\"A\",\"date\":\"20240101\",\"name\":\"x\",\"price\":1.5,\"category\":0}]",
            "line 1: item 1: price: expected a whole number, found the number 1.5"
        ),
        ("[1]", "line 1: item 1: expected an item object, found the number 1"),
        ("{\"items\":[]}", "line 1: expected an array of items, found an object"),
        ("[\n\n{\"id\":", "line 3: invalid JSON: unexpected end of input (is the file cut off?)"),
    ]

    @Test("a problem names its line, item and field", arguments: cases.indices)
    func problems(index: Int) {
        let (body, problem) = Self.cases[index]
        #expect(throws: ItemCodec.Problem.self) { try ItemCodec.items(Array(body.utf8)) }
        do {
            _ = try ItemCodec.items(Array(body.utf8))
        } catch {
            #expect(error.description == problem)
        }
    }

    @Test("what a Sheet may hand back is read leniently, and no sub-category is nil however it is written")
    func leniency() throws {
        let body =
            #"[{"id":7,"date":20240102,"name":42,"price":"-300","category":"1","categorySub":""},"#
            + #"{"id":"B","date":"20240103","name":"x","price":1,"category":0,"categorySub":null},"#
            + #"{"id":"C","date":"20240104","name":"y","price":2,"category":1,"unknown":[1,{"a":2}]}]"#
        let items = try ItemCodec.items(Array(body.utf8))
        #expect(items.map(\.id) == ["7", "B", "C"])
        #expect(items.map(\.name) == ["42", "x", "y"])
        #expect(items.map(\.price) == [-300, 1, 2])
        #expect(items.map(\.categorySub) == [nil, nil, nil])
    }
}
