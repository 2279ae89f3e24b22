import ExpenseLogFormats
import ExpenseLogModel
import Foundation
import TestSupport
import Testing

/// The edges of counting a household's money once, through the binary against the bundled script under the host: ids
/// made before accounts counted, a statement row that waited across a month's end, refunds of one payment, names that
/// only look like a card or a wallet.
@Suite struct CLIHouseholdEdgeTests {
    static func month(_ host: ScriptHost, _ month: Int = 11) async throws -> [String] {
        try ItemCodec.items(Data(try await host.call("?year=2026&month=\(month)").utf8)).map {
            "\($0.date) \($0.name) \($0.price)"
        }.sorted()
    }

    /// Registers items with the ids an earlier version made for them (no account in the id).
    static func seedTheOldWay(
        _ rows: [(String, String, Int)], env: [String: String], home: TemporaryDirectory
    ) async throws -> [String] {
        let ids = try CLIImportFilesTests.madeIDs(rows.map { ($0.0, $0.1, $0.2, 1) })
        let lines = zip(rows, ids).map { row, id in
            #"{"id":"\#(id)","date":"\#(row.0)","name":\#(ItemJSON.string(row.1)),"price":\#(row.2),"category":0,"categorySub":null}"#
        }
        let file = try home.write("old-\(UUID().uuidString).ndjson", lines.joined(separator: "\n") + "\n")
        #expect(try await CLI.run(["register", file], environment: env).status == 0)
        return ids
    }

