import ExpenseLogFormats
import ExpenseLogModel
import Foundation
import TestSupport
import Testing

/// A household's money counted once, through the binary against the bundled script under the host, with statements
/// written as the banks export them (Python's csv and codecs): transfers between its own accounts left out, two cards'
/// identical purchases kept apart, deleted rows staying deleted, generic typed names and kana held or matched.
@Suite struct CLIHouseholdMoneyTests {
    /// November as the script's sheet holds it: "date name price", sorted.
    static func month(_ host: ScriptHost, _ month: Int = 11) async throws -> [String] {
        try ItemCodec.items(Data(try await host.call("?year=2026&month=\(month)").utf8)).map {
            "\($0.date) \($0.name) \($0.price)"
        }.sorted()
    }

    /// 楽天カード e-NAVI's header: the two month titles change every month.
    static let enaviTitle = ["利用日", "利用店名・商品名", "利用者", "支払方法", "利用金額", "支払手数料", "支払総額", "12月支払金額", "1月繰越残高", "新規サイン"]

    /// An e-NAVI row of a one-time payment.
    static func enaviRow(_ day: String, _ name: String, _ price: String) -> [String] {
        [day, name, "本人", "1回払い", price, "0", price, price, "0", "*"]
    }

    /// 三菱UFJ's 入出金明細 of a household that also imports its cards and wallet: two card bills (half-width, one
    /// with an ASCII hyphen for the long mark), two PayPay top-ups (full-width and half-width kana), a Suica top-up, an
    /// ATM withdrawal at a convenience store (摘要 カ－ドＣ１, 摘要内容 empty), 振替 to savings, and the only spending:
    /// the gas bill and a debit purchase.
    static let bank: [[String]] = [
        ["日付", "摘要", "摘要内容", "支払い金額", "預かり金額", "差引残高", "メモ", "未資金化区分", "入払区分"],
        ["2026/11/02", "デビット", "ｾﾌﾞﾝｲﾚﾌﾞﾝ", "1,280", "", "398,720", "", "", "支払い"],
        ["2026/11/05", "口座振替", "ﾄｳｷﾖｳｶﾞｽ", "6,540", "", "392,180", "", "", "支払い"],
        ["2026/11/06", "口座振替", "ＰａｙＰａｙ　チャージ", "5,000", "", "387,180", "", "", "支払い"],
        ["2026/11/07", "口座振替", "ﾍﾟｲﾍﾟｲ", "3,000", "", "384,180", "", "", "支払い"],
        ["2026/11/08", "口座振替", "ﾓﾊﾞｲﾙSuica", "2,000", "", "382,180", "", "", "支払い"],
        ["2026/11/10", "カ－ドＣ１", "", "10,000", "", "372,180", "", "", "支払い"],
        ["2026/11/26", "口座振替", "ﾐﾂｲｽﾐﾄﾓｶｰﾄﾞ", "48,329", "", "323,851", "", "", "支払い"],
        ["2026/11/27", "口座振替", "ﾗｸﾃﾝｶ-ﾄﾞｻｰﾋﾞｽ", "12,190", "", "311,661", "", "", "支払い"],
        ["2026/11/28", "振替", "ﾌﾂｳ ﾖｷﾝ", "30,000", "", "281,661", "", "", "支払い"],
    ]

