import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogImport
import Foundation
import Testing

/// Answers to edits and deletions are checked as register's are: one that does not account for exactly what was asked
/// is a protocol error (76), and what it does not confirm stays queued and in the cache as the queue leaves it.
@Suite struct CLIScriptAnswerTrustTests {
    /// A web app that answers a register as saved and an empty month (the client works from its cache here), but
    /// answers updates and deletions with `update` and `delete`.
    static func script(update: String, delete: String) -> String {
        """
        function out(value) { return ContentService.createTextOutput(JSON.stringify(value)).setMimeType(ContentService.MimeType.JSON); }
        function doGet(e) {
          if (e.parameter.action === 'info') return out({app: 'expense-log', version: 2, actions: ['info', 'fetch', 'register', 'delete', 'update']});
          return out([]);
        }
        function doPost(e) {
          var body = JSON.parse(e.postData.contents);
          if (Array.isArray(body)) return out(body);
          return out(body.action === 'update' ? \(update) : \(delete));
        }
        """
    }

    /// A home, a host running `script`, and Q1 and Q2 registered on it.
    func withItems(_ script: String, _ body: (ScriptHost, [String: String]) async throws -> Void) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write(
            "q.csv", "id,date,name,price,category\nQ1,20240105,コーヒー,178,0\nQ2,20240106,パン,250,0\n")
        try await withScriptHost(["--script", try home.write("Script.gs", script)]) { host in
            let env = host.environment(home: home)
            #expect(try await CLI.run(["register", file], environment: env).status == 0)
            try await body(host, env)
        }
    }

    @Test func anUpdateAnsweredWithAnotherItemIsNotTakenForTheChange() async throws {
        let bogus = #"{id: 'BOGUS-1', date: '20240105', name: 'bogus', price: 1, category: 0, categorySub: null}"#
        try await withItems(Self.script(update: bogus, delete: "{deleted: [], missing: []}")) { _, env in
            let edited = try await CLI.run(["edit", "Q1", "--price", "200"], environment: env)
            #expect(edited.status == 76, "\(edited.stderr)")
            #expect(
                edited.stderr.contains("is another item (BOGUS-1)") && !edited.stderr.contains("Changed:"),
                "\(edited.stderr)")
            #expect(
                try await CLI.run(["pending"], environment: env).stderr.contains("edit Q1"), "the change stays queued")
            let cached = try await CLI.run(["fetch", "2024-01", "--offline", "--format", "json"], environment: env)
            let items = try ItemCodec.items(Data(cached.stdout.utf8))
            #expect(
                !items.contains { $0.id == "BOGUS-1" } && items.first { $0.id == "Q1" }?.price == 200,
                "the cache shows the queued change, never the made-up item: \(cached.stdout)")
        }
    }

    @Test func anUpdateAnsweredWithTheItemUnchangedIsNotTakenForTheChange() async throws {
        let stale = #"{id: body.id, date: body.date, name: 'コーヒー', price: 178, category: 0, categorySub: null}"#
        try await withItems(Self.script(update: stale, delete: "{deleted: [], missing: []}")) { _, env in
            let edited = try await CLI.run(["edit", "Q1", "--price", "200"], environment: env)
            #expect(
                edited.status == 76 && edited.stderr.contains("does not show the change made (price)"),
                "\(edited.stderr)")
            #expect(try await CLI.run(["pending"], environment: env).stderr.contains("edit Q1"))
        }
    }

    @Test func aDeleteAnsweredWithoutEveryIdKeepsWhatItDidNotConfirm() async throws {
        for answer in [
            "{deleted: [], missing: []}", "{deleted: ['Q1']}", "{deleted: ['Q1', 'Q2', 'Q9'], missing: []}",
            "{deleted: 'Q1 Q2'}",
        ] {
            try await withItems(Self.script(update: "{}", delete: answer)) { _, env in
                let deleted = try await CLI.run(["delete", "--yes", "Q1", "Q2"], environment: env)
                #expect(deleted.status == 76, "\(answer): \(deleted.stderr)")
                #expect(
                    deleted.stderr.contains("the answer to a delete") && !deleted.stderr.contains("Deleted:"),
                    "\(deleted.stderr)")
                let pending = try await CLI.run(["pending"], environment: env)
                #expect(
                    pending.stderr.contains("delete Q1") && pending.stderr.contains("delete Q2"),
                    "\(answer): \(pending.stderr)")
            }
        }
    }
}