    @Test func anOldIDOfAnotherCardsIdenticalRowIsHeldNotDroppedAndAnOldNewDecisionDoesNotSendARowTwice() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let vpass = try CLIImportFilesTests.write(
            [
                ["山田　太郎　様", "4980-00**-****-1234", "三井住友カード（ＮＬ）"],
                ["2026/11/01", "セブン－イレブン　中目黒店", "498", "１", "１", "498", ""],
                ["2026/11/03", "ＡＭＡＺＯＮ．ＣＯ．ＪＰ", "1980", "１", "１", "1980", ""],
                ["2026/11/15", "ＳＴＥＡＭ　ＧＡＭＥＳ", "2450", "１", "１", "2450", ""],
            ], "vpass.csv", in: home, encoding: "cp932")
        try await withScriptHost { host in
            let env = host.environment(home: home)
            // Last month's version imported the partner's 楽天 statement: the same ＡＭＡＺＯＮ purchase, its id made
            // without the card.
            _ = try await Self.seedTheOldWay(
                [("20261103", "ＡＭＡＺＯＮ．ＣＯ．ＪＰ", 1980), ("20261121", "ﾕﾆｸﾛ ｼﾌﾞﾔ", 3990)], env: env, home: home)
            let first = try await CLI.run(["import", vpass], environment: env)
            #expect(
                first.status == 4, "the Vpass file was never imported: its ＡＭＡＺＯＮ row is a question: \(first.stderr)")
            #expect(
                first.stderr.contains(
                    "\(vpass):3: 2026-11-03 ＡＭＡＺＯＮ．ＣＯ．ＪＰ ¥1,980 may be 2026-11-03 ＡＭＡＺＯＮ．ＣＯ．ＪＰ ¥1,980"),
                "\(first.stderr)")
            let decided = try await CLI.run(["import", vpass, "--ambiguous", "new"], environment: env)
            #expect(decided.status == 0, "\(decided.stderr)")
            #expect(try await Self.month(host).filter { $0.contains("ＡＭＡＺＯＮ") }.count == 2, "two cards, two purchases")
        }
        // A row the old version held and a person decided "new": the decision is under its old id; it is not sent again.
        let other = try TemporaryDirectory()
        defer { other.remove() }
        let card = try CLIImportFilesTests.write(
            [
                ["date", "name", "price", "category"], ["2026/11/09", "サイゼリヤ 渋谷店", "1200", "0"],
                ["2026/11/10", "ランチ定食", "900", "0"],
            ], "card.csv", in: other)
        try await withScriptHost { host in
            let env = host.environment(home: other)
            let old = try await Self.seedTheOldWay(
                [("20261109", "サイゼリヤ 渋谷店", 1200), ("20261110", "ランチ定食", 900)], env: env, home: other)
            let state = other.url.appendingPathComponent("expense-log/state/development")
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            try Data(#"{"version":1,"rows":{"\#(old[0])":{"decision":"new","by":"person","on":"2026-11-25"}}}"#.utf8)
                .write(to: state.appendingPathComponent("import-decisions.json"))
            // A native file has no account: its ids are the old ones, on the server already.
            let again = try await CLI.run(["import", card, "--account", "visa"], environment: env)
            #expect(again.status == 0 && again.stderr.contains("Nothing to send"), "\(again.stderr)")
            #expect(try await Self.month(host) == ["2026-11-09 サイゼリヤ 渋谷店 1200", "2026-11-10 ランチ定食 900"])
        }
    }

    @Test func aStatementRowThatWaitedIsMatchedAtSyncToAPurchaseTypedInTheMonthBefore() async throws {
        let home = try TemporaryDirectory(), partner = try TemporaryDirectory()
        defer { home.remove(); partner.remove() }
        let card = try CLIImportFilesTests.write(
            [CLIHouseholdMoneyTests.enaviTitle, CLIHouseholdMoneyTests.enaviRow("2026/12/01", "ﾏｲﾊﾞｽｹｯﾄ ﾒｸﾞﾛ", "2,480")],
            "enavi.csv", in: home)
        #expect(
            try await CLI.run(["import", card], environment: try Samples.offlineEnvironment(home: home)).status == 75)
        try await withScriptHost { host in
            // Typed on the last day of November, booked by the card on December 1st.
            #expect(
                try await CLI.run(
                    ["add", "まいばすけっと", "2480", "-d", "2026-11-30", "-c", "0"],
                    environment: host.environment(home: partner)
                ).status == 0)
            let sync = try await CLI.run(["sync"], environment: host.environment(home: home))
            #expect(sync.status == 0 && sync.stderr.contains("as it is an item already there"), "\(sync.stderr)")
            #expect(try await Self.month(host, 12).isEmpty, "not sent: the purchase of November 30th")
        }
    }

    @Test func twoRefundsOfOnePaymentAreTwoRowsAndNamesThatOnlyLookLikeACardOrAWalletStaySpending() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        var payPay = CLIHouseholdMonthTests.payPay
        payPay.append([
            "2026/11/06 09:00:00", "-", "100", "-", "-", "-", "-", "返金", "すき家 中目黒店", "PayPay残高", "-", "-",
            "04000000000000000002",
        ])
        let wallet = try CLIImportFilesTests.write(payPay, "Transactions.csv", in: home, encoding: "cp932")
        let bank = try CLIImportFilesTests.write(
            [
                CLIHouseholdMonthTests.mufg[0],
                ["2026/11/11", "デビット", "ｶｰﾄﾞﾗﾎﾞ ｱｷﾊﾊﾞﾗ", "3,300", "", "396,700", "", "", "支払い"],
                ["2026/11/12", "デビット", "SPEEDY CLEANING", "1,100", "", "395,600", "", "", "支払い"],
                ["2026/11/13", "デビット", "ONLINE PAYMENT SERVICE", "700", "", "394,900", "", "", "支払い"],
                ["2026/11/14", "口座振替", "ﾗｸﾃﾝEDY ﾁﾔ-ｼﾞ", "2,000", "", "392,900", "", "", "支払い"],
            ], "mufg.csv", in: home, encoding: "cp932")
        try await withScriptHost { host in
            let env = host.environment(home: home)
            let imported = try await CLI.run(["import", wallet, bank], environment: env)
            #expect(imported.status == 0, "\(imported.stderr)")
            let items = try ItemCodec.items(Data(try await host.call("?year=2026&month=11").utf8))
            #expect(
                items.filter { $0.price < 0 }.map(\.id).sorted() == [
                    "04000000000000000002-R", "04000000000000000002-R2",
                ])
            let names = items.map(\.name)
            #expect(
                names.contains("ｶｰﾄﾞﾗﾎﾞ ｱｷﾊﾊﾞﾗ") && names.contains("SPEEDY CLEANING")
                    && names.contains("ONLINE PAYMENT SERVICE"), "\(names)")
            #expect(!names.contains("ﾗｸﾃﾝEDY ﾁﾔ-ｼﾞ"), "楽天Edy's top-up is a transfer: \(names)")
        }
    }

    @Test func deletingTheTypedItemAStatementRowWasMatchedToBringsTheRowBackAtTheNextImport() async throws {
        let home = try TemporaryDirectory(), partner = try TemporaryDirectory()
        defer { home.remove(); partner.remove() }
        let card = try CLIImportFilesTests.write(
            [
                CLIHouseholdMoneyTests.enaviTitle,
                CLIHouseholdMoneyTests.enaviRow("2026/11/02", "ﾏｲﾊﾞｽｹｯﾄ ﾒｸﾞﾛ", "1,280"),
                CLIHouseholdMoneyTests.enaviRow("2026/11/09", "サイゼリヤ 渋谷店", "1,200"),
            ], "enavi.csv", in: home)
        try await withScriptHost { host in
            let env = host.environment(home: home), app = host.environment(home: partner)
            #expect(
                try await CLI.run(["add", "まいばすけっと", "1280", "-d", "2026-11-02", "-c", "0"], environment: env).status
                    == 0)
            #expect(
                try await CLI.run(["add", "ランチ", "1200", "-d", "2026-11-09", "-c", "0"], environment: app).status == 0)
            let first = try await CLI.run(["import", card, "--ambiguous", "same"], environment: env)
            #expect(first.status == 0 && first.stderr.contains("Nothing to send"), "\(first.stderr)")
            // Here a typed item is deleted; in the app, the partner deletes theirs.
            let here = try await CLI.run(
                ["delete", "まいばすけっと", "--from", "2026-11-01", "--to", "2026-11-30", "--yes"], environment: env)
            #expect(here.status == 0, "\(here.stderr)")
            let there = try await CLI.run(
                ["delete", "ランチ", "--from", "2026-11-01", "--to", "2026-11-30", "--yes"], environment: app)
            #expect(there.status == 0, "\(there.stderr)")
            #expect(try await Self.month(host).isEmpty)
            // The statement's rows were these purchases: with their typed copies gone, they are sent, not lost.
            let again = try await CLI.run(["import", card], environment: env)
            #expect(again.status == 0 && again.stderr.contains("Rows: 2 added."), "\(again.stderr)")
            #expect(try await Self.month(host) == ["2026-11-02 ﾏｲﾊﾞｽｹｯﾄ ﾒｸﾞﾛ 1280", "2026-11-09 サイゼリヤ 渋谷店 1200"])
        }
    }

    @Test func sameRefusesTwoTypedPurchasesOfDifferentAmounts() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            let env = host.environment(home: home)
            #expect(
                try await CLI.run(["add", "パン", "300", "-d", "2026-11-02", "-c", "0"], environment: env).status == 0)
            #expect(
                try await CLI.run(["add", "卵", "268", "-d", "2026-11-02", "-c", "0"], environment: env).status == 0)
            let same = try await CLI.run(
                ["same", "パン", "卵", "--from", "2026-11-01", "--to", "2026-11-30", "--yes"], environment: env)
            #expect(
                same.status == 65 && same.stderr.contains("two purchases, not one entered twice. Nothing was changed"),
                "\(same.stderr)")
            #expect(try await Self.month(host) == ["2026-11-02 パン 300", "2026-11-02 卵 268"])
        }
    }
}
