import ExpenseLogFormats
import ExpenseLogModel
import Foundation
import Testing

/// Every command run in-process (`ExpenseLogCommand.main`) against `FakeWebApp`, for the exit codes of
/// docs/exit-codes.md and the words a person sees; the CLI tests run the binary where a process is needed.
@Suite struct CommandExitCodeTests {
    static let january = YearMonth(year: 2024, month: 1)!

    static func item(_ id: String, day: Int = 5, name: String = "コーヒー", price: Int = 178) -> Item {
        Item(id: id, date: Day(year: 2024, month: 1, day: day)!, name: name, price: price, category: 0, categorySub: 1)
    }

    /// A run of the tool in a fresh home, in the development environment, against `app`.
    struct Tool {
        let home: URL
        let app: FakeWebApp

        var environment: [String: String] {
            [
                "EXPENSE_LOG_HOME": home.path, "EXPENSE_LOG_ENV": "development",
                "EXPENSE_LOG_BASE_URL": "http://127.0.0.1:9/exec",
                "LANG": "C", "TZ": "Asia/Tokyo",
            ]
        }

        func callAsFunction(_ arguments: String...) async -> (code: Int32, stdout: String, stderr: String) {
            await runTool(arguments + ["--retries", "0"], environment: environment, session: app.session)
        }

        /// A file in the home, written with `text`.
        func file(_ name: String, _ text: String) throws -> String {
            let url = home.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url.path
        }
    }

    func withTool(_ items: [Item] = [], _ body: (Tool) async throws -> Void) async throws {
        try await withTemporaryDirectory { home in try await body(Tool(home: home, app: FakeWebApp(items))) }
    }

