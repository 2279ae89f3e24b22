import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogStore
import Foundation
import Testing

/// `edit` and `delete` when the web app cannot be reached or its answer is lost: the change waits in the queue, the
/// cache shows it made, `pending` lists it, and `sync` (or the next change) sends the queue in order, once each.
@Suite(.serialized) struct CLIQueuedEditsTests {
    static let items = """
        id,date,name,price,category,categorySub
        Q1,20240105,コーヒー,178,0,1
        Q2,20240106,パン,250,0,0
        Q3,20240107,本,900,1,
        """

    /// A fresh home, a script host (given `options`, or running `script` instead of Code.gs) and the three items
    /// registered on it: what each test starts from.
    func withRegisteredItems(
        _ options: [String] = [], script: String? = nil, token: String? = nil,
        _ body: (ScriptHost, [String: String], TemporaryDirectory) async throws -> Void
    ) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("q.csv", Self.items)
        let scriptOption = try script.map { ["--script", try home.write("Script.gs", $0)] } ?? []
        try await withScriptHost(options + scriptOption) { host in
            var env = host.environment(home: home)
            if let token { env["EXPENSE_LOG_TOKEN"] = token }
            #expect(try await CLI.run(["register", file], environment: env).status == 0)
            try await body(host, env, home)
        }
    }

    /// The ids in a month's sheet, in row order.
    func ids(_ host: ScriptHost, _ sheet: String) async throws -> [String?] {
        try await host.rows(book: "家計簿_2024", sheet: sheet).dropFirst().map { $0[0] as? String }
    }

    @Test func changesMadeWhileTheServerIsDownWaitAndSyncSendsThemInOrderOnce() async throws {
        try await withRegisteredItems { host, env, _ in
            try await host.setDown(true)

            // The server was never asked ?action=info: the change is queued all the same, and sync asks first.
            let priced = try await CLI.run(["edit", "Q1", "--price", "200", "--retries", "0"], environment: env)
            #expect(priced.status == 75, "\(priced.stderr)")
            #expect(
                priced.stderr.contains("The change waits in") && priced.stderr.contains("expense-log sync"),
                "\(priced.stderr)")
            // The next edit starts from the cache, which shows the first one made.
            let moved = try await CLI.run(["edit", "Q1", "--date", "2024-02-01", "--retries", "0"], environment: env)
            #expect(moved.status == 75, "\(moved.stderr)")
            let deleted = try await CLI.run(["delete", "--yes", "Q2", "--retries", "0"], environment: env)
            #expect(deleted.status == 75, "\(deleted.stderr)")
            #expect(try await host.posts() == 1, "only the register reached the script")

            let january = try await CLI.run(["fetch", "2024-01", "--offline", "--format", "json"], environment: env)
            #expect(try ItemCodec.items(Data(january.stdout.utf8)).map(\.id) == ["Q3"], "\(january.stdout)")
            let february = try await CLI.run(["fetch", "2024-02", "--offline", "--format", "json"], environment: env)
            #expect(
                try ItemCodec.items(Data(february.stdout.utf8)).map { "\($0.id) \($0.date.compact) \($0.price)" } == [
                    "Q1 20240201 200"
                ])

            let pending = try await CLI.run(["pending"], environment: env)
            #expect(pending.status == 0, "\(pending.stderr)")
            let lines = pending.stderr.split(separator: "\n").map(String.init)
            #expect(
                lines.contains {
                    $0.hasPrefix("3 changes to items wait in ")
                        && $0.hasSuffix(
                            "/development/journal, "
                                + "sent in this order by `expense-log sync` (a change of an item still in the outbox after it):"
                        )
                }, "\(pending.stderr)")
            #expect(
                lines.filter { $0.hasPrefix("  ") } == [
                    "  edit Q1: 2024-01-05 コーヒー ¥178 (Food/Drink) → 2024-01-05 コーヒー ¥200 (Food/Drink)",
                    "  edit Q1: 2024-01-05 コーヒー ¥200 (Food/Drink) → 2024-02-01 コーヒー ¥200 (Food/Drink)",
                    "  delete Q2: 2024-01-06 パン ¥250 (Food/Grocery)",
                ], "\(pending.stderr)")

            let stillDown = try await CLI.run(["sync", "--retries", "0"], environment: env)
            #expect(stillDown.status == 75 && stillDown.stderr.contains("3 changes wait in"), "\(stillDown.stderr)")

            try await host.setDown(false)
            // Back online but not synced: a month read from the server is shown (and cached) with the changes made.
            let refetched = try await CLI.run(["fetch", "2024-01", "--format", "json"], environment: env)
            #expect(try ItemCodec.items(Data(refetched.stdout.utf8)).map(\.id) == ["Q3"], "\(refetched.stdout)")
            #expect(refetched.stderr.contains("3 queued changes are shown made, not sent yet"), "\(refetched.stderr)")
            let movedIn = try await CLI.run(["fetch", "2024-02", "--format", "json"], environment: env)
            #expect(
                try ItemCodec.items(Data(movedIn.stdout.utf8)).map { "\($0.id) \($0.date.compact) \($0.price)" } == [
                    "Q1 20240201 200"
                ])
            #expect(try await ids(host, "1") == ["Q1", "Q2", "Q3"], "fetching sent nothing")

            let synced = try await CLI.run(["sync"], environment: env)
            #expect(synced.status == 0, "\(synced.stderr)")
            #expect(
                synced.stderr.contains("Changed: 2024-02-01 コーヒー ¥200")
                    && synced.stderr.contains("Deleted: 2024-01-06 パン ¥250"),
                "\(synced.stderr)")
            #expect(try await ids(host, "1") == ["Q3"])
            let row = try await host.rows(book: "家計簿_2024", sheet: "2").dropFirst().first
            #expect(row?[0] as? String == "Q1" && row?[3] as? Int == 200, "\(String(describing: row))")

            let posts = try await host.posts()
            let again = try await CLI.run(["sync"], environment: env)
            #expect(
                again.status == 0 && again.stderr.isEmpty && again.stdout.isEmpty, "cron mails nothing: \(again.stderr)"
            )
            #expect(try await host.posts() == posts, "nothing is sent twice")
            let empty = try await CLI.run(["pending"], environment: env)
            #expect(!empty.stderr.contains("changes to items"), "\(empty.stderr)")
        }
    }

    @Test func anEditWhoseAnswerIsLostWaitsAndTheNextEditSendsItFirst() async throws {
        try await withRegisteredItems { host, env, _ in
            try await host.loseAnswers(1)
            let lost = try await CLI.run(["edit", "Q1", "--price", "200", "--retries", "0"], environment: env)
            #expect(lost.status == 75, "\(lost.stderr)")
            #expect(
                lost.stderr.contains("1 change waits in") && lost.stderr.contains("(this one among them)")
                    && lost.stderr.contains("sending it again is safe"), "\(lost.stderr)")
            #expect(try await host.rows(book: "家計簿_2024", sheet: "1")[1][3] as? Int == 200, "the script ran it")

            // The next change sends the queue first: the lost edit again (it sets the same price), then its own.
            let renamed = try await CLI.run(["edit", "Q1", "--name", "珈琲"], environment: env)
            #expect(renamed.status == 0, "\(renamed.stderr)")
            #expect(renamed.stderr.components(separatedBy: "Changed:").count == 3, "\(renamed.stderr)")
            let rows = try await host.rows(book: "家計簿_2024", sheet: "1").dropFirst()
            #expect(rows.map { "\($0[0]) \($0[2]) \($0[3])" } == ["Q1 珈琲 200", "Q2 パン 250", "Q3 本 900"])
            let pending = try await CLI.run(["pending"], environment: env)
            #expect(!pending.stderr.contains("changes to items"), "\(pending.stderr)")
        }
    }

    @Test func aQueuedEditOfAVanishedItemIsDroppedAndPendingDropRemovesAChange() async throws {
        try await withRegisteredItems { host, env, _ in
            try await host.setDown(true)
            #expect(
                try await CLI.run(["edit", "Q1", "--price", "200", "--retries", "0"], environment: env).status == 75)
            #expect(try await CLI.run(["delete", "--yes", "Q3", "--retries", "0"], environment: env).status == 75)
            let dropped = try await CLI.run(["pending", "drop", "--yes", "Q3"], environment: env)
            #expect(dropped.status == 0, "\(dropped.stderr)")
            #expect(
                dropped.stderr.contains(
                    "Removed the queued deletion of Q3 (2024-01-07 本 ¥900 (Entertainment)); the cache still shows it made, until "
                        + "`expense-log fetch --refresh 2024-01`, which shows what the server has"), "\(dropped.stderr)"
            )

            try await host.setDown(false)
            // another machine
            _ = try await host.call(post: #"{"action":"delete","items":[{"id":"Q1","date":"20240105"}]}"#)
            let synced = try await CLI.run(["sync"], environment: env)
            #expect(synced.status == 65, "\(synced.stderr)")
            #expect(
                synced.stderr.contains("The server no longer has Q1 in 2024-01")
                    && synced.stderr.contains("so the change (to 2024-01-05 コーヒー ¥200 (Food/Drink)) was dropped"),
                "\(synced.stderr)")
            #expect(try await ids(host, "1") == ["Q2", "Q3"], "the dropped deletion was never sent")
            let pending = try await CLI.run(["pending"], environment: env)
            #expect(pending.status == 0 && !pending.stderr.contains("changes to items"), "\(pending.stderr)")
        }
    }

    @Test func syncKeepsQueuedChangesForAServerWithoutTheExtensions() async throws {
        // The original protocol only: a month, or the items posted back; a GET without a month fails as such a script does.
        let original = """
            function doGet(e) {
              if (!e.parameter.year) throw new TypeError("Cannot read properties of undefined (reading 'getSheetByName')");
              return ContentService.createTextOutput('[]').setMimeType(ContentService.MimeType.JSON);
            }
            function doPost(e) {
              return ContentService.createTextOutput(e.postData.contents).setMimeType(ContentService.MimeType.JSON);
            }
            """
        try await withRegisteredItems(script: original) { host, env, _ in
            try await host.setDown(true)
            #expect(
                try await CLI.run(["edit", "Q1", "--price", "200", "--retries", "0"], environment: env).status == 75)
            try await host.setDown(false)
            let posts = try await host.posts()
            let synced = try await CLI.run(["sync"], environment: env)
            #expect(synced.status == 69, "\(synced.stderr)")
            #expect(synced.stderr.contains("is not expense-log's web app"), "\(synced.stderr)")
            #expect(try await host.posts() == posts, "nothing was sent")
            let pending = try await CLI.run(["pending"], environment: env)
            #expect(pending.stderr.contains("1 change to items waits in"), "\(pending.stderr)")
            // Said how to let it go, and then it goes: a later sync is not stuck on it.
            #expect(
                synced.stderr.contains(
                    "cannot be sent to it: deploy the bundled script, or remove them with `expense-log pending drop ID`"
                ))
            #expect(try await CLI.run(["pending", "drop", "Q1", "--yes"], environment: env).status == 0)
            #expect(try await CLI.run(["sync"], environment: env).status == 0)
        }
    }
}

