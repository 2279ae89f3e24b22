import ExpenseLogModel
import Foundation
import TestSupport
import Testing

/// The statements households in Japan download, written as Python's csv module and codecs write them, imported with
/// nothing but the file against the reference server: exactly which items land, what the next statement adds, and a
/// shop's category following history.
@Suite struct CLIBuiltinProfileTests {
    /// The month's items as "date name price category".
    static func landed(_ server: ReferenceServer) async throws -> [String] {
        try await server.items().map { "\($0.date) \($0.name) \($0.price) \($0.category)" }.sorted()
    }

    @Test func aVpassStatementImportsAsItIsAndTheNextMonthAddsOnlyItsNewRowsInTheCategoriesTheShopsHad() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let november = try CLIImportFilesTests.write(
            SampleStatements.vpassNovember, "vpass-2026-11.csv", in: home, encoding: "cp932")
        let december = try CLIImportFilesTests.write(
            SampleStatements.vpassDecember, "vpass-2026-12.csv", in: home, encoding: "cp932")
        try await withServer { server in
            // Last month, typed in the app: ビックカメラ was entertainment (1). The cache holds it once the month is seen.
            try await server.seed([Samples.item("APP-1", "20261020", "ビックカメラ", 4_980, category: 1, sub: nil)])
            let env = Samples.environment(home: home, server: server)
            #expect(try await CLI.run(["fetch", "2026-10"], environment: env).status == 0)

            let first = try await CLI.run(["import", november], environment: env)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(
                first.stderr.contains(
                    "Read \(november) as a 三井住友カード Vpass statement (the built-in profile vpass; "
                        + "--profile sets another)."), "\(first.stderr)")
            #expect(!first.stderr.contains("warning"), "cron mails nothing: \(first.stderr)")
            #expect(first.stderr.contains("Rows: 6 added, 5 left out by the profile."), "\(first.stderr)")
            #expect(
                try await Self.landed(server)
                    == [
                        "2026-10-20 ビックカメラ 4980 1",
                        "2026-11-01 セブン－イレブン　中目黒店 498 0", "2026-11-03 ＡＭＡＺＯＮ．ＣＯ．ＪＰ 3980 0",
                        "2026-11-08 ビックカメラ　有楽町店 59800 1", "2026-11-12 ＡＭＡＺＯＮ．ＣＯ．ＪＰ -1200 0",
                        "2026-11-15 ＳＴＥＡＭ　ＧＡＭＥＳ 2450 0", "2026-11-20 ファミリーマート／ｉＤ 340 0",
                    ].sorted())