    @Test func fetchPrintsAMonthAndSaysWhatTheCacheCannotServe() async throws {
        try await withTool([Self.item("Q1")]) { tool in
            let offline = await tool("fetch", "2024-02", "--offline")
            #expect(offline.code == 69 && offline.stderr.contains("2024-02 is not cached"), "\(offline.stderr)")
            let fetched = await tool("fetch", "2024-01", "--format", "json")
            #expect(
                fetched.code == 0 && (try? ItemCodec.items(Data(fetched.stdout.utf8)))?.map(\.id) == ["Q1"],
                "\(fetched)")
            tool.app.setDown(true)
            let cached = await tool("fetch", "2024-01", "--format", "json")
            #expect(cached.code == 0 && cached.stderr.contains("Showing 2024-01"), "the cache serves: \(cached.stderr)")
            let none = await tool("fetch", "2024-03")
            #expect(none.code == 69, "\(none.stderr)")
            #expect(await tool("fetch", "--month", "13").code == 64)
        }
    }

    @Test func addRegistersAPurchaseAndQueuesItWhenTheServerIsDown() async throws {
        try await withTool { tool in
            let added = await tool("add", "ラーメン", "980", "--category", "food", "--date", "2024-01-20")
            #expect(added.code == 0, "\(added.stderr)")
            #expect(tool.app.items.map { "\($0.name) \($0.price) \($0.date)" } == ["ラーメン 980 2024-01-20"])
            #expect(await tool("add", "ラーメン").code == 64, "off a terminal, add needs a name and a price")
            let invalid = await tool("add", "ラーメン", "abc", "--category", "food")
            #expect(invalid.code == 65 && invalid.stderr.contains("price"), "\(invalid.stderr)")
            tool.app.setDown(true)
            let queued = await tool("add", "餃子", "450", "--category", "food", "--date", "2024-01-21")
            #expect(queued.code == 75)
            // Said as a person's purchase kept for later, not as a failed import of "(arguments):1".
            #expect(
                queued.stderr.contains("餃子 ¥450 is queued") && !queued.stderr.contains("Error:")
                    && !queued.stderr.contains("(arguments)") && !queued.stderr.contains("Report:"), "\(queued.stderr)")
            let pending = await tool("pending", "--format", "json")
            #expect(pending.code == 0 && pending.stdout.contains("餃子"), "\(pending)")
        }
    }

    @Test func editAndDeleteChangeTheServerAndWaitWhenItIsDown() async throws {
        try await withTool([Self.item("Q1"), Self.item("Q2", day: 6, name: "パン", price: 250)]) { tool in
            #expect(await tool("fetch", "2024-01").code == 0)
            #expect(await tool("edit", "Q1").code == 64, "nothing to change")
            let unknown = await tool("edit", "NOPE", "--price", "1")
            #expect(
                unknown.code == 65 && unknown.stderr.contains("no cached or waiting item has the id NOPE"),
                "\(unknown.stderr)")
            let edited = await tool("edit", "Q1", "--price", "200")
            #expect(edited.code == 0 && edited.stderr.contains("Changed: 2024-01-05 コーヒー ¥200"), "\(edited.stderr)")
            #expect(await tool("delete", "Q2").code == 64, "off a terminal, delete needs --yes")
            let deleted = await tool("delete", "--yes", "Q2")
            #expect(deleted.code == 0 && tool.app.items.map(\.id) == ["Q1"], "\(deleted.stderr)")
            tool.app.setDown(true)
            let queued = await tool("edit", "Q1", "--name", "珈琲")
            #expect(
                queued.code == 75 && queued.stderr.contains("1 change waits in")
                    && queued.stderr.contains("`expense-log sync` sends them"),
                "\(queued.stderr)")
        }
    }

    @Test func anEditOfAnItemAddedWhileTheServerWasDownIsSentAfterIt() async throws {
        try await withTool { tool in
            tool.app.setDown(true)
            let added = await tool("add", "たこ焼き", "600", "--category", "food", "--date", "2024-01-22", "--id", "T1")
            #expect(added.code == 75, "\(added.stderr)")
            let edited = await tool("edit", "T1", "--price", "650")
            #expect(edited.code == 75 && edited.stderr.contains("The change waits in"), "\(edited.stderr)")
            let pending = await tool("pending")
            #expect(
                pending.stderr.contains("edit T1: 2024-01-22 たこ焼き ¥600 (Food) → 2024-01-22 たこ焼き ¥650 (Food)"),
                "\(pending.stderr)")
            tool.app.setDown(false)
            let synced = await tool("sync")
            #expect(synced.code == 0 && synced.stderr.contains("Changed: 2024-01-22 たこ焼き ¥650"), "\(synced.stderr)")
            #expect(tool.app.items.map { "\($0.id) \($0.price)" } == ["T1 650"], "registered, then edited")
            #expect(await tool("pending").stderr.contains("is empty"))
        }
    }

    @Test func anEditWithTheServerUpRegistersTheItemItTouchesFirstAndTheCacheShowsTheChange() async throws {
        try await withTool([Self.item("Q1")]) { tool in
            tool.app.setDown(true)
            #expect(
                await tool("add", "たこ焼き", "600", "--category", "food", "--date", "2024-01-22", "--id", "T1").code == 75)
            #expect(
                await tool("add", "ラムネ", "150", "--category", "food", "--date", "2024-03-02", "--id", "U1").code == 75)
            tool.app.setDown(false)
            #expect(
                await tool("fetch", "2024-01").code == 0, "the server is known to be the bundled script from here on")
            let edited = await tool("edit", "T1", "--price", "650")
            #expect(edited.code == 0, "\(edited.stderr)")
            #expect(
                edited.stderr.contains("Sent 1 item in 1 request")
                    && edited.stderr.contains("Changed: 2024-01-22 たこ焼き ¥650"),
                "\(edited.stderr)")
            #expect(
                tool.app.items.map { "\($0.id) \($0.price)" } == ["Q1 178", "T1 650"],
                "U1, which the edit does not touch, waits for sync")
            let cached = await tool("fetch", "2024-01", "--offline", "--format", "json")
            #expect(
                (try? ItemCodec.items(Data(cached.stdout.utf8)))?.map { "\($0.id) \($0.price)" } == [
                    "Q1 178", "T1 650",
                ],
                "the cache shows the change, not the copy registered before it: \(cached.stdout)")
            let pending = await tool("pending", "--format", "json")
            #expect((try? ItemCodec.items(Data(pending.stdout.utf8)))?.map(\.id) == ["U1"], "\(pending.stdout)")
        }
    }

    @Test func aChangeNotSentYetStaysShownOnTheItemSyncJustRegistered() async throws {
        try await withTool([Self.item("Q1")]) { tool in
            #expect(await tool("fetch", "2024-01").code == 0)
            tool.app.setDown(true)
            #expect(
                await tool("add", "たこ焼き", "600", "--category", "food", "--date", "2024-01-22", "--id", "T1").code == 75)
            #expect(await tool("edit", "T1", "--price", "650").code == 75)
            tool.app.setDown(false)
            tool.app.loseAnswers(to: ["update"])
            let synced = await tool("sync")
            #expect(
                synced.code == 75 && synced.stderr.contains("Sent 1 item"),
                "the item goes, its change waits: \(synced.stderr)")
            let cached = await tool("fetch", "2024-01", "--offline", "--format", "json")
            #expect(
                (try? ItemCodec.items(Data(cached.stdout.utf8)))?.map { "\($0.id) \($0.price)" } == [
                    "Q1 178", "T1 650",
                ],
                "the cache shows the change still queued, not the copy just registered: \(cached.stdout)")
        }
    }

    @Test func aFileWithProblemsIsListedWithNoServerConfigured() async throws {
        try await withTool { tool in
            var environment = tool.environment
            environment["EXPENSE_LOG_BASE_URL"] = nil
            let bad = try tool.file("bad.csv", "id,date,name,price,category\nR2,20240230,牛乳,200,0\n")
            let refused = await runTool(["register", bad], environment: environment)
            #expect(
                refused.code == 65 && refused.stderr.contains("bad.csv:2"),
                "the rows are checked first: \(refused.stderr)")
            let good = try tool.file("good.csv", "id,date,name,price,category\nR1,20240110,牛乳,200,0\n")
            #expect(
                await runTool(["register", good], environment: environment).code == 78, "a valid row needs a server")
        }
    }

    @Test func registerSendsAFileAndRefusesWhatItCannotRead() async throws {
        try await withTool { tool in
            let good = try tool.file("good.csv", "id,date,name,price,category\nR1,20240110,牛乳,200,0\n")
            let sent = await tool("register", good)
            #expect(sent.code == 0 && tool.app.items.map(\.id) == ["R1"], "\(sent.stderr)")
            let bad = try tool.file("bad.csv", "id,date,name,price,category\nR2,20240230,牛乳,200,0\n")
            let refused = await tool("register", bad)
            #expect(refused.code == 65 && refused.stderr.contains("bad.csv:2"), "\(refused.stderr)")
            #expect(await tool("register", tool.home.appendingPathComponent("none.csv").path).code == 66)
            #expect(tool.app.posts == 1, "nothing invalid was sent")
        }
    }

    @Test func syncAndPendingSayWhatWaitsAndSendIt() async throws {
        try await withTool { tool in
            let empty = await tool("sync")
            #expect(empty.code == 0 && empty.stderr.isEmpty, "\(empty.stderr)")
            tool.app.setDown(true)
            #expect(
                await tool("add", "パン", "250", "--category", "food", "--date", "2024-01-06", "--id", "P1").code == 75)
            #expect(await tool("sync").code == 75)
            #expect(await tool("pending", "drop", "P1").code == 64, "off a terminal, drop needs --yes")
            let typo = await tool("pending", "drop", "--yes", "P9")
            #expect(typo.code == 65 && typo.stderr.contains("no waiting item has the id P9"), "\(typo.stderr)")
            tool.app.setDown(false)
            #expect(await tool("sync").code == 0 && tool.app.items.map(\.id) == ["P1"])
            #expect(await tool("pending", "clear", "--yes").code == 0)
        }
    }

    @Test func summaryAndReportCountTheMonthAndBudgetsExitThreeWhenOverspent() async throws {
        try await withTool([Self.item("Q1", price: 50_000)]) { tool in
            let summary = await tool("summary", "2024-01", "--format", "json")
            #expect(summary.code == 0 && summary.stdout.contains("50000"), "\(summary)")
            let unset = await tool("summary", "2024-01", "--budget")
            #expect(unset.code == 78 && unset.stderr.contains("sets no budgets"), "\(unset.stderr)")
            #expect(await tool("config", "set", "budgets.total", "30000").code == 0)
            #expect(await tool("summary", "2024-01", "--budget").code == 3)
            let page = tool.home.appendingPathComponent("2024-01.html").path
            let report = await tool("report", "2024-01", "-o", page)
            #expect(report.code == 0 && FileManager.default.fileExists(atPath: page), "\(report.stderr)")
        }
    }

    @Test func theCacheConfigCategoriesProfilesAndCompletionAnswer() async throws {
        try await withTool([Self.item("Q1")]) { tool in
            #expect(await tool("fetch", "2024-01").code == 0)
            let list = await tool("cache", "list")
            #expect(list.code == 0 && list.stdout.contains("2024-01"), "\(list)")
            let path = await tool("cache", "path")
            #expect(path.code == 0 && path.stdout.hasPrefix(tool.home.path), "\(path)")
            let cleared = await tool("cache", "clear")
            let gone = await tool("fetch", "2024-01", "--offline")
            #expect(cleared.code == 0 && gone.code == 69, "\(cleared.stderr)")
            #expect(await tool("config", "show").code == 0)
            let config = await tool("config", "path")
            #expect(config.code == 0 && config.stdout.hasSuffix("config.json\n"), "\(config)")
            #expect(await tool("config", "set", "serverTimeZone", "Asia/Tokyo").code == 0)
            let get = await tool("config", "get", "serverTimeZone")
            #expect(get.code == 0 && get.stdout == "Asia/Tokyo\n", "\(get)")
            #expect(await tool("config", "unset", "serverTimeZone").code == 0)
            #expect(await tool("config", "set", "baseurl", "x").code == 64, "an unknown key")
            #expect(await tool("categories").code == 0)
            #expect(await tool("profile", "list").code == 0)
            #expect(await tool("profile", "show", "moneyforward").code == 0)
            let completion = await tool("completion", "bash")
            #expect(completion.code == 0 && completion.stdout.contains("complete -F"), "\(completion.stderr)")
            let help = await tool("help", "sync")
            #expect(help.code == 0 && help.stdout.contains("USAGE: expense-log sync"), "\(help.stdout)")
            #expect(await tool("frobnicate").code == 64)
        }
    }

    @Test func serverCheckNeedsADeployedWebApp() async throws {
        try await withTool { tool in
            let dummy = await runTool(
                ["--env", "dummy", "server", "check"], environment: ["EXPENSE_LOG_HOME": tool.home.path])
            #expect(dummy.code == 78 && dummy.stderr.contains("the dummy environment"), "\(dummy.stderr)")
            var environment = tool.environment
            environment["EXPENSE_LOG_BASE_URL"] = nil
            #expect(await runTool(["server", "check"], environment: environment).code == 78, "no base URL")
        }
    }
}