extension CLIQueuedEditsTests {
    @Test func syncSendsEveryWriteInTheOrderItWasQueuedAndTheCacheKeepsWhatIsStillQueued() async throws {
        try await withRegisteredItems { host, env, home in
            let later = try home.write("r.csv", "id,date,name,price,category\nR9,20240120,牛乳,200,0\n")
            try await host.setDown(true)
            #expect(try await CLI.run(["register", later, "--retries", "0"], environment: env).status == 75)
            // An edit of an item still waiting to be registered waits behind it.
            let behind = try await CLI.run(["edit", "R9", "--price", "150", "--retries", "0"], environment: env)
            #expect(behind.status == 75 && behind.stderr.contains("The change waits in"), "\(behind.stderr)")
            #expect(
                try await CLI.run(["edit", "Q1", "--price", "200", "--retries", "0"], environment: env).status == 75)
            #expect(
                try await CLI.run(["edit", "Q1", "--date", "2024-02-01", "--retries", "0"], environment: env).status
                    == 75)
            try await host.setDown(false)

            // The batch, then its item's price, then Q1's price go through; the move runs on the script but its answer is lost.
            try await host.loseAnswers(1, after: 3)
            let synced = try await CLI.run(["sync", "--format", "json"], environment: env)
            #expect(synced.status == 75, "\(synced.stderr)")
            #expect(try ItemCodec.items(Data(synced.stdout.utf8)).map(\.id) == ["R9"], "\(synced.stdout)")
            #expect(
                synced.stderr.contains("Changed: 2024-01-20 牛乳 ¥150")
                    && synced.stderr.contains("Changed: 2024-01-05 コーヒー ¥200")
                    && synced.stderr.contains("1 change waits in"), "\(synced.stderr)")
            // The cache shows the move still queued, not the server's January copy the price change came back with.
            let february = try await CLI.run(["fetch", "2024-02", "--offline", "--format", "json"], environment: env)
            #expect(
                try ItemCodec.items(Data(february.stdout.utf8)).map { "\($0.id) \($0.price)" } == ["Q1 200"],
                "\(february.stdout)")

            // The next edit starts from February and goes behind the move, which is sent again first (it is safe).
            let renamed = try await CLI.run(["edit", "Q1", "--name", "珈琲"], environment: env)
            #expect(renamed.status == 0, "\(renamed.stderr)")
            let moved = try await host.rows(book: "家計簿_2024", sheet: "2").dropFirst()
            #expect(moved.map { "\($0[0]) \($0[1]) \($0[2]) \($0[3])" } == ["Q1 20240201 珈琲 200"])
            #expect(try await ids(host, "1") == ["Q2", "Q3", "R9"])
            let january = try await host.rows(book: "家計簿_2024", sheet: "1").dropFirst()
            #expect(
                january.filter { "\($0[0])" == "R9" }.map { "\($0[2]) \($0[3])" } == ["牛乳 150"],
                "registered, then edited: \(january)")
        }
    }

    @Test func aQueuedFileThatCannotBeReadStopsTheChangesAfterIt() async throws {
        try await withRegisteredItems { host, env, home in
            try await host.setDown(true)
            for arguments in [
                ["edit", "Q1", "--price", "200"], ["edit", "Q2", "--price", "300"], ["delete", "--yes", "Q3"],
            ] {
                #expect(try await CLI.run(arguments + ["--retries", "0"], environment: env).status == 75)
            }
            try await host.setDown(false)
            let folder = home.url.appendingPathComponent("expense-log/state/development/journal")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            #expect(names.count == 3, "\(names)")
            let broken = folder.appendingPathComponent(names[1])
            try Data("{\"queuedAt\":1,".utf8).write(to: broken)

            let synced = try await CLI.run(["sync"], environment: env)
            #expect(synced.status == 74, "\(synced.stderr)")
            #expect(synced.stderr.contains("the journal entry \(broken.path) cannot be read"), "\(synced.stderr)")
            #expect(synced.stderr.contains("Changed: 2024-01-05 コーヒー ¥200"), "the change before it is sent")
            #expect(try await ids(host, "1") == ["Q1", "Q2", "Q3"], "the deletion after it waits")
            let pending = try await CLI.run(["pending"], environment: env)
            #expect(pending.status == 74 && pending.stderr.contains("delete Q3"), "\(pending.stderr)")
        }
    }

    @Test func aRefusedChangeStaysQueuedAndSaysHowToDropIt() async throws {
        try await withRegisteredItems(["--key", "right-key"], token: "right-key") { host, env, _ in
            var env = env
            try await host.setDown(true)
            #expect(
                try await CLI.run(["delete", "--yes", "Q1", "Q2", "--retries", "0"], environment: env).status == 75)
            try await host.setDown(false)
            env["EXPENSE_LOG_TOKEN"] = "wrong-key"
            let refused = try await CLI.run(["sync"], environment: env)
            #expect(refused.status == 77, "\(refused.stderr)")
            #expect(
                refused.stderr.contains("1 change waits in")
                    && refused.stderr.contains("`expense-log pending drop Q1 Q2`"), "\(refused.stderr)")
            #expect(try await ids(host, "1") == ["Q1", "Q2", "Q3"])
            env["EXPENSE_LOG_TOKEN"] = "right-key"
            #expect(try await CLI.run(["sync"], environment: env).status == 0)
            #expect(try await ids(host, "1") == ["Q3"])
        }
    }
}

