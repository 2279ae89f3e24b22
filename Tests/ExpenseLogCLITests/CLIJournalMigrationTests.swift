import ExpenseLogFormats
import Foundation
import Testing

/// Writes queued by a version before the journal (items in `outbox/`, edits and deletions in `edits/`, as those
/// versions wrote them) are moved into the journal by the first run and sent by `sync` in the order they were made.
@Suite(.serialized) struct CLIJournalMigrationTests {
    /// An outbox entry in the layout every earlier version wrote, one batch per `(key, items)`.
    static func outboxEntry(queuedAt: String, _ batches: [(String, [String])]) -> String {
        "{\"queuedAt\":\(queuedAt),\"batches\":[\n"
            + batches.map { key, items in
                "{\"key\":\"\(key)\",\"items\":[\n" + items.map { "  " + $0 }.joined(separator: ",\n") + "\n]}"
            }.joined(separator: ",\n") + "\n]}\n"
    }

    static func item(_ id: String, _ day: Int, _ name: String, _ price: Int) -> String {
        #"{"id":"\#(id)","date":"202401\#(String(format: "%02d", day))","name":"\#(name)","price":\#(price),"#
            + #""category":0,"categorySub":0}"#
    }

    @Test func bothOldFoldersFullAreMovedOnceAndSyncSendsThemInTheirOrder() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write(
            "q.csv", "id,date,name,price,category,categorySub\nQ1,20240105,コーヒー,178,0,1\nQ2,20240106,パン,250,0,0\n")
        try await withScriptHost { host in
            let env = host.environment(home: home)
            #expect(try await CLI.run(["register", file], environment: env).status == 0)
            let state = home.url.appendingPathComponent("expense-log/state/development")
            let outbox = state.appendingPathComponent("outbox"), edits = state.appendingPathComponent("edits")
            for folder in [outbox, edits] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            // In the order made: Q2 deleted, an import of N1 and N2 (N1's batch confirmed before the run ended), N2's
            // price changed while it waited, then another import of N3.
            try home.write(
                "expense-log/state/development/edits/00001705900000000000-11-AAAAAAAA.json",
                #"{"queuedAt":1705900000,"action":"delete","items":[\#(Self.item("Q2", 6, "パン", 250))]}"# + "\n")
            try home.write(
                "expense-log/state/development/outbox/00001705900001000000-12-BBBBBBBB.json",
                Self.outboxEntry(
                    queuedAt: "1705900001",
                    [("K1", [Self.item("Q1", 5, "コーヒー", 178)]), ("K2", [Self.item("N2", 11, "牛乳", 198)])]))
            try home.write("expense-log/state/development/outbox/00001705900001000000-12-BBBBBBBB.sent", "K1\n")
            try home.write(
                "expense-log/state/development/edits/00001705900002000000-13-CCCCCCCC.json",
                #"{"queuedAt":1705900002,"action":"update","item":\#(Self.item("N2", 11, "牛乳", 198)),"#
                    + #""changed":\#(Self.item("N2", 11, "牛乳", 218)),"fields":["price"]}"# + "\n")
            try home.write(
                "expense-log/state/development/outbox/00001705900003000000-14-DDDDDDDD.json",
                Self.outboxEntry(queuedAt: "1705900003", [("K3", [Self.item("N3", 12, "卵", 260)])]))

            let pending = try await CLI.run(["pending", "--format", "csv"], environment: env)
            #expect(pending.status == 0, "\(pending.stderr)")
            #expect(pending.stderr.contains("4 waiting writes were moved into "), "\(pending.stderr)")
            #expect(pending.stdout.contains("N2,") && pending.stdout.contains("N3,") && !pending.stdout.contains("Q1,"))
            #expect(pending.stderr.contains("delete Q2") && pending.stderr.contains("edit N2"), "\(pending.stderr)")
            #expect(
                !FileManager.default.fileExists(atPath: outbox.path)
                    && !FileManager.default.fileExists(atPath: edits.path))
            let journal = state.appendingPathComponent("journal")
            let names = try FileManager.default.contentsOfDirectory(atPath: journal.path).filter {
                $0.hasSuffix(".json")
            }
            #expect(
                names.sorted() == [
                    "00001705900000000000-11-AAAAAAAA.json", "00001705900001000000-12-BBBBBBBB.json",
                    "00001705900002000000-13-CCCCCCCC.json", "00001705900003000000-14-DDDDDDDD.json",
                ], "each keeps its name, and with it its place")
            // A second run finds nothing to move and says nothing about it.
            let again = try await CLI.run(["pending"], environment: env)
            #expect(!again.stderr.contains("moved into"), "\(again.stderr)")

            let sync = try await CLI.run(["sync"], environment: env)
            #expect(sync.status == 0, "\(sync.stderr)")
            // The items are said before the changes are sent: the outbox is not called empty while changes wait.
            #expect(
                sync.stderr.contains("No item waits to be registered.")
                    && !sync.stderr.contains("The outbox is empty."),
                "\(sync.stderr)")
            let rows = try await host.rows(book: "家計簿_2024", sheet: "1").dropFirst().map {
                "\($0[0] as? String ?? "") \($0[3])"
            }
            #expect(
                rows == ["Q1 178", "N2 218", "N3 260"],
                "Q2 deleted, Q1 not sent twice, N2 changed after it was registered")
            #expect(try await CLI.run(["pending"], environment: env).stderr.contains("empty"))
        }
    }
}
