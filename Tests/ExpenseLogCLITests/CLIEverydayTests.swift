import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import Foundation
import Testing

/// What a person types every day, through the real binary against the reference server: `add`, periods by default,
/// ranges, search, and categories by name.
@Suite struct CLIEverydayTests {
    /// The ids a run printed as NDJSON, in order.
    static func ids(_ result: CLIResult) throws -> [String] {
        try result.stdout.split(separator: "\n").map { try ItemCodec.items(Data("[\($0)]".utf8))[0].id }
    }

    /// Runs the binary on a pseudo-terminal (Tests/ReferenceServer/pty_run.py), typing each answer once its question
    /// shows; stdout holds everything the terminal showed.
    static func onTerminal(
        _ arguments: [String], answering answers: [(String, String)], _ env: [String: String]
    ) async throws -> CLIResult {
        let ptyRun = CLI.packageRoot.appendingPathComponent("Tests/ReferenceServer/pty_run.py").path
        let script =
            "[" + answers.map { "[\(ItemJSON.string($0.0)), \(ItemJSON.string($0.1))]" }.joined(separator: ", ") + "]"
        return try await CLI.run(
            ["python3", ptyRun, try CLI.binary().path] + arguments,
            environment: env.merging(["PTY_SCRIPT": script]) { _, new in new },
            binary: URL(fileURLWithPath: "/usr/bin/env"))
    }

    static let seed = [
        Samples.item("J1", "20240110", "ｽﾀｰﾊﾞｯｸｽ ラテ", 480, category: 0, sub: 1),
        Samples.item("J2", "20240131", "本", 1_800, category: 1, sub: 2),
        Samples.item("F1", "20240201", "スターバックス", 520, category: 0, sub: 1),
        Samples.item("F2", "20240215", "電車", 220, category: 1, sub: 1),
        Samples.item("M1", "20240301", "ラーメン", 980, category: 0, sub: 0),
    ]