extension CommandExitCodeTests {
    @Test func aRowAnotherImportSavedMeanwhileIsReportedAsAlreadyThereNotAdded() async throws {
        try await withTool([Self.item("OLD", day: 2)]) { tool in
            // Any call that asks the server what it offers teaches the client the register action.
            #expect(await tool("fetch", "2024-01").code == 0)
            let deleted = await tool("delete", "OLD", "--yes")
            #expect(deleted.code == 0, "\(deleted.stderr)")
            let file = try tool.file(
                "in.csv", "id,date,name,price,category\nA1,20240105,パン,250,0\nA2,20240106,牛乳,198,0\n")
            let report = tool.home.appendingPathComponent("report.json").path
            // Compared while the server had neither; another import's A1 lands just before this one's POST.
            tool.app.arriveBeforeNextPost([Self.item("A1", name: "パン", price: 250)])
            let run = await tool("register", file, "--report", report)
            #expect(run.code == 0, "\(run.stderr)")
            #expect(run.stderr.contains("Rows: 1 added, 1 skipped as already there (same id)."), "\(run.stderr)")
            let rows = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
            )["rows"]
            let statuses = (rows as? [[String: Any]] ?? []).map { $0["status"] as? String }
            #expect(statuses == ["duplicate", "added"])
            #expect(tool.app.items.map(\.id) == ["A1", "A2"], "each saved once")
        }
    }
}