    @Test func aBanksCardBillsTopUpsATMAndSavingsAreTransfersLeftOutOfSpendingUnlessKept() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try CLIImportFilesTests.write(Self.bank, "meisai.csv", in: home, encoding: "cp932")
        let report = home.url.appendingPathComponent("r.json").path
        try await withScriptHost { host in
            let env = host.environment(home: home)
            let result = try await CLI.run(["import", file, "--explain", "--record", report], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                result.stderr.contains("Rows: 2 added, 7 transfers between your own accounts (not spending)."),
                "\(result.stderr)")
            #expect(try await Self.month(host) == ["2026-11-02 ｾﾌﾞﾝｲﾚﾌﾞﾝ 1280", "2026-11-05 ﾄｳｷﾖｳｶﾞｽ 6540"])
            #expect(
                try ReportDocument(path: report).rows.map(\.status) == ["added", "added"]
                    + Array(repeating: "transfer", count: 7))
            // --explain names each transfer and why.
            #expect(
                result.stderr.contains(
                    "\(file):8: a transfer, not sent (--transfers keep imports it): a card's bill: "
                        + "the card's own statement has its purchases"), "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "\(file):7: a transfer, not sent (--transfers keep imports it): cash from an ATM"),
                "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "\(file):4: a transfer, not sent (--transfers keep imports it): a wallet's top-up"),
                "\(result.stderr)")

            // A household that does not import its cards keeps their bills as spending.
            let kept = try await CLI.run(["import", file, "--transfers", "keep"], environment: env)
            #expect(
                kept.status == 0 && kept.stderr.contains("Rows: 7 added, 2 skipped as already there (same id)."),
                "\(kept.stderr)")
            #expect(try await Self.month(host).count == 9)
        }
    }

    /// The same ＡＭＡＺＯＮ purchase on the same day on two cards.
    static let vpass: [[String]] = [
        ["山田　太郎　様", "4980-00**-****-1234", "三井住友カード（ＮＬ）"],
        ["2026/11/03", "ＡＭＡＺＯＮ．ＣＯ．ＪＰ", "1980", "１", "１", "1980", ""],
        ["2026/11/04", "セブン－イレブン　中目黒店", "498", "１", "１", "498", ""],
        ["", "", "", "", "", "2478", ""],
    ]
    static let rakuten = [enaviTitle, enaviRow("2026/11/03", "ＡＭＡＺＯＮ．ＣＯ．ＪＰ", "1980")]

    @Test func twoCardsIdenticalPurchasesAreTwoItemsAndRowsImportedTheOldWayAreStillRecognised() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let vpass = try CLIImportFilesTests.write(Self.vpass, "vpass.csv", in: home, encoding: "cp932")
        let rakuten = try CLIImportFilesTests.write(Self.rakuten, "enavi.csv", in: home)
        try await withScriptHost { host in
            let env = host.environment(home: home)
            // Last month's version imported the Vpass statement: its ids were made without the card.
            let old = try CLIImportFilesTests.madeIDs([
                ("20261103", "ＡＭＡＺＯＮ．ＣＯ．ＪＰ", 1980, 1), ("20261104", "セブン－イレブン　中目黒店", 498, 1),
            ])
            let seeded = try home.write(
                "old.ndjson",
                """
                {"id":"\(old[0])","date":"20261103","name":"ＡＭＡＺＯＮ．ＣＯ．ＪＰ","price":1980,"category":0,"categorySub":null}
                {"id":"\(old[1])","date":"20261104","name":"セブン－イレブン　中目黒店","price":498,"category":0,"categorySub":null}

                """)
            #expect(try await CLI.run(["register", seeded], environment: env).status == 0)

            let again = try await CLI.run(["import", vpass, "--explain"], environment: env)
            #expect(
                again.status == 0 && again.stderr.contains("Nothing to send: every valid row is already there."),
                "\(again.stderr)")
            #expect(
                again.stderr.contains(
                    "\(vpass):2: skipped, already there: the same row was imported before, as id \(old[0])"),
                "\(again.stderr)")

            // The partner's 楽天 card has the same purchase on the same day: a purchase of its own.
            let card = try await CLI.run(["import", rakuten], environment: env)
            #expect(card.status == 0 && card.stderr.contains("Rows: 1 added."), "\(card.stderr)")
            let amazon = try await Self.month(host).filter { $0.contains("ＡＭＡＺＯＮ") }
            #expect(amazon == ["2026-11-03 ＡＭＡＺＯＮ．ＣＯ．ＪＰ 1980", "2026-11-03 ＡＭＡＺＯＮ．ＣＯ．ＪＰ 1980"])
            // Its id is made with its card's name, as docs/register.md says.
            let made = try CLIImportFilesTests.madeIDs([("rakuten-card\u{1F}20261103", "ＡＭＡＺＯＮ．ＣＯ．ＪＰ", 1980, 1)])
            let ids = try ItemCodec.items(Data(try await host.call("?year=2026&month=11").utf8)).map(\.id)
            #expect(ids.contains(made[0]), "\(ids)")

            // Both statements again, in one run and in another order: nothing more.
            let both = try await CLI.run(["import", rakuten, vpass], environment: env)
            #expect(both.status == 0 && both.stderr.contains("Nothing to send"), "\(both.stderr)")
            #expect(try await Self.month(host).count == 3)
        }
    }

    @Test func aDeletedStatementRowStaysDeletedWhenTheStatementIsImportedAgain() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let vpass = try CLIImportFilesTests.write(Self.vpass, "vpass.csv", in: home, encoding: "cp932")
        try await withScriptHost { host in
            let env = host.environment(home: home)
            #expect(try await CLI.run(["import", vpass], environment: env).status == 0)
            let deleted = try await CLI.run(
                ["delete", "セブン", "--from", "2026-11-01", "--to", "2026-11-30", "--yes"], environment: env)
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(try await Self.month(host) == ["2026-11-03 ＡＭＡＺＯＮ．ＣＯ．ＪＰ 1980"])
            for _ in 0..<2 {
                let again = try await CLI.run(["import", vpass, "--explain"], environment: env)
                #expect(again.status == 0 && again.stderr.contains("Nothing to send"), "\(again.stderr)")
                #expect(
                    again.stderr.contains("\(vpass):3: skipped as decided: decided by you (you deleted its item) on "),
                    "\(again.stderr)")
                #expect(try await Self.month(host) == ["2026-11-03 ＡＭＡＺＯＮ．ＣＯ．ＪＰ 1980"])
            }
        }
    }

    @Test func typedPurchasesWithGenericNamesAreHeldAgainstTheCardsRowADayLaterAndKanaMatches() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let card = [
            Self.enaviTitle, Self.enaviRow("2026/11/28", "紀伊國屋書店 新宿本店", "1,500"),
            Self.enaviRow("2026/11/13", "ﾕﾆｸﾛ ｷﾞﾝｻﾞﾃﾝ", "-300"),
            Self.enaviRow("2026/11/02", "ﾏｲﾊﾞｽｹｯﾄ ﾅｶﾒｸﾞﾛ1ﾁｮｳﾒﾃﾝ", "1,280"),
        ]
        let file = try CLIImportFilesTests.write(card, "enavi.csv", in: home)
        let report = home.url.appendingPathComponent("r.json").path
        try await withScriptHost { host in
            let env = host.environment(home: home)
            for (name, price, day) in [
                ("本", "1500", "2026-11-27"), ("返品", "-300", "2026-11-12"), ("まいばすけっと", "1280", "2026-11-02"),
            ] {
                let added = try await CLI.run(["add", name, price, "-d", day, "-c", "0"], environment: env)
                #expect(added.status == 0, "\(added.stderr)")
            }
            let result = try await CLI.run(["import", file, "--record", report], environment: env)
            #expect(result.status == 4, "held rows end with 4: \(result.stderr)")
            #expect(try ReportDocument(path: report).rows.map(\.status) == ["held", "held", "matched"])
            #expect(
                result.stderr.contains("\(file):2: 2026-11-28 紀伊國屋書店 新宿本店 ¥1,500 may be 2026-11-27 本 ¥1,500"),
                "\(result.stderr)")
            #expect(try await Self.month(host).count == 3, "nothing doubled")
            // A person says they are the same: nothing is ever sent for them.
            let decided = try await CLI.run(["import", file, "--ambiguous", "same"], environment: env)
            #expect(decided.status == 0, "\(decided.stderr)")
            #expect(
                try await Self.month(host) == ["2026-11-02 まいばすけっと 1280", "2026-11-12 返品 -300", "2026-11-27 本 1500"])
        }
    }

    @Test func aYuchoStatementWhoseRowsAreAsWideAsVpasssIsReadAsYucho() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // ゆうちょダイレクト's rows without the trailing empty column: seven fields, a date first and an amount third.
        let rows = SampleStatements.yucho.map { $0.count == 8 && $0[7].isEmpty ? Array($0.prefix(7)) : $0 }
        let file = try CLIImportFilesTests.write(rows, "yucho.csv", in: home, encoding: "cp932")
        try await withScriptHost { host in
            let result = try await CLI.run(["import", file], environment: host.environment(home: home))
            #expect(result.status == 0 && result.stderr.contains("the built-in profile yucho;"), "\(result.stderr)")
            #expect(try await Self.month(host) == ["2026-11-27 ﾔﾁﾝ ﾄｳ 50550", "2026-11-28 手数料 330"])
        }
    }

    @Test func deleteByANameNothingThisMonthHasLooksInLastMonthAndSaysWhereItFoundIt() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // Months as the binary reads the clock: this month and the one before (the test and the binary share the zone).
        let current = YearMonth.current(), last = current.previous
        let day = "\(last.year)-\(last.month < 10 ? "0" : "")\(last.month)-28"
        try await withScriptHost { host in
            let env = host.environment(home: home)
            #expect(try await CLI.run(["add", "紀伊國屋書店", "1500", "-d", day, "-c", "1"], environment: env).status == 0)
            #expect(try await CLI.run(["add", "コーヒー", "150", "-c", "0"], environment: env).status == 0)
            let deleted = try await CLI.run(["delete", "きのくにや", "--yes"], environment: env)
            #expect(deleted.status == 65, "kanji are not kana: nothing found: \(deleted.stderr)")
            let found = try await CLI.run(["delete", "紀伊國屋", "--yes"], environment: env)
            #expect(found.status == 0, "\(found.stderr)")
            #expect(
                found.stderr.contains("Nothing of \(current) is called 紀伊國屋; found 紀伊國屋書店 of \(day) in \(last)."),
                "\(found.stderr)")
            let left = try ItemCodec.items(Data(try await host.call("?year=\(last.year)&month=\(last.month)").utf8))
            #expect(left.isEmpty, "\(left)")
            let missing = try await CLI.run(["delete", "ラーメン", "--yes"], environment: env)
            #expect(
                missing.status == 65 && missing.stderr.contains("no item of \(last) to \(current) is called like it"),
                "\(missing.stderr)")
        }
    }

    @Test func addWithTheServerRefusingQueuesAtOnceWithOneLineAndSyncSendsItOnceItAnswers() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let offline = try Samples.offlineEnvironment(home: home)
        let added = try await CLI.run(["add", "ラーメン", "980", "-d", "2026-11-10", "-c", "0"], environment: offline)
        #expect(added.status == 75, "\(added.stderr)")
        #expect(!added.stderr.contains("retrying"), "a refused connection is not tried again: \(added.stderr)")
        #expect(added.stderr.split(separator: "\n").count == 1, "one line: \(added.stderr)")
        #expect(added.stderr.contains("connection refused"), "\(added.stderr)")
        // register (a statement) still retries, as the contract says.
        let file = try home.write("one.csv", "date,name,price,category\n2026/11/11,本,1500,1\n")
        let registered = try await CLI.run(["register", file], environment: offline)
        #expect(registered.status == 75 && registered.stderr.contains("retrying"), "\(registered.stderr)")
        try await withScriptHost { host in
            let env = offline.merging(host.environment(home: home)) { _, new in new }
            let sync = try await CLI.run(["sync"], environment: env)
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(try await Self.month(host) == ["2026-11-10 ラーメン 980", "2026-11-11 本 1500"])
        }
    }

    @Test func shopsNoHistoryNamesAreListedAndAPersonsRulesGiveTheirCategoryOrMarkThemTransfers() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let november = try CLIImportFilesTests.write(
            [
                Self.enaviTitle, Self.enaviRow("2026/11/05", "東京電力", "8,234"),
                Self.enaviRow("2026/11/06", "ＥＮＥＯＳ　渋谷ＳＳ", "5,400"),
                Self.enaviRow("2026/11/20", "ＥＮＥＯＳ　目黒ＳＳ", "4,100"),
                Self.enaviRow("2026/11/09", "ﾀﾞｲﾜｼﾖｳｹﾝ ﾂﾐﾀﾃ", "30,000"),
            ],
            "enavi202611.csv", in: home)
        let report = home.url.appendingPathComponent("r.json").path
        try await withScriptHost { host in
            let env = host.environment(home: home)
            let first = try await CLI.run(["import", november, "--record", report], environment: env)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(
                first.stderr.contains(
                    "4 rows of 3 shops took the default category Food, as no rule or history gives these shops one:\n"
                        + "  \(november):2: 東京電力 ¥8,234\n  \(november):3: ENEOS 渋谷SS ¥5,400 (and 1 more row)\n"
                        + "  \(november):5: ダイワシヨウケン ツミタテ ¥30,000\n"), "\(first.stderr)")
            let document =
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
            #expect(document?["defaultCategoryRows"] as? Int == 4)

            // The person gives the shops their categories, and marks the securities account's debit as a transfer.
            #expect(try await CLI.run(["rule", "add", "東京電力", "娯楽費"], environment: env).status == 0)
            let eneos = try await CLI.run(["rule", "add", "ｴﾈｵｽ", "entertainment/transportation"], environment: env)
            #expect(eneos.status == 0, "\(eneos.stderr)")
            #expect(
                try await CLI.run(["rule", "add", "ENEOS", "entertainment/transportation"], environment: env).status
                    == 0)
            #expect(try await CLI.run(["rule", "add", "ダイワショウケン", "transfer"], environment: env).status == 0)
            #expect(try await CLI.run(["rule", "add", "ｽｰﾊﾟｰ", "食費ではない"], environment: env).status == 64)
            let list = try await CLI.run(["rule", "list"], environment: env)
            #expect(
                list.stdout == """
                    SHOP              CATEGORY
                    東京電力          Entertainment
                    ｴﾈｵｽ              Entertainment/Transportation
                    ENEOS             Entertainment/Transportation
                    ダイワショウケン  transfer

                    """, "\(list.stdout)")
            let json = try await CLI.run(["rule", "list", "--format", "json"], environment: env)
            #expect(
                json.stdout.contains(#"{"shop": "ダイワショウケン", "category": null, "sub": null, "transfer": true}"#),
                "\(json.stdout)")
            let removed = try await CLI.run(["rule", "remove", "エネオス"], environment: env)
            #expect(removed.status == 0 && removed.stderr.contains("Removed the rule for ｴﾈｵｽ."), "\(removed.stderr)")
            #expect(try await CLI.run(["rule", "remove", "エネオス"], environment: env).status == 65)

            // December's statement follows the rules: categories from them, the transfer left out, nothing listed.
            let december = try CLIImportFilesTests.write(
                [
                    Self.enaviTitle, Self.enaviRow("2026/12/05", "東京電力", "7,980"),
                    Self.enaviRow("2026/12/06", "ＥＮＥＯＳ　渋谷ＳＳ", "5,100"),
                    Self.enaviRow("2026/12/09", "ﾀﾞｲﾜｼﾖｳｹﾝ ﾂﾐﾀﾃ", "30,000"),
                ], "enavi202612.csv", in: home)
            let next = try await CLI.run(["import", december, "--explain"], environment: env)
            #expect(next.status == 0 && !next.stderr.contains("took the default category"), "\(next.stderr)")
            #expect(
                next.stderr.contains("Rows: 2 added, 1 transfer between your own accounts (not spending)."),
                "\(next.stderr)")
            #expect(
                next.stderr.contains("\(december):2: category 1 from your rule for 東京電力 (`expense-log rule list`)"),
                "\(next.stderr)")
            let items = try ItemCodec.items(Data(try await host.call("?year=2026&month=12").utf8)).map {
                "\($0.name) \($0.category)/\($0.categorySub.map(String.init) ?? "-")"
            }
            #expect(items.sorted() == ["東京電力 1/-", "ＥＮＥＯＳ　渋谷ＳＳ 1/1"].sorted())
        }
    }

    @Test func statementRowsQueuedOfflineAreMatchedAgainAtSyncAgainstWhatThePartnerTypedMeanwhile() async throws {
        let home = try TemporaryDirectory(), partner = try TemporaryDirectory()
        defer { home.remove(); partner.remove() }
        let card = try CLIImportFilesTests.write(
            [
                Self.enaviTitle, Self.enaviRow("2026/11/02", "ﾏｲﾊﾞｽｹｯﾄ ﾅｶﾒｸﾞﾛ", "1,280"),
                Self.enaviRow("2026/11/28", "紀伊國屋書店 新宿本店", "1,500"),
                Self.enaviRow("2026/11/21", "ﾕﾆｸﾛ ｼﾌﾞﾔ", "3,990"),
            ], "enavi.csv", in: home)
        // A day offline: the import queues its rows.
        let offline = try await CLI.run(["import", card], environment: try Samples.offlineEnvironment(home: home))
        #expect(offline.status == 75, "\(offline.stderr)")
        try await withScriptHost { host in
            // Meanwhile the partner typed two of the purchases (in the app: random ids).
            for (name, price, day) in [("まいばすけっと", "1280", "2026-11-02"), ("本", "1500", "2026-11-27")] {
                #expect(
                    try await CLI.run(
                        ["add", name, price, "-d", day, "-c", "0"], environment: host.environment(home: partner)
                    ).status == 0)
            }
            let env = host.environment(home: home)
            let sync = try await CLI.run(["sync"], environment: env)
            #expect(sync.status == 4, "a row held for a person: \(sync.stderr)")
            #expect(
                sync.stderr.contains(
                    "Did not send 1 statement row that waited in the outbox, as it is an item already there:\n"
                        + "  2026-11-02 ﾏｲﾊﾞｽｹｯﾄ ﾅｶﾒｸﾞﾛ ¥1,280: the same purchase as 2026-11-02 まいばすけっと ¥1,280"),
                "\(sync.stderr)")
            #expect(
                sync.stderr.contains(
                    "Held 1 statement row that may be items entered while it waited; not sent, it waits in the outbox:\n"
                        + "  2026-11-28 紀伊國屋書店 新宿本店 ¥1,500 may be 2026-11-27 本 ¥1,500"), "\(sync.stderr)")
            #expect(
                try await Self.month(host) == [
                    "2026-11-02 まいばすけっと 1280", "2026-11-21 ﾕﾆｸﾛ ｼﾌﾞﾔ 3990", "2026-11-27 本 1500",
                ])
            let pending = try await CLI.run(["pending", "--format", "json"], environment: env)
            #expect(try ItemCodec.items(Data(pending.stdout.utf8)).map(\.name) == ["紀伊國屋書店 新宿本店"], "\(pending.stdout)")

            let again = try await CLI.run(["sync"], environment: env)
            #expect(again.status == 4 && again.stderr.contains("Held 1 statement row"), "\(again.stderr)")
            let decided = try await CLI.run(["sync", "--ambiguous", "same"], environment: env)
            #expect(decided.status == 0, "\(decided.stderr)")
            #expect(try await CLI.run(["pending", "--format", "json"], environment: env).stdout == "[]\n")
            // The statement again, now online: every row is decided or there.
            let reimport = try await CLI.run(["import", card], environment: env)
            #expect(reimport.status == 0 && reimport.stderr.contains("Nothing to send"), "\(reimport.stderr)")
            #expect(
                try await Self.month(host) == [
                    "2026-11-02 まいばすけっと 1280", "2026-11-21 ﾕﾆｸﾛ ｼﾌﾞﾔ 3990", "2026-11-27 本 1500",
                ])
        }
    }

    @Test func sameSaysTwoItemsAreOnePurchaseKeepsTheTypedOneWithTheStatementsDateAndReimportsAgree() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let card = try CLIImportFilesTests.write(
            [Self.enaviTitle, Self.enaviRow("2026/11/28", "紀伊國屋書店 新宿本店", "1,500")],
            "enavi.csv", in: home)
        try await withScriptHost { host in
            let env = host.environment(home: home)
            #expect(
                try await CLI.run(["add", "本", "1500", "-d", "2026-11-27", "-c", "1"], environment: env).status == 0)
            // Decided "new" by mistake: the purchase is on the sheet twice.
            #expect(try await CLI.run(["import", card, "--ambiguous", "new"], environment: env).status == 0)
            #expect(try await Self.month(host) == ["2026-11-27 本 1500", "2026-11-28 紀伊國屋書店 新宿本店 1500"])
            let asked = try await CLI.run(
                ["same", "紀伊國屋", "本", "--from", "2026-11-01", "--to", "2026-11-30"], environment: env)
            #expect(
                asked.status == 64 && asked.stderr.contains("--yes"), "off a terminal it needs --yes: \(asked.stderr)")
            let same = try await CLI.run(
                ["same", "紀伊國屋", "本", "--statement-date", "--from", "2026-11-01", "--to", "2026-11-30", "--yes"],
                environment: env)
            #expect(same.status == 0, "\(same.stderr)")
            #expect(try await Self.month(host) == ["2026-11-28 本 1500"], "the typed one kept, with the card's date")
            for _ in 0..<2 {
                let again = try await CLI.run(["import", card, "--explain"], environment: env)
                #expect(again.status == 0 && again.stderr.contains("Nothing to send"), "\(again.stderr)")
                #expect(again.stderr.contains("\(card):2: matched, not sent: decided by you on "), "\(again.stderr)")
            }
            #expect(try await Self.month(host) == ["2026-11-28 本 1500"])
        }
    }

    @Test func aRowTypedIntoTheSheetByHandCountsInFetchAndSummaryAndEditGivesItAnID() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            let env = host.environment(home: home)
            #expect(
                try await CLI.run(["add", "コーヒー", "150", "-d", "2026-11-10", "-c", "0"], environment: env).status == 0)
            // The partner types a row into the sheet, as the app would show it, with no id.
            for (column, value) in [(2, "2026/11/15"), (3, "ランチ"), (4, "1200"), (5, "0")] {
                try await host.type(book: "家計簿_2026", sheet: "11", row: 3, column: column, value)
            }
            let fetched = try await CLI.run(["fetch", "2026-11"], environment: env)
            #expect(fetched.status == 0 && !fetched.stderr.contains("warning"), "\(fetched.stderr)")
            #expect(fetched.stdout.contains("ランチ ✎by hand") && fetched.stdout.contains("1,350"), "\(fetched.stdout)")
            #expect(try await CLI.run(["config", "set", "budgets.食費", "1000"], environment: env).status == 0)
            let budget = try await CLI.run(["summary", "2026-11", "--budget"], environment: env)
            #expect(budget.status == 3, "over budget, every row counted: \(budget.stderr)")
            #expect(budget.stdout.contains("1,350"), "\(budget.stdout)")

            let edited = try await CLI.run(
                ["edit", "ランチ", "--price", "1300", "--from", "2026-11-01", "--to", "2026-11-30", "--yes"],
                environment: env)
            #expect(edited.status == 0, "\(edited.stderr)")
            #expect(edited.stderr.contains("typed into the sheet by hand, the id "), "\(edited.stderr)")
            let rows = try await host.rows(book: "家計簿_2026", sheet: "11")
            let lunch = try #require(rows.first { "\($0.count > 2 ? $0[2] : "")" == "ランチ" })
            #expect(!"\(lunch[0])".isEmpty && "\(lunch[3])" == "1300", "\(lunch)")
            let again = try await CLI.run(["fetch", "2026-11", "--refresh"], environment: env)
            #expect(!again.stdout.contains("by hand") && again.stdout.contains("1,450"), "\(again.stdout)")
        }
    }

    @Test func underAJapaneseLocaleThePromptsAndTheEverydayMessagesAreJapanese() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let offline = try Samples.offlineEnvironment(home: home).merging(["LANG": "ja_JP.UTF-8"]) { _, new in new }
        let queued = try await CLI.run(["add", "ラーメン", "980", "-d", "2026-11-10", "-c", "0"], environment: offline)
        #expect(queued.status == 75 && queued.stderr.hasPrefix("ラーメン ¥980 は送信待ちです ("), "\(queued.stderr)")
        #expect(queued.stderr.contains("に届きません: 接続を拒否されました"), "the error in Japanese too: \(queued.stderr)")
        let badPrice = try await CLI.run(
            ["add", "ラーメン", "980円です", "-d", "2026-11-10", "-c", "0"], environment: offline)
        #expect(
            badPrice.status == 65
                && badPrice.stderr.contains("エラー: <price>: 「980円です」は整数の円ではありません (1500、1,500、¥1,500、1,500円 が読めます)"),
            "\(badPrice.stderr)")
        let badCategory = try await CLI.run(
            ["add", "ラーメン", "980", "-d", "2026-11-10", "-c", "らーめん"], environment: offline)
        #expect(badCategory.status == 64, "a category the catalogue lacks is a usage error: \(badCategory.stderr)")
        let rows = try home.write("rows.csv", "date,name,price,category\n2026/11/10,ラーメン,980,0\n2026/13/10,餃子,450,0\n")
        let badRow = try await CLI.run(["register", rows], environment: offline)
        #expect(
            badRow.status == 65 && badRow.stderr.contains(":3: date: 「2026/13/10」は実在する日ではありません (2026年に13月はありません)"),
            "\(badRow.stderr)")
        let header = try home.write("header.csv", "when,what,yen\n2026/11/10,ラーメン,980\n")
        let badHeader = try await CLI.run(["register", header], environment: offline)
        #expect(
            badHeader.status == 65
                && badHeader.stderr.contains(":1: 見出しに date か 日付、name か 品名、price か 金額、category か 項目 がありません"),
            "\(badHeader.stderr)")
        let folder = try Samples.cacheFolder(home: home, offline)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: folder.appendingPathComponent("2026-10.json"))
        let corrupt = try await CLI.run(["fetch", "2026-10", "--offline"], environment: offline)
        #expect(corrupt.stderr.contains("警告: キャッシュのファイル ") && corrupt.stderr.contains("が読めないため"), "\(corrupt.stderr)")
        let regional = try CLIImportFilesTests.write(SampleStatements.bank, "regional.csv", in: home)
        let guessed = try await CLI.run(["profile", "init", regional], environment: offline)
        #expect(
            guessed.stderr.contains("推測: columns.date: 「日付」") && guessed.stderr.contains("これで "), "\(guessed.stderr)")
        let missing = try await CLI.run(["fetch", "2026-11", "--offline"], environment: offline)
        #expect(
            missing.status == 69 && missing.stderr.contains("エラー: 2026-11 は development 環境のキャッシュ"), "\(missing.stderr)")
        try await withScriptHost { host in
            let env = host.environment(home: home).merging(["LANG": "ja_JP.UTF-8"]) { _, new in new }
            let sync = try await CLI.run(["sync"], environment: env)
            #expect(
                sync.status == 0 && sync.stderr.contains("1件を送信しました (リクエスト1回、サーバーに既にあった0件は送らず)。送信待ちはありません。"),
                "\(sync.stderr)")
            let statement = try CLIImportFilesTests.write(Self.bank, "meisai.csv", in: home, encoding: "cp932")
            let imported = try await CLI.run(["import", statement], environment: env)
            #expect(imported.stderr.contains("結果: 追加 2件、自分の口座間の振替 (支出ではない) 7件。"), "\(imported.stderr)")
            #expect(imported.stderr.contains("を三菱UFJ銀行 入出金明細として読みました (組み込みのプロファイル mufg。"), "\(imported.stderr)")
            #expect(imported.stderr.contains("2店の2行が既定の項目「食費」になりました"), "\(imported.stderr)")
            let explained = try await CLI.run(["import", statement, "--explain", "--dry-run"], environment: env)
            #expect(
                explained.stderr.contains(":5: 振替のため送信せず (--transfers keep で取り込めます): 電子マネーへのチャージ: 買い物はその明細にあります"),
                "\(explained.stderr)")
            #expect(
                explained.stderr.contains(":2: 登録済みのため送信せず: ID ") && explained.stderr.contains("はすでにサーバー上にあります"),
                "\(explained.stderr)")
            // On a terminal: the questions in Japanese, answered in Japanese.
            let asked = try await CLIEverydayTests.onTerminal(
                ["add", "餃子", "450", "-d", "2026-11-11"],
                answering: [("項目", "食費"), ("を登録しますか? [Y/n]", "はい")], env)
            #expect(asked.status == 0, "\(asked.stdout)")
            #expect(try await Self.month(host).contains("2026-11-11 餃子 450"))
            // A row a person broke in the sheet: named in Japanese, the month still printed, exit 65.
            for (column, value) in [(1, "X9"), (2, "2026/11/15"), (3, "メモ"), (4, "ﾒﾓ"), (5, "0")] {
                try await host.type(book: "家計簿_2026", sheet: "11", row: 20, column: column, value)
            }
            let broken = try await CLI.run(["fetch", "2026-11"], environment: env)
            #expect(
                broken.status == 65 && broken.stderr.contains("警告: 除外: 2026-11、サーバーの応答の")
                    && broken.stderr.contains("金額 null は整数の円ではありません"),
                "\(broken.stderr)")
        }
    }

    @Test func onATerminalAnImportAsksOnceForEachNewShopsCategoryBeforeSendingAndRemembersIt() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let card = try CLIImportFilesTests.write(
            [
                Self.enaviTitle, Self.enaviRow("2026/11/05", "東京電力", "8,234"),
                Self.enaviRow("2026/11/06", "ＥＮＥＯＳ　渋谷ＳＳ", "5,400"),
                Self.enaviRow("2026/11/20", "ＥＮＥＯＳ　目黒ＳＳ", "4,100"), Self.enaviRow("2026/11/22", "ｾﾌﾞﾝｲﾚﾌﾞﾝ", "498"),
            ],
            "enavi.csv", in: home)
        try await withScriptHost { host in
            let env = host.environment(home: home)
            let asked = try await CLIEverydayTests.onTerminal(
                ["import", card],
                // A typo is refused with what it likely meant, which Enter then takes.
                answering: [
                    ("東京電力 ¥8,234 — its category", "entertainmnt"), ("東京電力 ¥8,234 — its category [Entertainment]", ""),
                    ("ENEOS 渋谷SS ¥5,400 (and 1 more)", "entertainment/transportation"),
                    ("enavi.csv:5: ", ""),
                ], env)
            #expect(asked.status == 0, "\(asked.stdout)")
            #expect(asked.stdout.contains("→ ENEOS: Entertainment/Transportation"), "\(asked.stdout)")
            let items = try ItemCodec.items(Data(try await host.call("?year=2026&month=11").utf8))
                .map { "\($0.name) \($0.category)/\($0.categorySub.map(String.init) ?? "-")" }.sorted()
            #expect(items == ["ｾﾌﾞﾝｲﾚﾌﾞﾝ 0/-", "東京電力 1/-", "ＥＮＥＯＳ　渋谷ＳＳ 1/1", "ＥＮＥＯＳ　目黒ＳＳ 1/1"].sorted(), "\(items)")
            let rules = try await CLI.run(["rule", "list", "--format", "json"], environment: env)
            #expect(
                rules.stdout.contains(#""shop": "東京電力", "category": 1"#) && rules.stdout.contains(#""shop": "ENEOS""#),
                "\(rules.stdout)")
            #expect(!rules.stdout.contains("セブン"), "Enter keeps the default and makes no rule")
        }
    }
}