extension CLIQueuedEditsTests {
    @Test func whileAnotherRunSendsTheQueueAChangeWaitsAndPendingDropLeavesItAlone() async throws {
        try await withRegisteredItems { host, env, home in
            // This test holds the lock a sync holds while it sends (flock: another open of the file conflicts, in-process too).
            let lockFile = home.url.appendingPathComponent("expense-log/state/development/sync.lock")
            let held = try await FileLock.acquire(lockFile)
            let edited = try await CLI.run(["edit", "Q1", "--price", "200"], environment: env)
            #expect(
                edited.status == 75 && edited.stderr.contains("Another run (a sync, edit or delete) is sending"),
                "\(edited.stderr)")
            let dropped = try await CLI.run(["pending", "drop", "--yes", "Q1"], environment: env)
            #expect(
                dropped.status == 75 && dropped.stderr.contains("nothing was removed: another run"), "\(dropped.stderr)"
            )
            held.release()
            #expect(
                try await host.rows(book: "家計簿_2024", sheet: "1")[1][3] as? Int == 178,
                "nothing was sent while the lock was held")
            let synced = try await CLI.run(["sync"], environment: env)
            #expect(synced.status == 0 && synced.stderr.contains("Changed: 2024-01-05 コーヒー ¥200"), "\(synced.stderr)")
        }
    }
}