extension CommandExitCodeTests {
    @Test func editAndDeleteTakeAUniquePrefixOfFourCharactersAndAnAmbiguousOneChangesNothing() async throws {
        try await withTool([
            Self.item("7B2A0000-0000-4000-8000-000000000001", name: "ラーメン", price: 980),
            Self.item("7B2B0000-0000-4000-8000-000000000002", name: "餃子", price: 450),
            Self.item("7B2B1111-0000-4000-8000-000000000003", name: "ビール", price: 500),
        ]) { tool in
            let listed = await tool("fetch", "2024-01", "--ids")
            #expect(listed.code == 0)
            #expect(
                listed.stdout.split(separator: "\n").dropFirst().prefix(3).map { String($0.prefix(6)) } == [
                    "7B2A  ", "7B2B0 ", "7B2B1 ",
                ],
                "the shortest prefix each needs, four characters at least: \(listed.stdout)")
            let edited = await tool("edit", "7b2a", "--price", "1080")
            #expect(
                edited.code == 0 && edited.stderr.contains("ラーメン ¥1,080"), "a prefix, case ignored: \(edited.stderr)")
            let ambiguous = await tool("delete", "7B2B", "--yes")
            #expect(ambiguous.code == 65, "\(ambiguous.stderr)")
            #expect(
                ambiguous.stderr.contains(
                    "2 items have ids that start with 7B2B; nothing was changed. Give more of the id:\n  7B2B0  "),
                "\(ambiguous.stderr)")
            #expect(tool.app.items.count == 3, "nothing deleted")
            #expect(await tool("edit", "7B2", "--price", "1").code == 65, "three characters are no short id")
        }
    }
}