            let again = try await CLI.run(["import", november], environment: env)
            #expect(
                again.status == 0 && again.stderr.contains("Nothing to send: every valid row is already there."),
                "\(again.stderr)")
            let next = try await CLI.run(["import", december, "--explain"], environment: env)
            #expect(next.status == 0, "\(next.stderr)")
            #expect(
                next.stderr.contains(
                    "Rows: 2 added, 1 skipped as already there (same id), 2 left out by the profile."),
                "\(next.stderr)")
            let landed = try await Self.landed(server)
            #expect(
                landed.filter { $0.contains("59800") }.count == 1, "the instalment's second row is the same purchase")
            #expect(landed.contains("2026-12-02 ビックカメラ　池袋店 1280 1"), "the shop's category, from history: \(landed)")
            #expect(landed.contains("2026-12-03 セブン－イレブン　目黒店 220 0"))
            // --explain says where each category came from.
            #expect(
                next.stderr.contains("\(december):3: category 1 from history: the shop's latest item (ビックカメラ) has it"),
                "\(next.stderr)")
            #expect(
                next.stderr.contains(
                    "\(december):4: category 0 from history: the shop's latest item (セブン-イレブン) has it"),
                "\(next.stderr)")
        }
    }

    @Test func aRakutenCardStatementWithMonthTitlesAndAPayPayHistoryImportWithNothingButTheFile() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let rakuten = try CLIImportFilesTests.write(SampleStatements.rakutenCard, "enavi202612.csv", in: home)
        let paypay = try CLIImportFilesTests.write(
            SampleStatements.payPay, "Transactions_20261130.csv", in: home, encoding: "cp932")
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let card = try await CLI.run(["import", rakuten], environment: env)
            #expect(card.status == 0 && card.stderr.contains("the built-in profile rakuten-card"), "\(card.stderr)")
            #expect(card.stderr.contains("Rows: 3 added, 1 left out by the profile."), "\(card.stderr)")
            let wallet = try await CLI.run(
                ["import", paypay, "--record", home.url.appendingPathComponent("r.json").path], environment: env)
            #expect(wallet.status == 0 && wallet.stderr.contains("the built-in profile paypay"), "\(wallet.stderr)")
            let report = try ReportDocument(path: home.url.appendingPathComponent("r.json").path)
            #expect(report.rows.map(\.status) == ["transfer", "added", "excluded", "added", "added"])
            #expect(report.rows[0].reasons == ["a top-up of PayPay 残高 (チャージ): the money's spending is the payments"])
            // The refund carries its payment's 取引番号: an item of its own, its id that number with -R.
            #expect(report.rows[4].item?.id == "04000000000000000002-R")
            #expect(
                try await Self.landed(server)
                    == [
                        "2026-11-02 ﾏｲﾊﾞｽｹｯﾄ ﾅｶﾒｸﾞﾛ 1280 0", "2026-11-09 ﾗｸﾃﾝｲﾁﾊﾞ 12000 0", "2026-11-21 ﾕﾆｸﾛ ｼﾌﾞﾔ 3990 0",
                        "2026-11-02 すき家 中目黒店 880 0", "2026-11-04 ドラッグストア マツモトキヨシ 2599 0", "2026-11-05 すき家 中目黒店 -880 0",
                    ].sorted())
            let twice = try await CLI.run(["import", rakuten, paypay], environment: env)
            #expect(
                twice.status == 0 && twice.stderr.contains("Nothing to send"), "re-imports add nothing: \(twice.stderr)"
            )
            // The next statements repeat these rows and add one each: only those are sent.
            let nextCard = try CLIImportFilesTests.write(
                SampleStatements.rakutenCard + [
                    [
                        "2026/12/01", "ｽｷﾔ", "本人", "1回払い", "480", "0", "480",
                        "480", "0", "*",
                    ]
                ], "enavi202701.csv", in: home)
            let nextWallet = try CLIImportFilesTests.write(
                SampleStatements.payPay + [
                    [
                        "2026/12/01 12:00:00", "390", "-", "-", "-", "-", "-", "支払い",
                        "松屋", "PayPay残高", "-", "-", "04000000000000000006",
                    ]
                ],
                "Transactions_20261231.csv", in: home, encoding: "cp932")
            let next = try await CLI.run(["import", nextCard, nextWallet], environment: env)
            #expect(next.status == 0 && next.stderr.contains("Rows: 2 added,"), "\(next.stderr)")
            #expect(try await server.items().count == 8)
        }
    }

    @Test func aMUFGStatementTakesADebitCancellationOffAndLeavesOutWhatIsNoSpending() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try CLIImportFilesTests.write(SampleStatements.mufg, "meisai.csv", in: home, encoding: "cp932")
        let report = home.url.appendingPathComponent("r.json").path
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(["import", file, "--record", report], environment: env)
            #expect(result.status == 0 && result.stderr.contains("the built-in profile mufg"), "\(result.stderr)")
            let rows = try ReportDocument(path: report).rows
            #expect(
                rows.map(\.status) == [
                    "added", "added", "added", "added", "transfer", "excluded", "transfer", "transfer",
                ])
            #expect(rows[5].reasons == ["money in that is no refund (摘要 is not a refund's): not spending"])
            #expect(
                try await Self.landed(server) == [
                    "2026-11-02 ｾﾌﾞﾝｲﾚﾌﾞﾝ 1280 0", "2026-11-03 ｾﾌﾞﾝｲﾚﾌﾞﾝ -1280 0", "2026-11-05 ﾄｳｷﾖｳｶﾞｽ 6540 0",
                    "2026-11-06 手数料 220 0",
                ])
        }
    }

    /// A bank's statement: its sample, the profile that must read it, its report line and what lands.
    struct BankCase: Sendable, CustomStringConvertible {
        let rows: [[String]], profile: String, report: String, landed: [String]
        /// A row of the next statement, which overlaps this one: the only item it adds.
        let next: [String], nextLanded: String
        /// The ids the items get, when the bank gives its own.
        var ids: [String]?
        var description: String { profile }
    }

    static let banks = [
        // ゆうちょ: seven account lines, the bank's own ids, 詳細２ else 詳細１ as the name; money in and the ATM left out.
        BankCase(
            rows: SampleStatements.yucho, profile: "yucho",
            report: "Rows: 2 added, 1 transfer between your own accounts (not spending), 1 left out by the profile.",
            landed: ["2026-11-27 ﾔﾁﾝ ﾄｳ 50550 0", "2026-11-28 手数料 330 0"],
            next: ["20261203", "202612030000001", "", "4800", "自払", "ﾃﾞﾝｷﾘﾖｳ", "297421", ""],
            nextLanded: "2026-12-03 ﾃﾞﾝｷﾘﾖｳ 4800 0",
            ids: ["202611270000001", "202611280000002"]),
        // 三井住友銀行: a debit refund taken off; salary, ATM and the card bill left out.
        BankCase(
            rows: SampleStatements.smbc, profile: "smbc",
            report: "Rows: 3 added, 2 transfers between your own accounts (not spending), 1 left out by the profile.",
            landed: ["2026-11-02 ﾃﾞﾋﾞｯﾄ ﾏｲﾊﾞｽｹｯﾄ 1280 0", "2026-11-03 ﾃﾞﾋﾞｯﾄ ﾏｲﾊﾞｽｹｯﾄ -1280 0", "2026-11-27 ﾄｳｷﾖｳｶﾞｽ 6540 0"],
            next: ["2026/12/01", "980", "", "ﾃﾞﾋﾞｯﾄ ﾏｲﾊﾞｽｹｯﾄ", "368,734", "", ""],
            nextLanded: "2026-12-01 ﾃﾞﾋﾞｯﾄ ﾏｲﾊﾞｽｹｯﾄ 980 0"),
    ]

    @Test(arguments: banks)
    func aBankStatementKeepsOnlyTheSpendingAndItsReimportAddsNothing(bank: BankCase) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try CLIImportFilesTests.write(bank.rows, "meisai.csv", in: home, encoding: "cp932")
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(["import", file], environment: env)
            #expect(
                result.status == 0 && result.stderr.contains("the built-in profile \(bank.profile);"),
                "\(result.stderr)")
            #expect(result.stderr.contains(bank.report), "\(result.stderr)")
            #expect(try await Self.landed(server) == bank.landed)
            if let ids = bank.ids { #expect(try await server.items().map(\.id) == ids, "the bank's own ids") }
            let again = try await CLI.run(["import", file], environment: env)
            #expect(again.stderr.contains("Nothing to send"), "\(again.stderr)")
            // The next statement repeats this one's rows and adds one: only that one is sent.
            let next = try CLIImportFilesTests.write(
                bank.rows + [bank.next], "meisai-next.csv", in: home, encoding: "cp932")
            let overlapping = try await CLI.run(["import", next], environment: env)
            #expect(overlapping.stderr.contains("Rows: 1 added,"), "\(overlapping.stderr)")
            #expect(try await Self.landed(server) == (bank.landed + [bank.nextLanded]).sorted())
        }
    }
}
