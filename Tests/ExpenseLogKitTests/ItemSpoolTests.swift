import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogStore
import ExpenseLogUseCases
import Foundation
import Testing

/// `count` distinct items over three months, with long names so the records cross the spool's 64 KiB buffers.
private func manyItems(_ count: Int) throws -> [Item] {
    try (0..<count).map { index in
        Item(
            id: "ID-\(index)", date: try day(2024, 1 + index % 3, 1 + index % 28),
            name: "品名 \(index) " + String(repeating: "あ", count: index % 40),
            price: index % 7 == 0 ? -index - 1 : index + 1,
            category: index % 2, categorySub: index % 5 == 0 ? nil : index % 3)
    }
}

/// Every record of a spool, read back in order.
private func readAll(_ spool: ItemSpool) throws -> [(item: Item, tag: Int32)] {
    var reader = try spool.reader()
    var records: [(item: Item, tag: Int32)] = []
    while let record = try reader.next() { records.append(record) }
    return records
}

@Suite("The item spool: a large import's items on disk between phases")
struct ItemSpoolTests {
    @Test("who paid and whether it was personal come back with the item, beside items that say neither")
    func shareComesBack() throws {
        let spool = try ItemSpool()
        let items = try [
            Item(
                id: "A", date: day(2027, 3, 5), name: "食材", price: 1_000, category: 0, categorySub: nil,
                payer: "花子", personal: false),
            Item(id: "B", date: day(2027, 3, 6), name: "本", price: 600, category: 1, categorySub: 2, personal: true),
            Item(id: "C", date: day(2027, 3, 7), name: "水", price: 100, category: 0, categorySub: 1),
            Item(id: "S", date: day(2027, 3, 7), name: "映画", price: 1_800, category: 1, categorySub: nil, shared: true),
            Item(
                id: "D", date: day(2027, 3, 8), name: "家賃", price: 85_000, category: 1, categorySub: nil, payer: "",
                personal: true),
        ]
        for (index, item) in items.enumerated() { try spool.append(item, tag: Int32(index)) }
        let read = try readAll(spool)
        #expect(read.map(\.item) == items)
        #expect(read.map(\.item).isByteForByte(items))
    }

    @Test("items come back byte for byte, in order, with their tags, across many buffers")
    func roundTrip() throws {
        let items = try awkwardItems() + manyItems(5_000)
        let spool = try ItemSpool()
        for (index, item) in items.enumerated() { try spool.append(item, tag: Int32(index * 3)) }
        let records = try readAll(spool)
        #expect(records.map(\.item).isByteForByte(items))
        #expect(records.map(\.tag) == items.indices.map { Int32($0 * 3) })
        #expect(spool.count == items.count)
        #expect(spool.totalPrice == items.totalPrice)
        // A second reader starts from the first record again.
        #expect(try readAll(spool).count == items.count)
    }

    @Test("a record larger than the write buffer (a name of 300 KB) comes back whole between others")
    func recordLargerThanTheBuffer() throws {
        let spool = try ItemSpool()
        let huge = Item(
            id: "BIG", date: try day(2024, 2, 3), name: String(repeating: "長", count: 100_000), price: 1,
            category: 0, categorySub: nil)
        let items = try manyItems(30) + [huge] + manyItems(30)
        for (index, item) in items.enumerated() { try spool.append(item, tag: Int32(index)) }
        let back = try readAll(spool)
        #expect(back.map(\.item).isByteForByte(items))
        #expect(back.map(\.tag) == (0..<Int32(items.count)).map { $0 })
        #expect(spool.count == items.count)
    }

    @Test("records copied from another spool read back as those items, after the ones there, count and total included")
    func recordsCopiedFromAnotherSpool() throws {
        let items = try manyItems(4_000)
        let source = try ItemSpool(), copy = try ItemSpool()
        for (index, item) in items.enumerated() { try source.append(item, tag: Int32(index)) }
        try copy.append(items[0], tag: 0)
        // From the 1,000th record to the 3,000th, as a reader finds where they start and end.
        var reader = try source.reader()
        for _ in 0..<1_000 { _ = try reader.next() }
        let start = reader.offset
        for _ in 0..<2_000 { _ = try reader.next() }
        let slice = Array(items[1_000..<3_000])
        try copy.append(
            recordsOf: source, from: start, to: reader.offset, count: slice.count,
            total: slice.reduce(0) { $0 + Int128($1.price) })
        let back = try readAll(copy)
        #expect(back.map(\.item).isByteForByte([items[0]] + slice))
        #expect(copy.count == 2_001)
        #expect(copy.totalPrice == ([items[0]] + slice).reduce(0) { $0 + Int128($1.price) })
    }