extension CLIQueuedEditsTests {
    @Test func anEditNeverUndoesAChangeMadeOnTheServerSince() async throws {
        try await withRegisteredItems { host, env, _ in
            // Another machine sets the price; this cache still says 178.
            _ = try await host.call(post: #"{"action":"update","id":"Q1","date":"20240105","changes":{"price":250}}"#)
            let edited = try await CLI.run(["edit", "Q1", "--price", "200"], environment: env)
            #expect(edited.status == 65, "\(edited.stderr)")
            #expect(
                edited.stderr.contains("refused the request (conflict)")
                    && edited.stderr.contains("price is 250, not 178")
                    && edited.stderr.contains("so the change (to 2024-01-05 コーヒー ¥200 (Food/Drink)) was dropped")
                    && edited.stderr.contains("edit again if the change is still wanted"), "\(edited.stderr)")
            #expect(try await host.rows(book: "家計簿_2024", sheet: "1")[1][3] as? Int == 250)
            // Another field is no conflict: the name changes, the other machine's price stays.
            #expect(try await CLI.run(["fetch", "2024-01"], environment: env).status == 0)
            #expect(try await CLI.run(["edit", "Q1", "--name", "珈琲"], environment: env).status == 0)

            // An old update that runs late (its answer long lost) finds the price moved on, and leaves it.
            _ = try await host.call(
                post: #"{"action":"update","id":"Q1","date":"20240105","changes":{"price":300},"was":{"price":250}}"#)
            let late = try await host.call(
                post: #"{"action":"update","id":"Q1","date":"20240105","changes":{"price":200},"was":{"price":178}}"#)
            #expect(late.contains(#""kind":"conflict""#), "\(late)")
            let again = try await host.call(
                post: #"{"action":"update","id":"Q1","date":"20240105","changes":{"price":300},"was":{"price":250}}"#)
            #expect(!again.contains("error"), "a retry of the change made is no conflict: \(again)")
            let row = try await host.rows(book: "家計簿_2024", sheet: "1")[1]
            #expect("\(row[2]) \(row[3])" == "珈琲 300")
        }
    }

    @Test func anEditWithTheServerUnreachableWaitsAtOnceAndSaysTheServerHasNotGotIt() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("u.csv", "id,date,name,price,category\nU1,20240105,コーヒー,178,0\n")
        let host = try await ScriptHost.start()
        let env = host.environment(home: home)
        #expect(try await CLI.run(["register", file], environment: env).status == 0)
        // An edit while it answers: the client now knows it runs the bundled script and asks no more.
        #expect(try await CLI.run(["edit", "U1", "--price", "190"], environment: env).status == 0)
        // The web app is gone: its port refuses every connection, as a server that is not running does.
        host.stop()
        _ = await host.process.wait()
        let edited = try await CLI.run(["edit", "U1", "--price", "200"], environment: env)
        #expect(edited.status == 75, "\(edited.stderr)")
        #expect(
            edited.stderr.contains("the server could not be reached, so it has not got it")
                && !edited.stderr.contains("may have reached"),
            "\(edited.stderr)")
        #expect(!edited.stderr.contains("retrying"), "not retried, as add is not: \(edited.stderr)")
    }
}
