import ExpenseLogFormats
import ExpenseLogModel
import Foundation
import TestSupport
import Testing

/// A household's November, end to end through the binary against the bundled script under the host: the partner's
/// purchases typed in the app, a purchase typed with a generic name, five statements as the banks and cards export them
/// (transfers, refunds, an instalment, two cards with one identical purchase), a day offline, a deletion and every
/// statement imported again. The sheet ends with each purchase once, checked row by row.
@Suite struct CLIHouseholdMonthTests {
    static func month(_ host: ScriptHost) async throws -> [String] {
        try ItemCodec.items(Data(try await host.call("?year=2026&month=11").utf8)).map {
            "\($0.date) \($0.name) \($0.price)"
        }.sorted()
    }

    /// 三井住友カード (Vpass): a section per card, a 分割 purchase at its full amount, a refund, a waived fee, totals.
    static let vpass: [[String]] = [
        ["山田　太郎　様", "4980-00**-****-1234", "三井住友カード（ＮＬ）"],
        ["2026/11/01", "セブン－イレブン　中目黒店", "498", "１", "１", "498", ""],
        ["2026/11/03", "ＡＭＡＺＯＮ．ＣＯ．ＪＰ", "1980", "１", "１", "1980", ""],
        ["2026/11/05", "年会費", "0", "１", "１", "0", ""],
        ["2026/11/08", "ビックカメラ　有楽町店", "59800", "分割", "1/3", "19934", ""],
        ["2026/11/12", "ＡＭＡＺＯＮ．ＣＯ．ＪＰ", "-1200", "１", "１", "-1200", "返品"],
        ["2026/11/28", "紀伊國屋書店　新宿本店", "1500", "１", "１", "1500", ""],
        ["山田　太郎　様", "4980-00**-****-1234", "ｉＤ"],
        ["2026/11/20", "ファミリーマート／ｉＤ", "340", "１", "１", "340", ""],
        ["", "", "", "", "", "82918", ""],
    ]
    /// 楽天カード (the partner's): the same ＡＭＡＺＯＮ purchase as on the Vpass card, and one the partner typed.
    static let rakuten: [[String]] = [
        ["利用日", "利用店名・商品名", "利用者", "支払方法", "利用金額", "支払手数料", "支払総額", "12月支払金額", "1月繰越残高", "新規サイン"],
        ["2026/11/02", "ﾏｲﾊﾞｽｹｯﾄ ﾅｶﾒｸﾞﾛ1ﾁｮｳﾒﾃﾝ", "家族", "1回払い", "1280", "0", "1280", "1280", "0", "*"],
        ["2026/11/03", "ＡＭＡＺＯＮ．ＣＯ．ＪＰ", "家族", "1回払い", "1980", "0", "1980", "1980", "0", "*"],
        ["", "ポイント利用分", "", "", "-100", "", "-100", "-100", "", ""],
        ["2026/11/21", "ﾕﾆｸﾛ ｼﾌﾞﾔ", "家族", "1回払い", "3990", "0", "3990", "3990", "0", "*"],
    ]
    /// PayPay: a top-up, a payment and its refund under one 取引番号, money sent to a person, a payment with points.
    static let payPay: [[String]] = [
        [
            "取引日", "出金金額（円）", "入金金額（円）", "海外出金金額", "通貨", "変換レート（円）", "利用国", "取引内容", "取引先", "取引方法",
            "支払い区分", "利用者", "取引番号",
        ],
        [
            "2026/11/01 08:12:30", "-", "5,000", "-", "-", "-", "-", "チャージ", "三菱UFJ銀行", "銀行口座", "-", "-",
            "04000000000000000001",
        ],
        [
            "2026/11/02 12:40:05", "880", "-", "-", "-", "-", "-", "支払い", "すき家 中目黒店", "PayPay残高", "-", "-",
            "04000000000000000002",
        ],
        [
            "2026/11/03 19:00:00", "1,000", "-", "-", "-", "-", "-", "送金", "山田 花子", "PayPay残高", "-", "-",
            "04000000000000000003",
        ],
        [
            "2026/11/04 10:10:10", "2,599", "-", "-", "-", "-", "-", "支払い", "ドラッグストア マツモトキヨシ",
            "PayPayポイント (1円), PayPay残高 (2,598円)",
            "-", "-", "04000000000000000004",
        ],
        [
            "2026/11/05 09:00:00", "-", "880", "-", "-", "-", "-", "返金", "すき家 中目黒店", "PayPay残高", "-", "-",
            "04000000000000000002",
        ],
    ]
    /// ゆうちょ: rent paid automatically, cash from an ATM, the Vpass bill, a salary.
    static let yucho: [[String]] = [
        ["お客さま口座情報"], ["現在高：", "328,291", "円", ""], ["出力日時：令和 08 年 12 月 01 日 09 時 00 分"],
        ["お客さま口座番号：10000-12345671"], ["照会対象：期間指定"], ["日付指定：令和 08 年 11 月 01 日 ～ 令和 08 年 11 月 30 日"], ["明細件数：4"],
        ["取引日", "入出金明細ＩＤ", "受入金額（円）", "払出金額（円）", "詳細１", "詳細２", "現在（貸付）高"],
        ["20261127", "202611270000001", "", "50550", "自払", "ﾔﾁﾝ ﾄｳ", "302551"],
        ["20261128", "202611280000001", "", "20000", "カード", "ｾﾌﾞﾝｷﾞﾝｺｳ", "282551"],
        ["20261126", "202611260000001", "", "48329", "自払", "ﾐﾂｲｽﾐﾄﾓｶｰﾄﾞ", "262551"],
        ["20261130", "202611300000001", "146070", "", "振込", "ﾓﾘｸﾞﾁｼｾｲｶﾂﾌｸｼ", "408621"],
    ]
    /// 三菱UFJ: a debit purchase and its cancellation, the gas bill, a PayPay top-up, a convenience store ATM, the
    /// 楽天 card's bill and 振替 to savings.
    static let mufg: [[String]] = [
        ["日付", "摘要", "摘要内容", "支払い金額", "預かり金額", "差引残高", "メモ", "未資金化区分", "入払区分"],
        ["2026/11/02", "デビット", "ｾﾌﾞﾝｲﾚﾌﾞﾝ", "1,280", "", "398,720", "", "", "支払い"],
        ["2026/11/03", "デビット", "ｾﾌﾞﾝｲﾚﾌﾞﾝ", "", "1,280", "400,000", "", "", "預入れ"],
        ["2026/11/05", "口座振替", "ﾄｳｷﾖｳｶﾞｽ", "6,540", "", "393,460", "", "", "支払い"],
        ["2026/11/01", "口座振替", "ＰａｙＰａｙ　チャージ", "5,000", "", "388,460", "", "", "支払い"],
        ["2026/11/10", "カ－ドＣ１", "", "10,000", "", "378,460", "", "", "支払い"],
        ["2026/11/27", "口座振替", "ﾗｸﾃﾝｶｰﾄﾞｻｰﾋﾞｽ", "12,190", "", "366,270", "", "", "支払い"],
        ["2026/11/28", "振替", "ﾌﾂｳ ﾖｷﾝ", "30,000", "", "336,270", "", "", "支払い"],
    ]

