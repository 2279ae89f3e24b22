import ExpenseLogClient
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import ExpenseLogUseCases
import Foundation
import Testing

/// The queue of edits and deletions: files that read back as written, in the order made, and the changes laid over a
/// month the server answers.
@Suite struct JournalChangesTests {
    func item(
        _ id: String, _ day: Int, month: Int = 1, _ name: String = "コーヒー", price: Int = 178, sub: Int? = 1
    ) throws -> Item {
        Item(
            id: id, date: try #require(Day(year: 2024, month: month, day: day)), name: name, price: price, category: 0,
            categorySub: sub)
    }

    @Test func changesReadBackInTheOrderMadeAndDroppingOneIdKeepsTheRestOfADeletion() async throws {
        try await withTemporaryDirectory { root in
            let queue = Journal(directory: root.appendingPathComponent("journal"))
            let (a, b) = (try item("A", 5), try item("B", 6, "パン\n\"改行\"", price: 250, sub: nil))
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            try queue.append(
                .update(item: a, changed: try item("A", 3, month: 2, price: 200), fields: [.date, .price]), now: start)
            try queue.append(.delete([a, b]), now: start.addingTimeInterval(1))
            let read = try queue.edits()
            #expect(read.problems.isEmpty)
            #expect(
                read.edits.map(\.change) == [
                    .update(item: a, changed: try item("A", 3, month: 2, price: 200), fields: [.date, .price]),
                    .delete([a, b]),
                ])
            #expect(read.edits.map(\.queuedAt) == [start, start.addingTimeInterval(1)])
            #expect(read.edits[0].months.map(\.description) == ["2024-01", "2024-02"])

            let dropped = try queue.dropChanges(ids: ["B"])
            #expect(dropped.map(\.ids) == [["B"]])
            #expect(
                try queue.listing().changes.map(\.change) == [read.edits[0].change, .delete([a])],
                "the deletion keeps A, in its turn")
            #expect(try queue.dropChanges(ids: nil).count == 2)
            #expect(try queue.listing().changes.isEmpty)
        }
    }

    @Test func aFileThatIsNotAChangeIsNamedAndLeftInPlace() async throws {
        try await withTemporaryDirectory { root in
            let queue = Journal(directory: root)
            let file = root.appendingPathComponent("00000000000000000001-1-ABCDEF01.json")
            try Data(#"{"queuedAt":1,"action":"rename"}"#.utf8).write(to: file)
            let read = try queue.edits()
            #expect(read.edits.isEmpty && read.problems.count == 1 && read.problems[0].contains(file.path))
            #expect(FileManager.default.fileExists(atPath: file.path))
        }
    }

    @Test func queuedChangesAreMadeOnTheMonthTheServerAnswers() throws {
        let january = try #require(YearMonth(year: 2024, month: 1)),
            february = try #require(YearMonth(year: 2024, month: 2))
        let (a, b, c) = (try item("A", 5), try item("B", 6), try item("C", 7))
        // Another machine renamed A meanwhile: only the price the edit sends replaces the server's.
        let renamed = Item(id: "A", date: a.date, name: "珈琲", price: 178, category: 0, categorySub: 1)
        let edits = [
            QueuedEdit.Change.update(item: a, changed: try item("A", 5, price: 200), fields: [.price]),
            .delete([b]),
            .update(item: c, changed: try item("C", 1, month: 2), fields: [.date]),
        ].enumerated().map {
            QueuedEdit(
                change: $0.element, queuedAt: Date(timeIntervalSince1970: Double($0.offset)),
                file: URL(fileURLWithPath: "/q/\($0.offset)"))
        }
        #expect(
            edits.applied(to: [renamed, b, c], in: january).map { "\($0.id) \($0.name) \($0.price)" } == ["A 珈琲 200"])
        #expect(edits.applied(to: [], in: february).map { "\($0.id) \($0.date.compact)" } == ["C 20240201"], "moved in")
        #expect(edits.applied(to: [try item("C", 1, month: 2)], in: february).count == 1, "already moved: once")
        #expect(edits.applied(to: [], in: january).isEmpty, "an edit without a date brings in nothing")

        // A day changed within its month, of an item the server no longer has, brings back nothing.
        let sameMonth = [
            QueuedEdit(
                change: .update(item: a, changed: try item("A", 10), fields: [.date]), queuedAt: Date(),
                file: URL(fileURLWithPath: "/q/x"))
        ]
        #expect(sameMonth.applied(to: [b], in: january).map(\.id) == ["B"])
        // Across the whole cache, an item is what the queue leaves of it, wherever it was.
        #expect(
            edits.applied(to: [a, b, c]).map { "\($0.id) \($0.date.compact) \($0.price)" } == [
                "A 20240105 200", "C 20240201 178",
            ])
    }

    @Test func aDeletionOfNothingIsNotAChange() async throws {
        try await withTemporaryDirectory { root in
            try Data(#"{"queuedAt":1,"action":"delete","items":[]}"#.utf8).write(
                to: root.appendingPathComponent("00000000000000000001-1-ABCDEF01.json"))
            let read = try Journal(directory: root).edits()
            #expect(read.edits.isEmpty && read.problems.count == 1)
        }
    }
}