extension CommandExitCodeTests {
    @Test func anItemAddedWhileTheServerIsDownIsShownWithItsMonthMarkedAsWaiting() async throws {
        try await withTool([Self.item("S1", day: 3)]) { tool in
            #expect(await tool("fetch", "2024-01").code == 0)
            tool.app.setDown(true)
            #expect(await tool("add", "たこ焼き", "600", "-c", "food", "-d", "2024-01-10").code == 75)
            let table = await tool("fetch", "2024-01")
            #expect(table.code == 0, "\(table.stderr)")
            #expect(table.stdout.contains("たこ焼き ⧗waiting") && table.stdout.contains("2 items"), "\(table.stdout)")
            #expect(
                table.stderr.contains(
                    "1 item shown as waiting is in the outbox, not yet on the server; `expense-log sync` sends it"),
                "\(table.stderr)")
            let json = await tool("fetch", "2024-01", "--offline", "--format", "ndjson")
            let lines = json.stdout.split(separator: "\n")
            #expect(
                lines.count == 2 && lines[0].hasSuffix(#""categorySub":1}"#)
                    && lines[1].hasSuffix(#","pending":true}"#), "\(json.stdout)")
            let sent = await tool("fetch", "2024-01", "--offline", "--sent-only")
            #expect(!sent.stdout.contains("たこ焼き") && sent.stdout.contains("1 item"), "\(sent.stdout)")
            // The waiting item is found by its short id like any other, and stays marked once changed.
            let ids = await tool("fetch", "2024-01", "--offline", "--ids")
            let short = try #require(
                ids.stdout.split(separator: "\n").first { $0.contains("たこ焼き") }?.split(separator: " ").first)
            #expect(short.count < 36, "a short id for the waiting item too: \(ids.stdout)")
            #expect(await tool("edit", String(short), "--price", "650").code == 75, "queued behind the item")
            let after = await tool("fetch", "2024-01", "--offline")
            #expect(after.stdout.contains("たこ焼き ⧗waiting") && after.stdout.contains("650"), "\(after.stdout)")
            #expect(!(await tool("fetch", "2024-01", "--offline", "--sent-only")).stdout.contains("たこ焼き"))
        }
    }
}

