import ExpenseLogClient
import ExpenseLogModel
import ExpenseLogStore
import Foundation
import Testing

/// Moving what earlier versions queued into the journal: nothing lost when the move is cut short, and nothing moved twice.
@Suite struct JournalMigrationTests {
    static let entry = """
        {"queuedAt":1705900001,"batches":[
        {"key":"K1","items":[
          {"id":"A1","date":"20240105","name":"コーヒー","price":178,"category":0,"categorySub":1}
        ]},
        {"key":"K2","items":[
          {"id":"A2","date":"20240106","name":"パン","price":250,"category":0,"categorySub":0}
        ]}
        ]}

        """

    @Test func aMoveCutShortAfterTheLogsIsFinishedByTheNextRunWithTheLogsKept() async throws {
        try await withTemporaryDirectory { root in
            let (outbox, edits) = (root.appendingPathComponent("outbox"), root.appendingPathComponent("edits"))
            let journal = Journal(directory: root.appendingPathComponent("journal"))
            let name = "00001705900001000000-12-BBBBBBBB"
            try writeText(Self.entry, to: outbox.appendingPathComponent(name + ".json"))
            // The run that was cut short had moved the entry's logs, not the entry.
            try writeText("K1\n", to: journal.directory.appendingPathComponent(name + ".sent"))
            try writeText("K2 1705900002.000\n", to: journal.directory.appendingPathComponent(name + ".tried"))
            try writeText(
                #"{"queuedAt":1705900002,"action":"delete","items":[{"id":"S","date":"20240107","name":"本","price":900,"category":1,"categorySub":null}]}"#
                    + "\n", to: edits.appendingPathComponent("00001705900002000000-13-CCCCCCCC.json"))
            #expect(try journal.listing().isEmpty, "nothing is in the journal yet but the logs")
            #expect(try JournalMigration.run(into: journal, from: [outbox, edits]).entries == 2)
            let listed = try journal.listing()
            #expect(listed.problems.isEmpty)
            guard listed.entries.count == 2, case .items(let items) = listed.entries[0],
                case .change = listed.entries[1]
            else { Issue.record("\(listed.entries)"); return }
            #expect(items.batches.map(\.key) == ["K2"], "the batch the server confirmed stays crossed off")
            #expect(journal.attempts(in: items)["K2"] == Date(timeIntervalSince1970: 1_705_900_002))
            #expect(
                !FileManager.default.fileExists(atPath: outbox.path)
                    && !FileManager.default.fileExists(atPath: edits.path))
            #expect(
                try JournalMigration.run(into: journal, from: [outbox, edits]).entries == 0, "nothing is moved twice")
            // What is journaled now comes after what was moved, even with the clock set back.
            let change = try journal.append(.delete([try Self.a2()]), now: Date(timeIntervalSince1970: 0))
            #expect(try journal.listing().entries.last.map(\.file) == change.file)
        }
    }

    @Test func aFileWhereAnOldFolderWasIsNotOursAndIsLeftAlone() async throws {
        try await withTemporaryDirectory { root in
            let outbox = root.appendingPathComponent("outbox")
            try writeText("not a folder", to: outbox)
            let journal = Journal(directory: root.appendingPathComponent("journal"))
            #expect(try JournalMigration.run(into: journal, from: [outbox]).entries == 0)
            #expect(try String(contentsOf: outbox, encoding: .utf8) == "not a folder")
        }
    }

    @Test func nothingMovesWhileAnotherRunSendsAndAnEntryAnEarlierRegisterHoldsStaysForLater() async throws {
        try await withTemporaryDirectory { root in
            let outbox = root.appendingPathComponent("outbox")
            let journal = Journal(directory: root.appendingPathComponent("journal"))
            let held = outbox.appendingPathComponent("00001705900001000000-12-BBBBBBBB.json")
            let free = outbox.appendingPathComponent("00001705900002000000-12-CCCCCCCC.json")
            try writeText(Self.entry, to: held)
            try writeText(Self.entry.replacingOccurrences(of: "K1", with: "K3"), to: free)
            // Another run (an earlier version's sync, or this one's) holds the lock: nothing is moved this time.
            let sending = try #require(try FileLock.holdLockFileIfFree(journal.lock))
            #expect(try JournalMigration.run(into: journal, from: [outbox]) == .init(entries: 0, busy: true))
            sending.release()
            // An earlier version's register still sends one entry: it stays, the other moves.
            let registering = try #require(try FileLock.holdIfFree(held))
            #expect(try JournalMigration.run(into: journal, from: [outbox]).entries == 1)
            #expect(FileManager.default.fileExists(atPath: held.path))
            #expect(
                FileManager.default.fileExists(
                    atPath: journal.directory.appendingPathComponent(free.lastPathComponent).path))
            registering.release()
            #expect(try JournalMigration.run(into: journal, from: [outbox]).entries == 1)
            #expect(!FileManager.default.fileExists(atPath: outbox.path))
            #expect(try journal.listing().itemEntries.count == 2)
        }
    }

    static func a2() throws -> Item {
        Item(
            id: "A2", date: try #require(Day(year: 2024, month: 1, day: 6)), name: "パン", price: 250, category: 0,
            categorySub: 0)
    }
}