    /// Each purchase once: what the sheet must hold at the end of the month.
    static let expected = [
        "2026-11-01 セブン－イレブン　中目黒店 498",
        "2026-11-02 まいばすけっと 1280",  // typed in the app; the 楽天 row matched it
        "2026-11-02 すき家 880",  // typed in the app while the PayPay import waited offline
        "2026-11-02 ｾﾌﾞﾝｲﾚﾌﾞﾝ 1280",
        "2026-11-03 ｾﾌﾞﾝｲﾚﾌﾞﾝ -1280",  // the debit card's cancellation
        "2026-11-03 ＡＭＡＺＯＮ．ＣＯ．ＪＰ 1980",  // on the Vpass card
        "2026-11-03 ＡＭＡＺＯＮ．ＣＯ．ＪＰ 1980",  // and on the 楽天 card: two purchases
        "2026-11-04 ドラッグストア マツモトキヨシ 2599",
        "2026-11-05 すき家 中目黒店 -880",  // PayPay's 返金, under the payment's 取引番号
        "2026-11-05 ﾄｳｷﾖｳｶﾞｽ 6540",
        "2026-11-08 ビックカメラ　有楽町店 59800",  // 分割, at its full amount
        "2026-11-12 ＡＭＡＺＯＮ．ＣＯ．ＪＰ -1200",
        "2026-11-21 ﾕﾆｸﾛ ｼﾌﾞﾔ 3990",
        "2026-11-27 本 1500",  // typed; the Vpass row 紀伊國屋書店 was decided the same purchase
        "2026-11-27 ﾔﾁﾝ ﾄｳ 50550",
    ].sorted()