    @Test("truncating to a mark forgets what came after it, count and total included, and appending goes on from there")
    func truncate() throws {
        let items = try manyItems(3_000)
        let spool = try ItemSpool()
        for item in items[..<1_000] { try spool.append(item, tag: 0) }
        let mark = spool.mark
        for item in items[1_000...] { try spool.append(item, tag: 1) }
        try spool.truncate(to: mark)
        #expect(spool.count == 1_000)
        #expect(spool.totalPrice == items[..<1_000].totalPrice)
        let extra = try awkwardItems()
        for item in extra { try spool.append(item, tag: 2) }
        let records = try readAll(spool)
        #expect(records.map(\.item).isByteForByte(Array(items[..<1_000]) + extra))
        #expect(records.map(\.tag) == Array(repeating: 0, count: 1_000) + Array(repeating: 2, count: extra.count))
    }

    @Test("a record is found by where it starts, near the last one read or far from it, and reading goes on after it")
    func recordAtOffset() throws {
        let items = try manyItems(4_000)
        let spool = try ItemSpool()
        let offsets = try items.enumerated().map { try spool.append($1, tag: Int32($0)) }
        var reader = try spool.reader()
        for index in [3_999, 0, 1, 2_500, 2_501, 17, 3_000] {
            let record = try reader.record(at: offsets[index])
            #expect(record.tag == Int32(index))
            #expect([record.item].isByteForByte([items[index]]))
        }
        #expect(try reader.next()?.tag == 3_001)
    }

    @Test("tags alone and the records of one month are read without the others")
    func tagsAndMonths() throws {
        let items = try manyItems(900)
        let spool = try ItemSpool()
        for (index, item) in items.enumerated() { try spool.append(item, tag: Int32(index)) }
        var tags = try spool.reader()
        var seen: [Int32] = []
        while let tag = try tags.nextTag() { seen.append(tag) }
        #expect(seen == items.indices.map(Int32.init))
        var february = try spool.reader()
        var found: [Item] = []
        while let (item, _) = try february.next(where: { $0 == 2024 && $1 == 2 }) { found.append(item) }
        #expect(found.isByteForByte(items.filter { $0.date.month == 2 }))
    }

    @Test("a reader reads what was there when it was made, and a stretch from one record to the end of another")
    func stretches() throws {
        let items = try manyItems(3_000)
        let spool = try ItemSpool()
        var starts: [Int64] = []
        for item in items.prefix(2_000) { starts.append(try spool.append(item, tag: 0)) }
        var early = try spool.reader()
        for item in items.dropFirst(2_000) { starts.append(try spool.append(item, tag: 0)) }
        var count = 0
        while try early.next() != nil { count += 1 }
        #expect(count == 2_000, "records appended after the reader was made are not read")

        var stretch = try spool.reader(from: starts[1_500], to: starts[2_500])
        var read: [Item] = []
        while let (item, _) = try stretch.next() { read.append(item) }
        #expect(read.isByteForByte(Array(items[1_500..<2_500])))
    }

    @Test("an empty spool reads as empty")
    func empty() throws {
        let spool = try ItemSpool()
        #expect(try readAll(spool).isEmpty)
        #expect(spool.count == 0 && spool.totalPrice == 0)
    }

    @Test("a spool's items print exactly as the same items held in memory, in every format and both languages")
    func printsLikeAnArray() throws {
        for items in [[], try awkwardItems(), try awkwardItems() + manyItems(3_000)] {
            let spool = try ItemSpool()
            for item in items { try spool.append(item, tag: 0) }
            for japanese in [false, true] {
                let writer = ItemWriter(japanese: japanese)
                for format in OutputFormat.allCases {
                    var pieces: [String] = []
                    try writer.write(spool, as: format) { pieces.append(String(decoding: $0, as: UTF8.self)) }
                    #expect(pieces.joined() == writer.render(items, as: format), "\(format), \(items.count) items")
                    // Large outputs come in pieces, so they are never held whole.
                    if items.count > 1_000 { #expect(pieces.count > 2) }
                }
            }
        }
    }
}
