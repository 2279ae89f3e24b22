import ExpenseLogFormats
import ExpenseLogImport
import Foundation
import Testing

/// `summary` through the built binary against the reference server seeded with `SummarySamples.items`.
@Suite struct CLISummaryTests {
    /// Runs a body with a server started with `--seed` and the variables of a user pointed at it.
    func withSeededServer<T>(
        _ home: TemporaryDirectory, _ body: (ReferenceServer, [String: String]) async throws -> T
    ) async throws -> T {
        let seed = try home.write("seed.json", ItemJSON.array(SummarySamples.items))
        return try await withServer(["--seed", seed]) { server in
            try await body(server, Samples.environment(home: home, server: server))
        }
    }

    @Test func aYearAsJSONHasTheHandComputedTotals() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withSeededServer(home) { server, env in
            let result = try await CLI.run(["summary", "--year", "2024", "--format", "json"], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let doc = try SummaryDocument(result.stdout)
            #expect(doc.year == 2024 && doc.month == nil && doc.by == "category")
            // 3,478 + 450 + 2,200 - 800 = 5,328 in 3 + 3 + 2 + 1 = 9 items; December 2023's soba is another year.
            #expect(doc.total == 5328 && doc.count == 9)
            // Food 1,678 + 200 - 800 = 1,078 (20.2 %); Entertainment 1,800 + 250 + 1,200 = 3,250 (61.0 %); #7 1,000 (18.8 %).
            #expect(
                doc.categories == [
                    .init(category: 0, name: "Food", sub: nil, subName: nil, count: 4, total: 1078, share: 20.2),
                    .init(
                        category: 1, name: "Entertainment", sub: nil, subName: nil, count: 4, total: 3250, share: 61.0),
                    .init(category: 7, name: "#7", sub: nil, subName: nil, count: 1, total: 1000, share: 18.8),
                ])
            let months = try #require(doc.months)
            #expect(months.map(\.month) == Array(1...12))
            // January 178 + 1,500 + 1,800; February 200 + 400 - 150; March 1,200 + 1,000; April a refund of 800.
            #expect(months.map(\.total) == [3478, 450, 2200, -800] + Array(repeating: 0, count: 8))
            #expect(months.map(\.count) == [3, 3, 2, 1] + Array(repeating: 0, count: 8))
            // January: Food 1,678 / 3,478 = 48.2 %; February: Entertainment 400 - 150 = 250, 250 / 450 = 55.6 %.
            #expect(try SummaryDocument.row(months[0].categories, 0).share == 48.2)
            #expect(try SummaryDocument.row(months[1].categories, 1).total == 250)
            #expect(try SummaryDocument.row(months[1].categories, 1).share == 55.6)
            // March: 1,000 / 2,200 = 45.5 % for the unknown category; April's total is negative: no shares.
            #expect(try SummaryDocument.row(months[2].categories, 7).share == 45.5)
            #expect(months[3].categories?.allSatisfy { $0.share == nil } == true)
            #expect(doc.sources.map(\.source) == Array(repeating: "server", count: 12))
            #expect(doc.sources.map(\.month) == (1...12).map { String(format: "2024-%02d", $0) })

            let gets = try await server.requests().filter { $0.method == "GET" }.map(\.query)
            #expect(gets.sorted() == (1...12).map { "year=2024&month=\($0)" }.sorted(), "each month fetched once")
        }
    }

    @Test func aYearsTwelveMonthsAreAskedForAtOnce() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withSeededServer(home) { server, env in
            // Every GET is held until twelve are held together (30 s at most, only if the client sends fewer at once).
            try await server.addFaults(
                "[{\"kind\": \"gather\", \"size\": 12, \"seconds\": 30, \"count\": -1, \"method\": \"GET\"}]")
            let result = try await CLI.run(["summary", "--year", "2024", "--timeout", "60"], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let requests = try await server.requests()
            #expect(requests.filter { $0.method == "GET" }.count == 12)
            let most = SummarySamples.mostGETsInFlight(requests)
            // One round trip for the year, well under Apps Script's 30 simultaneous executions per user.
            #expect(most == 12, "the server saw \(most) GETs at once")
        }
    }

    @Test func aMonthTableAndTheYearAsCSV() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withSeededServer(home) { _, env in
            let table = try await CLI.run(["summary", "--year", "2024", "--month", "1"], environment: env)
            #expect(table.status == 0, "\(table.stderr)")
            #expect(
                table.stdout == """
                    CATEGORY       COUNT  TOTAL   SHARE
                    Food               2  1,678   48.2%
                    Entertainment      1  1,800   51.8%
                    -----------------------------------
                    TOTAL              3  3,478  100.0%

                    """)

            let bySub = try await CLI.run(
                ["summary", "--year", "2024", "--month", "2", "--by", "sub", "--format", "csv"], environment: env)
            #expect(bySub.status == 0)
            // February's Transportation: 400 - 150 = 250, 250 / 450 = 55.6 %; Tea 200 / 450 = 44.4 %.
            #expect(bySub.stdout.contains("\n2024,2,1,Entertainment,1,Transportation,2,250,55.6\n"))
            #expect(bySub.stdout.contains("\n2024,2,0,Food,1,Drink,1,200,44.4\n"))

            let csv = try await CLI.run(["summary", "--year", "2024", "--format", "csv"], environment: env)
            #expect(csv.status == 0)
            let rows = csv.stdout.split(separator: "\n").map(String.init)
            #expect(rows.first == "year,month,category,categoryName,sub,subName,count,total,share")
            #expect(
                Set(rows.dropFirst().map { $0.split(separator: ",")[1] })
                    == Set((1...12).map { Substring(String($0)) }),
                "rows for every month")
            #expect(rows.contains("2024,3,7,#7,,,1,1000,45.5"))
            #expect(rows.contains("2024,4,0,Food,,,1,-800,"))
            #expect(rows.contains("2024,12,1,Entertainment,,,0,0,"))
        }
    }

    @Test func theYearTableHasABarPerMonth() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withSeededServer(home) { _, env in
            let result = try await CLI.run(["summary", "--year", "2024"], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let rows = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            func row(_ month: Int) throws -> String {
                try #require(rows.first { $0.hasPrefix(String(format: "2024-%02d ", month)) })
            }
            func bar(_ month: Int) throws -> String { String(try row(month).filter { "█▏▎▍▌▋▊▉".contains($0) }) }
            #expect(rows.first == "MONTH    COUNT  TOTAL")
            // January is the largest month: the whole 40 cells.
            #expect(try bar(1) == String(repeating: "█", count: 40))
            // February 450 × 320 / 3,478 = 41.4 eighths → 5 cells and 1 eighth; March 2,200 → 202.4 eighths → 25 and 2.
            #expect(try bar(2) == "█████▏")
            #expect(try bar(3) == String(repeating: "█", count: 25) + "▎")
            #expect(try bar(4).isEmpty, "a negative month has no bar")
            #expect(try bar(5).isEmpty, "an empty month has no bar")
            #expect(try row(4).hasSuffix(" -800"))
            #expect(rows.contains("TOTAL        9  5,328"))
            #expect(rows.contains { $0.hasPrefix("Entertainment") && $0.hasSuffix("4  3,250   61.0%") })
        }
    }

    @Test func japaneseHeadingsAndNamesUnderAJapaneseLocale() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withSeededServer(home) { _, env in
            let ja = env.merging(["LANG": "ja_JP.UTF-8"]) { _, new in new }
            let year = try await CLI.run(["summary", "--year", "2024"], environment: ja)
            #expect(year.status == 0, "\(year.stderr)")
            #expect(year.stdout.hasPrefix("月       件数   金額\n"))
            for text in ["\n合計", "\n項目", "\n食費", "\n娯楽費", "\n#7"] { #expect(year.stdout.contains(text), "\(text)") }

            let bySub = try await CLI.run(
                ["summary", "--year", "2024", "--month", "1", "--by", "sub"], environment: ja)
            let lines = bySub.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("項目") == true && lines.first?.contains("サブ項目") == true)
            #expect(
                lines.contains { $0.hasPrefix("娯楽費") && $0.contains("—") && $0.contains("1,800") },
                "the item with no sub")
            #expect(lines.contains { $0.hasPrefix("食費") && $0.contains("食品") && $0.contains("1,500") })

            let json = try SummaryDocument(
                try await CLI.run(
                    ["summary", "--year", "2024", "--month", "1", "--by", "sub", "--format", "json"],
                    environment: ja
                ).stdout)
            #expect(try SummaryDocument.row(json.categories, 0, sub: 1).name == "食費")
            #expect(try SummaryDocument.row(json.categories, 0, sub: 1).subName == "飲料")
            #expect(try SummaryDocument.row(json.categories, 1).subName == nil)
        }
    }

    @Test func aConfiguredCatalogueNamesAndOrdersTheRows() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let config = try home.write(
            "config.json",
            """
            {"categories": [{"id": 7, "ja": "寄付", "en": "Donations"},
                            {"id": 2, "ja": "書籍", "en": "Books", "subs": [{"id": 3, "ja": "小説", "en": "Novels"}]}]}
            """)
        try await withSeededServer(home) { _, env in
            let result = try await CLI.run(
                ["summary", "--year", "2024", "--month", "3", "--by", "sub", "--format", "json", "--config", config],
                environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let rows = try SummaryDocument(result.stdout).categories
            // The catalogue's order (7, then 2 with its one sub, empty), then category 1, which it lacks, with March's book in sub 2.
            #expect(rows.map(\.category) == [7, 2, 1])
            #expect(rows.map(\.name) == ["Donations", "Books", "#1"])
            #expect(rows.map(\.subName) == [nil, "Novels", "#2"])
            // March: 1,000 / 2,200 = 45.5 % for the donation, 1,200 / 2,200 = 54.5 % for the book.
            #expect(rows.map(\.share) == [45.5, 0.0, 54.5])
        }
    }

    @Test func theDummyEnvironmentAnswersJanuaryFilteredToEachMonth() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        let result = try await CLI.run(
            ["summary", "--year", "2024", "--format", "json"], environment: env, in: home.url)
        #expect(result.status == 0, "\(result.stderr)")
        let doc = try SummaryDocument(result.stdout)
        // The fixture: 178 + 200 + 200 + 1,500 = 2,078, all in January; the other months get the same four, all outside them.
        #expect(doc.total == 2078 && doc.count == 4)
        #expect(try #require(doc.months).map(\.total) == [2078] + Array(repeating: 0, count: 11))
        #expect(try SummaryDocument.row(doc.categories, 0).share == 100.0)
        #expect(result.stderr.contains("the server returned 44 items dated outside the month asked for"))

        let month = try await CLI.run(
            ["--env", "dummy", "summary", "--year", "2024", "--month", "1"],
            environment: Samples.environment(home: home))
        #expect(month.stdout.contains("Food               4  2,078  100.0%"))
    }

    @Test func helpGivesExamplesAndUsageErrorsExit64() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Samples.environment(home: home)
        let help = try await CLI.run(["summary", "--help"], environment: env)
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: expense-log summary [--year <year>] [--month <month>]"))
        #expect(help.stdout.contains("EXAMPLES:\n  expense-log summary\n  expense-log summary 2024-01\n"))
        #expect(!help.stdout.contains("\\"), "no stray line-continuation backslash")
        #expect(try await CLI.run(["--help"], environment: env).stdout.contains("\n  summary "))
        for arguments in [
            ["--year", "2024", "--offline", "--refresh"], ["--year", "2024", "--month", "13"],
            ["--year", "2024", "--by", "shop"], ["--year", "2024", "--format", "ndjson"], ["2024", "--month", "1"],
            ["2024-01-05"],
        ] {
            let result = try await CLI.run(["summary"] + arguments, environment: env)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stdout.isEmpty)
        }
    }
}