extension CommandExitCodeTests {
    @Test func anItemOfThisMonthIsFoundByItsNameAndSeveralAreListedWithTheirShortIDs() async throws {
        let today = Day.today()
        func typed(_ id: String, _ name: String, _ price: Int) -> Item {
            Item(id: id, date: today, name: name, price: price, category: 0, categorySub: nil)
        }
        try await withTool([
            typed("7B2A0000-0000-4000-8000-000000000001", "ラーメン一蘭", 980),
            typed("C0FF0000-0000-4000-8000-000000000002", "スターバックス ラテ", 480),
            typed("C0FE0000-0000-4000-8000-000000000003", "スターバックス ドリップ", 380),
        ]) { tool in
            #expect(await tool("fetch").code == 0)
            // Half-width kana typed, as a person might: the name is found all the same.
            let unconfirmed = await tool("edit", "ﾗｰﾒﾝ", "--price", "1080")
            #expect(
                unconfirmed.code == 64 && unconfirmed.stderr.contains("was searched by name: give --yes"),
                "\(unconfirmed.stderr)")
            let edited = await tool("edit", "ﾗｰﾒﾝ", "--price", "1080", "--yes")
            #expect(edited.code == 0 && edited.stderr.contains("ラーメン一蘭 ¥1,080"), "\(edited.stderr)")
            let several = await tool("delete", "スターバックス", "--yes")
            #expect(several.code == 65, "\(several.stderr)")
            #expect(
                several.stderr.contains(
                    "2 items match スターバックス (by id, or by name in \(today.yearMonth)); nothing was changed. "
                        + "Give one's short id, or --all for every one:\n  C0FF  "), "\(several.stderr)")
            #expect(tool.app.items.count == 3)
            // A word an id could start with is a name when no id starts with it, and both when one does.
            #expect(await tool("edit", "cafe", "--price", "1").code == 65, "no item is called like cafe")
            #expect((await tool("edit", "c0fe", "--price", "381")).stderr.contains("ドリップ ¥381"))
            // An item added while the server is down is found by its name too.
            tool.app.setDown(true)
            #expect(await tool("add", "たこ焼き", "600", "-c", "food").code == 75)
            #expect(await tool("edit", "たこやき", "--price", "1").code == 65, "another spelling is another name")
            #expect(await tool("edit", "たこ焼", "--price", "700", "--yes").code == 75)
        }
    }
}

extension CommandExitCodeTests {
    @Test func summaryCountsTheItemsStillWaitingSoABudgetIsNotUndercounted() async throws {
        try await withTool([Self.item("S1", day: 3, price: 1_000)]) { tool in
            #expect(await tool("fetch", "2024-01").code == 0)
            tool.app.setDown(true)
            #expect(await tool("add", "たこ焼き", "600", "-c", "food", "-d", "2024-01-10").code == 75)
            let counted = await tool("summary", "2024-01", "--offline", "--format", "json")
            #expect(counted.code == 0 && counted.stdout.contains(#""count":2,"total":1600"#), "\(counted.stdout)")
            #expect(counted.stderr.contains("1 item still waiting in the outbox is counted"), "\(counted.stderr)")
            let sent = await tool("summary", "2024-01", "--offline", "--format", "json", "--sent-only")
            #expect(
                sent.stdout.contains(#""count":1,"total":1000"#) && !sent.stderr.contains("waiting"), "\(sent.stdout)")
        }
    }
}