    @Test func aRangeOfDaysAcrossMonthsWithNameAndPriceFilters() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed(Self.seed)
            let env = Samples.environment(home: home, server: server)
            let range = try await CLI.run(
                ["fetch", "--from", "2024-01-15", "--to", "2024-02", "--format", "ndjson"], environment: env)
            #expect(range.status == 0, "\(range.stderr)")
            #expect(try Self.ids(range) == ["J2", "F1", "F2"])
            // NFKC and case folding: the full-width query finds the half-width name, across a whole year.
            let byName = try await CLI.run(
                ["fetch", "2024", "--name", "スターバックス", "--format", "ndjson"], environment: env)
            #expect(try Self.ids(byName) == ["J1", "F1"], "\(byName.stderr)")
            let byPrice = try await CLI.run(
                ["fetch", "--year", "2024", "--min", "500", "--max", "1000", "--format", "ndjson"], environment: env)
            #expect(try Self.ids(byPrice) == ["F1", "M1"])
            let byCategory = try await CLI.run(
                ["fetch", "2024-02", "--category", "entertainment/交通費", "--format", "ndjson"],
                environment: env)
            #expect(try Self.ids(byCategory) == ["F2"])
            let unknown = try await CLI.run(["fetch", "2024-02", "--category", "travel"], environment: env)
            #expect(unknown.status == 64)
            #expect(
                unknown.stderr.contains(
                    "no category is called 'travel'; the catalogue has 0 食費 Food, 1 娯楽費 Entertainment"),
                "\(unknown.stderr)")
            let noNumber = try await CLI.run(["fetch", "2024-02", "--category", "7"], environment: env)
            #expect(noNumber.status == 64 && noNumber.stderr.contains("there is no category 7"))
        }
    }

    @Test func withoutAPeriodFetchAndSummaryMeanThisMonthInTheLocalTimeZone() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            // TZ decides which month "now" is: far east and far west of UTC can be a day apart.
            let env = Samples.environment(home: home, server: server, ["TZ": "Asia/Tokyo"])
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try #require(TimeZone(identifier: "Asia/Tokyo"))
            let now = calendar.dateComponents([.year, .month], from: Date())
            let fetch = try await CLI.run(["fetch", "--format", "json"], environment: env)
            #expect(fetch.status == 0, "\(fetch.stderr)")
            let asked = try await server.requests().map(\.query)
            #expect(asked.contains("year=\(now.year ?? 0)&month=\(now.month ?? 0)"), "\(asked)")
            let summary = try await CLI.run(["summary", "--month", "1", "--format", "json"], environment: env)
            #expect(summary.status == 0, "\(summary.stderr)")
            #expect(try await server.requests().map(\.query).last == "year=\(now.year ?? 0)&month=1")
            // Times a person reads are Japan's, with the offset: "fetched 15:40Z" read in Tokyo looks like yesterday.
            let cached = try await CLI.run(["cache", "list"], environment: env, spawned: true)
            #expect(
                cached.stdout.range(of: #"20\d\d-\d\d-\d\d \d\d:\d\d:\d\d\+09:00"#, options: .regularExpression) != nil,
                "\(cached.stdout)")
        }
    }

    @Test func addRegistersOneItemGuessingTheCategoryFromTheCache() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed(Self.seed)
            let env = Samples.environment(home: home, server: server, ["TZ": "UTC"])
            _ = try await CLI.run(["fetch", "2024-03"], environment: env)  // the cache now knows ラーメン as Food/Grocery
            let added = try await CLI.run(
                ["add", "ラーメン", "1,200円", "--date", "2024-03-05", "--format", "json"], environment: env)
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stderr.contains("Category: Food/Grocery, as 'ラーメン' had on 2024-03-01"), "\(added.stderr)")
            let saved = try #require(try await server.items().last)
            #expect(saved.name == "ラーメン" && saved.price == 1_200 && saved.date.description == "2024-03-05")
            #expect(saved.category == 0 && saved.categorySub == 0)
            #expect(try ItemCodec.items(Data(added.stdout.utf8)).map(\.id) == [saved.id])

            let named = try await CLI.run(
                ["add", "返品", "-300", "--category", "娯楽費/雑貨", "--date", "20240306"], environment: env)
            #expect(named.status == 0, "\(named.stderr)")
            let refund = try #require(try await server.items().last)
            #expect(refund.price == -300 && refund.category == 1 && refund.categorySub == 2)

            // Typed in half-width kana, or hiragana: the same shop's name, as edit and delete find it.
            let narrow = try await CLI.run(["add", "ﾗｰﾒﾝ", "900", "--date", "2024-03-07"], environment: env)
            #expect(
                narrow.status == 0 && narrow.stderr.contains("Category: Food/Grocery, as 'ラーメン' had"),
                "\(narrow.stderr)")
            #expect(
                try await server.items().last.map { "\($0.name) \($0.category) \($0.categorySub ?? -1)" } == "ﾗｰﾒﾝ 0 0")

            let unknown = try await CLI.run(["add", "謎", "100"], environment: env)
            #expect(unknown.status == 64)
            #expect(unknown.stderr.contains("No cached item is called '謎'") && unknown.stderr.contains("0 食費 Food"))
            let missing = try await CLI.run(["add", "ラーメン"], environment: env)
            #expect(missing.status == 64 && missing.stderr.contains("add needs a name and a price"))
            let badPrice = try await CLI.run(["add", "ラーメン", "abc", "--category", "food"], environment: env)
            // Said as the command line gave it: no file name, no --skip-invalid (add has none).
            #expect(
                badPrice.status == 65 && badPrice.stderr.contains("Error: <price>: 'abc' is not a whole number"),
                "\(badPrice.stderr)")
            #expect(
                !badPrice.stderr.contains("(arguments)") && !badPrice.stderr.contains("--skip-invalid"),
                "\(badPrice.stderr)")
            #expect(try await server.items().count == Self.seed.count + 3, "nothing else was sent")
        }
    }

    @Test func registerPrintsAnEmptyListWhenNothingIsSent() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed(Self.seed)
            let env = Samples.environment(home: home, server: server)
            let file = try home.write("again.json", ItemJSON.array([Self.seed[0]]))
            let json = try await CLI.run(["register", file, "--format", "json"], environment: env)
            #expect(json.status == 0, "\(json.stderr)")
            #expect(json.stdout == "[]\n")
            let ndjson = try await CLI.run(["register", file, "--format", "ndjson"], environment: env)
            #expect(ndjson.status == 0 && ndjson.stdout.isEmpty)
        }
    }

    @Test func inputRowsNameCategoriesAndAnUnknownOneIsRefusedWithTheCatalogue() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let named = try home.write(
                "named.csv",
                "date,name,price,category,categorySub\n20240105,お茶,150,食費,飲料\n20240106,切符,300,entertainment/transportation,\n"
            )
            let ok = try await CLI.run(["register", named, "--format", "json"], environment: env)
            #expect(ok.status == 0, "\(ok.stderr)")
            #expect(try await server.items().map { "\($0.category)/\($0.categorySub ?? -1)" } == ["0/1", "1/1"])
            let unknown = try home.write("unknown.csv", "date,name,price,category\n20240107,謎,100,7\n")
            let refused = try await CLI.run(["register", unknown], environment: env)
            #expect(refused.status == 65)
            #expect(
                refused.stderr.contains(
                    "unknown.csv:2: category: there is no category 7; the catalogue has 0 食費 Food, 1 娯楽費 Entertainment (`expense-log categories` lists them)"
                ),
                "\(refused.stderr)")
            #expect(try await server.items().count == 2)
        }
    }

    @Test func configShowAndCacheListPrintJSONForScripts() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        let empty = try await CLI.run(["cache", "list", "--format", "json"], environment: env)
        #expect(empty.status == 0 && empty.stdout == "[]\n")
        #expect(try await CLI.run(["fetch", "2024-01", "-q"], environment: env).status == 0)
        let listed = try await CLI.run(["cache", "list", "-f", "json"], environment: env)
        let months = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(months.count == 1 && months[0]["month"] as? String == "2024-01" && months[0]["items"] as? Int == 4)
        #expect(months[0]["total"] as? Int == 2_078 && months[0]["fetchedAt"] is String)
        let shown = try await CLI.run(["config", "show", "--format", "json"], environment: env)
        let settings = try #require(
            try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: [String: String]])
        #expect(settings["environment"] == ["value": "dummy", "source": "EXPENSE_LOG_ENV"], "\(shown.stdout)")
        #expect(settings["retries"]?["value"] == "3")
    }

    @Test func configSetGetAndUnsetEditOneKeyKeepingTheRest() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Samples.environment(home: home)
        let path = try await CLI.run(["config", "path"], environment: env).stdout.trimmingCharacters(in: .newlines)
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        let catalogue = #"[{"id": 0, "ja": "食費", "en": "Food", "subs": []}]"#
        try Data(#"{"categories": \#(catalogue), "serverTimeZone": "Asia/Tokyo"}"#.utf8).write(
            to: URL(fileURLWithPath: path))
        #expect(
            try await CLI.run(["config", "set", "baseURL", "https://example.com/exec"], environment: env).status == 0)
        #expect(
            try await CLI.run(["config", "set", "baseURL.development", "http://127.0.0.1:9/exec"], environment: env)
                .status == 0)
        #expect(
            try await CLI.run(["config", "get", "baseURL.release"], environment: env).stdout
                == "https://example.com/exec\n")
        #expect(try await CLI.run(["config", "get", "serverTimeZone"], environment: env).stdout == "Asia/Tokyo\n")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let refused = try await CLI.run(["config", "set", "maxAnswerMiB", "0"], environment: env)
        #expect(
            refused.status == 78 && refused.stderr.contains("maxAnswerMiB was not changed in \(path)"),
            "\(refused.stderr)")
        let named = home.url.appendingPathComponent("elsewhere/new.json").path
        #expect(
            try await CLI.run(["--config", named, "config", "set", "environment", "development"], environment: env)
                .status == 0,
            "set makes the file --config names")
        #expect(
            try await CLI.run(["--config", named, "config", "get", "environment"], environment: env).stdout
                == "development\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "a refused value leaves the file as it was")
        #expect(try await CLI.run(["config", "unset", "serverTimeZone"], environment: env).status == 0)
        let missing = try await CLI.run(["config", "get", "serverTimeZone"], environment: env)
        #expect(missing.status == 1 && missing.stdout.isEmpty)
        // The catalogue, never touched, is still in force: it names one category only.
        let categories = try await CLI.run(["categories", "--format", "json"], environment: env)
        #expect(categories.stdout.contains("Food") && !categories.stdout.contains("Entertainment"))
    }

    /// `add` on a pseudo-terminal (Python's pty): it asks for what is missing, offers the guessed category, shows the
    /// item and asks before sending; "n" sends nothing.
    @Test func addOnATerminalAsksForWhatIsMissingAndConfirmsBeforeSending() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed(Self.seed)
            let env = Samples.environment(home: home, server: server, ["TZ": "UTC"])
            _ = try await CLI.run(["fetch", "2024-03", "-q"], environment: env)  // the cache knows ラーメン as Food/Grocery
            func onTerminal(_ answers: [(String, String)], _ arguments: [String]) async throws -> CLIResult {
                try await Self.onTerminal(["add"] + arguments, answering: answers, env)
            }
            let added = try await onTerminal(
                [
                    ("Date [today]", "2024-03-09"), ("Name", "ラーメン"), ("Price", "abc"), ("Price", "1,100"),
                    ("Category [Food/Grocery]", ""), ("Register 2024-03-09  ラーメン  1,100  Food/Grocery? [Y/n]", ""),
                ], [])
            #expect(added.status == 0, "\(added.stdout)")
            #expect(added.stdout.contains("Names in the cache: ラーメン"), "\(added.stdout)")
            #expect(added.stdout.contains("'abc' is not a price"))
            let saved = try #require(try await server.items().last)
            #expect(saved.name == "ラーメン" && saved.price == 1_100 && saved.date.description == "2024-03-09")
            #expect(saved.category == 0 && saved.categorySub == 0)

            let declined = try await onTerminal(
                [("Price", "500"), ("Category", "food/drink"), ("[Y/n]", "n")], ["お茶", "--date", "2024-03-10"])
            #expect(
                declined.status == 1 && declined.stdout.contains("Cancelled; nothing was sent."), "\(declined.stdout)")
            #expect(try await server.items().count == Self.seed.count + 1, "nothing was sent after no")
        }
    }

    /// Spawned, each command: an outbox entry's lock held in this test process could live on for a moment in a child
    /// another test is starting at that instant (fds are copied before exec closes them), and read as another run's.
    @Test func pendingShowsIdsAndDropAndClearRemoveWaitingItemsAfterAsking() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write(
            "three.csv", "id,date,name,price,category\nP1,20240105,本,900,1\nP2,20240106,茶,150,0\nP3,20240107,水,100,0\n")
        let offline = try Samples.offlineEnvironment(home: home)
        #expect(
            try await CLI.run(["register", file, "--retries", "0"], environment: offline, spawned: true).status == 75)
        let listed = try await CLI.run(["pending"], environment: offline, spawned: true)
        #expect(listed.stdout.hasPrefix("ID  ") && listed.stdout.contains("\nP2  "), "\(listed.stdout)")
        let unasked = try await CLI.run(["pending", "drop", "P2"], environment: offline, spawned: true)
        #expect(unasked.status == 64 && unasked.stderr.contains("needs --yes when stdin is not a terminal"))
        let declined = try await Self.onTerminal(["pending", "drop", "P2"], answering: [("[y/N]", "n")], offline)
        #expect(
            declined.status == 1 && declined.stdout.contains("Cancelled; nothing was removed."), "\(declined.stdout)")
        let dropped = try await CLI.run(["pending", "drop", "P2", "--yes"], environment: offline, spawned: true)
        #expect(dropped.status == 0 && dropped.stderr.contains("Removed P2: 2024-01-06 茶 150"), "\(dropped.stderr)")
        let typo = try await CLI.run(["pending", "drop", "P9", "-y"], environment: offline, spawned: true)
        #expect(
            typo.status == 65 && typo.stderr.contains("no waiting item has the id P9"), "\(typo.status): \(typo.stderr)"
        )
        try await withServer { server async throws in
            let env = Samples.environment(home: home, server: server)
            #expect(try await CLI.run(["sync"], environment: env, spawned: true).status == 0)
            #expect(try await server.items().map(\.id) == ["P1", "P3"], "the dropped item is never sent")
        }
        let again = try home.write("again.csv", "date,name,price,category\n20240108,紙,50,1\n")
        _ = try await CLI.run(["register", again, "--retries", "0"], environment: offline, spawned: true)
        let cleared = try await CLI.run(["pending", "clear", "--yes"], environment: offline, spawned: true)
        #expect(cleared.status == 0 && cleared.stderr.contains("Removed 1 item from the outbox."), "\(cleared.stderr)")
        #expect(try await CLI.run(["pending"], environment: offline, spawned: true).stderr.contains("is empty"))
    }

    @Test func configInitAsksForTheURLAndTriesAFetchAndSetTokenHidesWhatIsTyped() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed(Self.seed)
            let env = Samples.environment(home: home)  // no base URL anywhere yet
            func onTerminal(_ answers: [(String, String)], _ arguments: [String]) async throws -> CLIResult {
                try await Self.onTerminal(arguments, answering: answers, env)
            }
            let typedKey = "init-\(UUID().uuidString)"
            // Ctrl-C at the token question leaves the file as it was: the URL answered before it is not saved either.
            let interrupted = try await onTerminal(
                [("(ends in /exec", server.base), ("Token, the web app's", "\u{03}")], ["config", "init"])
            #expect(interrupted.status == 130, "\(interrupted.stdout)")
            #expect(
                try await CLI.run(["config", "get", "baseURL.release"], environment: env).status == 1, "nothing saved")
            let initialized = try await onTerminal(
                [
                    ("(ends in /exec", "ftp://example.com/exec"),
                    ("(ends in /exec", "https://script.google.com/macros/s/AKfycb/edit"),
                    ("(ends in /exec", server.base),
                    ("Token, the web app's EXPENSE_LOG_KEY (not shown; Enter for none)", typedKey),
                ],
                ["config", "init"])
            #expect(
                initialized.stdout.contains("Saved the token") && !initialized.stdout.contains(typedKey),
                "\(initialized.stdout)")
            #expect(initialized.status == 0, "\(initialized.stdout)")
            #expect(initialized.stdout.contains("it must be an http:// or https:// URL"))
            #expect(initialized.stdout.contains("not the script editor's …/edit"), "\(initialized.stdout)")
            #expect(initialized.stdout.contains("It works: the server answered"), "\(initialized.stdout)")
            #expect(
                try await CLI.run(["config", "get", "baseURL.release"], environment: env).stdout == server.base + "\n")
            #expect(try await CLI.run(["config", "init"], environment: env).status == 64, "no terminal, no questions")

            let token = try await onTerminal(
                [("Token (not shown", "hidden-\(UUID().uuidString)")], ["config", "set-token"])
            #expect(token.status == 0 && token.stdout.contains("Saved the token"), "\(token.status) \(token.stdout)")
            #expect(!token.stdout.contains("hidden-"), "the typed token is never echoed")
            #expect(
                try await CLI.run(["config", "show"], environment: env).stdout.contains(
                    "(set, 43 characters, redacted)"))
        }
    }

    @Test func onATerminalATableIsTitledWithItsPeriodAndInAPipeItIsNot() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy", "LANG": "ja_JP.UTF-8"])
        let shown = try await Self.onTerminal(["fetch", "2024-01"], answering: [], env)
        #expect(
            shown.status == 0 && shown.stdout.replacingOccurrences(of: "\r", with: "").hasPrefix("2024年1月\n日付"),
            "\(shown.stdout)")
        let piped = try await CLI.run(["fetch", "2024-01"], environment: env)
        #expect(piped.stdout.hasPrefix("日付"), "\(piped.stdout)")
    }
}
