@testable import ExpenseLogClient
@testable import ExpenseLogImport
@testable import ExpenseLogModel
@testable import ExpenseLogStore
@testable import ExpenseLogUseCases
import Foundation
import Testing

/// `register`'s duplicate check in-process, over a fake server and a real outbox.
@Suite struct DuplicateCheckTests {
    @Test func skipsKnownIDsAndLikelyDuplicatesAndKeepsTheRest() async throws {
        try await withTemporaryDirectory { root in
            let onServer = Item(id: "S1", date: try day(2024, 1, 5), name: "コーヒー", price: 178, category: 0, categorySub: 1)
            let waiting = Item(id: "W1", date: try day(2024, 1, 6), name: "ラーメン", price: 980, category: 0, categorySub: 0)
            let outbox = releasePaths(root).outbox
            try outbox.enqueue([OutboxBatch(key: "WAIT-1", items: [waiting])])
            let input = [Item(id: "S1", date: try day(2024, 1, 5), name: "coffee", price: 1, category: 0, categorySub: nil),
                         Item(id: "N2", date: try day(2024, 1, 6), name: "ラーメン", price: 980, category: 0, categorySub: 0),
                         Item(id: "N3", date: try day(2024, 1, 7), name: "本", price: 900, category: 1, categorySub: 2)]
            let spool = try ItemSpool()
            var report = ImportRecord(files: ["in.csv"])
            for (line, item) in input.enumerated() {
                let offset = try spool.append(item, tag: Int32(line))
                _ = report.appendSpooled(at: SourceLocation(file: "in.csv", line: line + 2), offset: offset)
            }
            var events: [String] = []
            let check = DuplicateCheck(loader: MonthLoader(client: try client(monthServer([onServer])),
                                                           repository: LocalRepository(directory: root.appendingPathComponent("cache"))),
                                       outbox: outbox, allowLikely: false)
            let (kept, skipped, count) = try await check.run(months: [try #require(YearMonth(year: 2024, month: 1))], spool: spool,
                                                            report: &report) { event in
                events.append("\(event)")
            }
            var reader = try kept.reader()
            var keptIDs: [String] = []
            while let (item, _) = try reader.next() { keptIDs.append(item.id) }
            #expect(keptIDs == ["N3"])
            #expect(skipped.map(\.status) == [.duplicate, .likelyDuplicate])
            #expect(skipped[0].reasons == ["id S1 is already on the server"])
            #expect(skipped[1].reasons.first?.hasSuffix("waiting in the outbox (run `expense-log sync`)") == true)
            #expect(count == 1)
            #expect(skipped.map(\.location.line) == [2, 3], "each skipped row is named at its line")
            #expect(events.first == "comparing(months: 1)" && events.contains("compared"))
        }
    }
}
