import ExpenseLogFormats
import Foundation
import Testing

/// Issue 49: fixed costs (固定費) kept by the bundled script, posted once each, met by statement rows, and expected by the
/// months before they happen; every run through the binary against `Code.gs` under the host.
@Suite struct CLIRecurringTests {
    static let book = "家計簿_2027"

    /// The dates and prices of a month's rows named `name`, as the sheet holds them.
    static func rows(_ host: ScriptHost, _ name: String, month: Int, book: String = book) async throws -> [String] {
        try await host.rows(book: book, sheet: String(month)).dropFirst().filter { $0[2] as? String == name }.map {
            "\($0[1]) \($0[3])"
        }
    }

    static func run(_ arguments: [String], _ env: [String: String]) async throws -> CLIResult {
        try await CLI.run(arguments, environment: env)
    }

    @Test func rentPostedTwiceOnOneMachineAndOfflineThenSyncedOnAnotherIsOneRowAMonth() async throws {
        let home = try TemporaryDirectory(), partner = try TemporaryDirectory()
        defer {
            home.remove()
            partner.remove()
        }
        try await withScriptHost { host in
            let env = host.environment(home: home), theirs = host.environment(home: partner)
            let added = try await Self.run(
                ["recurring", "add", "家賃", "85000", "--day", "27", "--category", "娯楽費", "--from", "2027-01"], env)
            #expect(added.status == 0 && added.stderr.contains("kept on the server"), "\(added.stderr)")

            let posted = try await Self.run(["recurring", "post", "--through", "2027-03-31"], env)
            #expect(posted.status == 0, "\(posted.stderr)")
            let again = try await Self.run(["recurring", "post", "--through", "2027-03-31"], env)
            #expect(again.status == 0 && again.stdout.isEmpty && again.stderr.isEmpty, "quiet: \(again.stderr)")
            for month in 1...3 {
                #expect(try await Self.rows(host, "家賃", month: month) == ["20270\(month)27 85000"])
            }

            // The partner's machine sees the same rule, then posts through April while the web app is down.
            let listed = try await Self.run(["recurring", "list", "--format", "json"], theirs)
            let mine = try await Self.run(["recurring", "list", "--format", "json"], env)
            #expect(listed.status == 0 && listed.stdout == mine.stdout && listed.stdout.contains("\"家賃\""))
            try await host.setDown(true)
            let offline = try await Self.run(
                ["recurring", "post", "--through", "2027-04-30", "--retries", "0"], theirs)
            #expect(offline.status == 75, "\(offline.stderr)")
            let twice = try await Self.run(["recurring", "post", "--through", "2027-04-30", "--retries", "0"], theirs)
            #expect(twice.status == 0 && twice.stdout.isEmpty, "what waits is not queued again: \(twice.stderr)")
            try await host.setDown(false)
            let synced = try await Self.run(["sync"], theirs)
            #expect(synced.status == 0, "\(synced.stderr)")
            for month in 1...4 {
                #expect(try await Self.rows(host, "家賃", month: month) == ["20270\(month)27 85000"], "month \(month)")
            }
        }
    }