    @Test func aWholeMonthOfTypedItemsAndFiveStatementsLandsEachPurchaseOnce() async throws {
        let home = try TemporaryDirectory(), partner = try TemporaryDirectory()
        defer { home.remove(); partner.remove() }
        let files = [
            try CLIImportFilesTests.write(Self.vpass, "vpass-202611.csv", in: home, encoding: "cp932"),
            try CLIImportFilesTests.write(Self.rakuten, "enavi202611.csv", in: home),
            try CLIImportFilesTests.write(Self.payPay, "Transactions_20261130.csv", in: home, encoding: "cp932"),
            try CLIImportFilesTests.write(Self.yucho, "yucho-202611.csv", in: home, encoding: "cp932"),
            try CLIImportFilesTests.write(Self.mufg, "mufg-202611.csv", in: home, encoding: "cp932"),
        ]
        let (vpass, rakuten, payPay, yucho, mufg) = (files[0], files[1], files[2], files[3], files[4])
        try await withScriptHost { host in
            let env = host.environment(home: home), app = host.environment(home: partner)
            // The partner types in the app; the household's own `add` with a generic name.
            #expect(
                try await CLI.run(["add", "まいばすけっと", "1280", "-d", "2026-11-02", "-c", "0"], environment: app).status
                    == 0)
            #expect(
                try await CLI.run(["add", "本", "1500", "-d", "2026-11-27", "-c", "1"], environment: env).status == 0)

            // A day offline: the PayPay history waits in the outbox; meanwhile the partner types one of its purchases.
            let offline = try await CLI.run(
                ["import", payPay], environment: try Samples.offlineEnvironment(home: home))
            #expect(offline.status == 75, "\(offline.stderr)")
            #expect(
                try await CLI.run(["add", "すき家", "880", "-d", "2026-11-02", "-c", "0"], environment: app).status == 0)
            let sync = try await CLI.run(["sync"], environment: env)
            #expect(sync.status == 0, "\(sync.stderr)")

            // Both cards at once; the held 紀伊國屋 row is the book typed the day before.
            let cards = try await CLI.run(["import", vpass, rakuten], environment: env)
            #expect(cards.status == 4, "the generic name is held: \(cards.stderr)")
            let decided = try await CLI.run(["import", vpass, rakuten, "--ambiguous", "same"], environment: env)
            #expect(decided.status == 0, "\(decided.stderr)")
            // The banks: only their spending, the transfers left out.
            let banks = try await CLI.run(["import", yucho, mufg], environment: env)
            #expect(banks.status == 0, "\(banks.stderr)")
            #expect(
                banks.stderr.contains(
                    "Rows: 4 added, 6 transfers between your own accounts (not spending), 1 left out by the profile."),
                "\(banks.stderr)")

            // A purchase disputed and deleted stays deleted.
            let deleted = try await CLI.run(
                ["delete", "ファミリーマート", "--from", "2026-11-01", "--to", "2026-11-30", "--yes"], environment: env)
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(try await Self.month(host) == Self.expected)

            // Every statement again, in one run: nothing more.
            let again = try await CLI.run(["import"] + files, environment: env)
            #expect(again.status == 0 && again.stderr.contains("Nothing to send"), "\(again.stderr)")
            #expect(try await Self.month(host) == Self.expected, "zero doubled, zero lost")
            #expect(try await CLI.run(["pending", "--format", "json"], environment: env).stdout == "[]\n")
        }
    }
}