    @Test func aRuleOnThe31stFallsOnEachShortMonthsLastDayFebruary29thInALeapYear() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            let env = host.environment(home: home)
            let added = try await Self.run(
                ["recurring", "add", "保険料", "３，０００円", "--day", "31", "-c", "娯楽費", "--from", "2027-01"], env)
            #expect(added.status == 0, "\(added.stderr)")
            #expect(try await Self.run(["recurring", "post", "--through", "2028-02"], env).status == 0)
            #expect(try await Self.rows(host, "保険料", month: 2) == ["20270228 3000"])
            #expect(try await Self.rows(host, "保険料", month: 4) == ["20270430 3000"])
            #expect(try await Self.rows(host, "保険料", month: 12) == ["20271231 3000"])
            #expect(try await Self.rows(host, "保険料", month: 2, book: "家計簿_2028") == ["20280229 3000"])
        }
    }

    /// MUFG's 入出金明細 (CP932, as Python's csv writes it) with the rent debited a day late, a raised NHK fee, and a
    /// purchase of its own.
    static let statement: [[String]] = [
        ["日付", "摘要", "摘要内容", "支払い金額", "預かり金額", "差引残高", "メモ", "未資金化区分", "入払区分"],
        ["2027/01/28", "口座振替", "ﾔﾏﾀﾞﾌﾄﾞｳｻﾝ", "85,000", "", "315,000", "", "", "支払い"],
        ["2027/02/02", "デビット", "ｾﾌﾞﾝｲﾚﾌﾞﾝ", "1,280", "", "313,720", "", "", "支払い"],
        ["2027/02/28", "口座振替", "NHKｼﾞﾕｼﾝﾘﾖｳ", "1,225", "", "312,495", "", "", "支払い"],
    ]

    @Test func aRentRowADayLateIsTheOccurrenceAndARaisedFeeIsHeld() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            let env = host.environment(home: home)
            for rule in [
                ["家賃", "85000", "--day", "27", "--match", "ﾔﾏﾀﾞﾌﾄﾞｳｻﾝ"],
                ["NHK受信料", "1100", "--day", "27", "--match", "NHK"],
            ] {
                let added = try await Self.run(
                    ["recurring", "add"] + rule + ["-c", "娯楽費", "--from", "2027-01"], env)
                #expect(added.status == 0, "\(added.stderr)")
            }
            #expect(try await Self.run(["recurring", "post", "--through", "2027-01-31"], env).status == 0)
            let file = try CLIImportFilesTests.write(Self.statement, "meisai.csv", in: home, encoding: "cp932")
            let imported = try await Self.run(["register", file, "--explain"], env)
            #expect(imported.status == 4, "the raised fee is held: \(imported.stderr)")
            #expect(
                imported.stderr.contains("the fixed cost 家賃 of 2027-01, already there"), "\(imported.stderr)")
            #expect(
                imported.stderr.contains("it names the fixed cost NHK受信料 (¥1,100, due 2027-02-27) but is ¥1,225")
                    && imported.stderr.contains("expense-log recurring edit NHK受信料 --price 1225"),
                "\(imported.stderr)")
            #expect(try await Self.rows(host, "家賃", month: 1) == ["20270127 85000"], "the rent row added nothing")
            #expect(
                try await host.rows(book: Self.book, sheet: "2").dropFirst().map { "\($0[2]) \($0[3])" } == [
                    "ｾﾌﾞﾝｲﾚﾌﾞﾝ 1280"
                ])

            // The fee was raised: the rule follows, and the row is February's occurrence at its new amount.
            #expect(try await Self.run(["recurring", "edit", "NHK", "--price", "1225"], env).status == 0)
            let again = try await Self.run(["register", file], env)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try await Self.rows(host, "NHK受信料", month: 2) == ["20270228 1225"])
            // February's occurrence is the row: a post registers nothing more for it.
            #expect(try await Self.run(["recurring", "post", "--through", "2027-02-28"], env).status == 0)
            #expect(try await Self.rows(host, "NHK受信料", month: 2) == ["20270228 1225"])
            #expect(try await Self.rows(host, "家賃", month: 2) == ["20270227 85000"])
        }
    }

    @Test func aForecastShowsTheExpectedRentOfLaterMonthsWhateverRealItemsThereAre() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            var env = host.environment(home: home)
            env["EXPENSE_LOG_TODAY"] = "2027-01-10"
            #expect(
                try await Self.run(
                    ["recurring", "add", "家賃", "85000", "--day", "27", "-c", "娯楽費"], env
                ).status == 0)
            // A real item after the months a forecast covers does not stop it (hledger's forecast would).
            #expect(try await Self.run(["add", "コーヒー", "400", "-c", "食費", "--date", "2027-04-05"], env).status == 0)
            let forecast = try await Self.run(["summary", "--forecast", "2", "--format", "json"], env)
            #expect(forecast.status == 0, "\(forecast.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(forecast.stdout.utf8)) as? [String: Any]
            let months = (json?["months"] as? [[String: Any]])?.map { "\($0["month"] ?? "") \($0["total"] ?? "")" }
            #expect(months == ["1 85000", "2 85000", "3 85000"], "\(forecast.stdout)")
            #expect(forecast.stderr.contains("Counted 3 expected fixed costs not yet registered (¥255,000)"))

            // This month's fetch shows it expected, not counted; --sent-only leaves it out.
            let table = try await Self.run(["fetch"], env)
            #expect(table.stdout.contains("家賃 ◇expected") && table.stdout.contains("TOTAL       0 items"))
            #expect(!(try await Self.run(["fetch", "--sent-only"], env)).stdout.contains("家賃"))
            // JSON is read back by `register`: an occurrence not yet registered is no item there.
            #expect(try await Self.run(["fetch", "--format", "json"], env).stdout == "[]\n")
            // The report page draws it apart from what was spent.
            let page = try await Self.run(["report", "-o", "-"], env).stdout
            #expect(
                page.contains(
                    "<tr class=\"expected\"><td class=\"id\"></td><td class=\"d\">2027-01-27</td>"
                        + "<td>家賃 <span class=\"expected\">◇expected")
                    && page.contains("Total <strong>¥0</strong>"), "\(page)")

            // A budget counts it only in a forecast: the cron job warns before the month is over.
            #expect(try await Self.run(["config", "set", "budgets.total", "80000"], env).status == 0)
            #expect(try await Self.run(["summary", "--budget"], env).status == 0)
            #expect(try await Self.run(["summary", "--budget", "--forecast", "0"], env).status == 3)
        }
    }

    @Test func rulesAPersonTypesIntoTheSheetAreReadAndABadRowIsNamed() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            let env = host.environment(home: home)
            #expect(
                try await Self.run(["recurring", "add", "家賃", "85000", "--day", "27", "-c", "娯楽費"], env).status == 0)
            // Typed in Sheets: no ID, a price with ¥ and commas, 毎年; and a row whose day is no day.
            let typed = [
                3: [2: "自動車保険", 3: "¥38,000", 6: "1", 7: "4", 8: "1", 10: "毎年"],
                4: [2: "ジム", 3: "8000", 6: "32", 8: "1", 10: "毎月"],
            ]
            for (row, cells) in typed {
                for (column, value) in cells {
                    try await host.type(book: "家計簿_固定費", sheet: "固定費", row: row, column: column, value)
                }
            }
            let listed = try await Self.run(["recurring", "list", "--format", "json"], env)
            #expect(listed.status == 0)
            #expect(
                listed.stdout.contains(#""name":"自動車保険","price":38000"#) && listed.stdout.contains(#""every":"year""#))
            #expect(
                listed.stderr.contains(
                    "row 4 of sheet 固定費 in 家計簿_固定費 is left out: 日 must be a whole number from 1 to 31"))
            let ids = try await host.rows(book: "家計簿_固定費", sheet: "固定費").dropFirst().map { ($0[0] as? String) ?? "" }
            #expect(ids.count == 3 && !ids[1].isEmpty && ids[2].isEmpty, "the typed rule got an ID: \(ids)")
        }
    }

    @Test func aPaymentDebitedTheNextMonthIsItsOccurrenceOnceWhicheverMachinePosts() async throws {
        let home = try TemporaryDirectory(), partner = try TemporaryDirectory()
        defer {
            home.remove()
            partner.remove()
        }
        try await withScriptHost { host in
            let env = host.environment(home: home)
            let added = try await Self.run(
                [
                    "recurring", "add", "家賃", "85000", "--day", "27", "-c", "娯楽費", "--from", "2027-02", "--match",
                    "ﾔﾏﾀﾞﾌﾄﾞｳｻﾝ",
                ],
                env)
            #expect(added.status == 0, "\(added.stderr)")
            // February 27th is a Saturday: the bank debits it on March 1st.
            let rows = [Self.statement[0], ["2027/03/01", "口座振替", "ﾔﾏﾀﾞﾌﾄﾞｳｻﾝ", "85,000", "", "230,000", "", "", "支払い"]]
            let file = try CLIImportFilesTests.write(rows, "meisai.csv", in: home, encoding: "cp932")
            let imported = try await Self.run(["register", file], env)
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(try await Self.rows(host, "家賃", month: 2) == ["20270228 85000"], "February's, in February's sheet")
            #expect(try await Self.rows(host, "家賃", month: 3).isEmpty)
            let theirs = host.environment(home: partner)
            #expect(try await Self.run(["recurring", "list"], theirs).status == 0)
            #expect(try await Self.run(["recurring", "post", "--through", "2027-02-28"], theirs).status == 0)
            #expect(try await Self.rows(host, "家賃", month: 2) == ["20270228 85000"], "posted once")
        }
    }

    @Test func twoRulesABankNamesAlikeEachTakeTheRowOfTheirAmount() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            let env = host.environment(home: home)
            for rule in [
                ["携帯", "5000", "--about", "3000-9000"], ["ドコモ光", "5500"],
            ] {
                let added = try await Self.run(
                    ["recurring", "add"] + rule + ["--day", "15", "--match", "ﾄﾞｺﾓ", "-c", "娯楽費", "--from", "2027-03"],
                    env)
                #expect(added.status == 0, "\(added.stderr)")
            }
            let rows = [
                Self.statement[0], ["2027/03/15", "口座振替", "ﾄﾞｺﾓ", "5,500", "", "300,000", "", "", "支払い"],
                ["2027/03/16", "口座振替", "ﾄﾞｺﾓ", "6,210", "", "293,790", "", "", "支払い"],
            ]
            let file = try CLIImportFilesTests.write(rows, "meisai.csv", in: home, encoding: "cp932")
            #expect(try await Self.run(["register", file], env).status == 0)
            #expect(try await Self.run(["recurring", "post", "--through", "2027-03-31"], env).status == 0)
            let march = try await host.rows(book: Self.book, sheet: "3").dropFirst().map { "\($0[2]) \($0[3])" }
            #expect(march.sorted() == ["ドコモ光 5500", "携帯 6210"], "one row each, none posted again: \(march)")
        }
    }

    @Test func aYearlyRuleIsPostedOnceAYearEvenAfterItsMonthIsEdited() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            let env = host.environment(home: home)
            let added = try await Self.run(
                [
                    "recurring", "add", "自動車保険", "38000", "--every", "year", "--month", "4", "--day", "1", "-c", "娯楽費",
                    "--from", "2027-01",
                ], env)
            #expect(added.status == 0, "\(added.stderr)")
            #expect(try await Self.run(["recurring", "post", "--through", "2027-12-31"], env).status == 0)
            #expect(try await Self.rows(host, "自動車保険", month: 4) == ["20270401 38000"])
            #expect(try await Self.run(["recurring", "edit", "自動車保険", "--month", "5"], env).status == 0)
            #expect(try await Self.run(["recurring", "post", "--through", "2028-12-31"], env).status == 0)
            #expect(try await Self.rows(host, "自動車保険", month: 5).isEmpty, "2027's was paid in April")
            #expect(try await Self.rows(host, "自動車保険", month: 5, book: "家計簿_2028") == ["20280501 38000"])
        }
    }

    @Test func aRowCopiedInTheSheetGetsAnIDOfItsOwnAndRemoveDeletesTheRuleNamed() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            let env = host.environment(home: home)
            for name in ["家賃", "駐車場"] {
                #expect(
                    try await Self.run(["recurring", "add", name, "8000", "--day", "27", "-c", "娯楽費"], env).status == 0)
            }
            // A person copies 家賃's row (its ID too) below and renames it.
            let sheet = try await host.rows(book: "家計簿_固定費", sheet: "固定費")
            for (column, value) in sheet[1].enumerated() {
                try await host.type(
                    book: "家計簿_固定費", sheet: "固定費", row: 4, column: column + 1,
                    column == 1 ? "駐輪場" : "\(value)")
            }
            let listed = try await Self.run(["recurring", "list", "--format", "json"], env)
            let rules = try RecurringRuleJSON.rules(try JSONParser.parse(Array(listed.stdout.utf8)))
            #expect(rules.map(\.name) == ["家賃", "駐車場", "駐輪場"] && Set(rules.map(\.id)).count == 3, "\(listed.stdout)")
            #expect(try await Self.run(["recurring", "remove", "家賃"], env).status == 0)
            let left = try await host.rows(book: "家計簿_固定費", sheet: "固定費").dropFirst().map { "\($0[1])" }
            #expect(left == ["駐車場", "駐輪場"])
        }
    }

    @Test func rulesKeptOnThisMachineMoveUpOnceTheServerKeepsThem() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let env = Samples.environment(
                home: home, ["EXPENSE_LOG_ENV": "development", "EXPENSE_LOG_BASE_URL": server.base])
            let added = try await Self.run(["recurring", "add", "家賃", "85000", "--day", "27", "-c", "娯楽費"], env)
            #expect(added.status == 0, "\(added.stderr)")
        }
        try await withScriptHost { host in
            let listed = try await Self.run(["recurring", "list"], host.environment(home: home))
            #expect(
                listed.stderr.contains("now keeps the fixed costs: 1 rule kept in ") && listed.stdout.contains("家賃"),
                "\(listed.stderr)")
            #expect(try await host.rows(book: "家計簿_固定費", sheet: "固定費").dropFirst().map { "\($0[1])" } == ["家賃"])
            let again = try await Self.run(["recurring", "list"], host.environment(home: home))
            #expect(!again.stderr.contains("moved up"), "once: \(again.stderr)")
        }
    }

    @Test func withAServerThatKeepsNoRulesTheyAreKeptOnThisMachine() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let env = Samples.environment(
                home: home, ["EXPENSE_LOG_ENV": "development", "EXPENSE_LOG_BASE_URL": server.base])
            let added = try await Self.run(["recurring", "add", "家賃", "85000", "--day", "27", "-c", "娯楽費"], env)
            #expect(added.status == 0 && added.stderr.contains("kept on this machine"), "\(added.stderr)")
            let path = added.stderr.firstMatch(of: /in (\/\S+\/recurring-development\.json)/).map { String($0.1) }
            #expect(path.map { FileManager.default.fileExists(atPath: $0) } == true, "\(added.stderr)")
            let listed = try await Self.run(["recurring", "list"], env)
            #expect(listed.stdout.contains("家賃") && listed.stderr.contains("(the server's script keeps none)"))
        }
    }
}
