/// Files people import, as rows for a writer in the test (Python's csv module) to write in the bank's encoding.
public enum SampleStatements {
    /// A bank statement as the bank exports it (CP932 in real life): two rows before the header, a deposit with an
    /// empty お引出し, Excel's date-times, names in half-width kana.
    public static let bank: [[String]] = [
        ["普通預金 入出金明細"],
        ["口座番号", "1234567"],
        ["年月日", "お引出し", "お預入れ", "お取り扱い内容", "残高"],
        ["2026/11/3 0:00", "178", "", "ｺｰﾋｰ ﾄﾞﾄｰﾙ", "99,822"],
        ["2026/11/3 0:00", "", "250,000", "ｷｭｳﾖ", "349,822"],
        ["2026/11/4 0:00", "598", "", "ｾﾌﾞﾝｲﾚﾌﾞﾝ", "349,224"],
        ["2026/11/5 0:00", "178", "", "ｺｰﾋｰ ﾄﾞﾄｰﾙ", "349,046"],
        ["2026/11/6 0:00", "1,200", "", "ﾗﾝﾁ ｻｸﾗ", "347,846"],
    ]

    /// 三井住友カード's Vpass statement of November 2026, as vpass-csv-converter documents the layout (CP932, no header):
    /// a card-holder row opening each card's section (again for iD), a waived annual fee of 0 yen, a refund, a 3-times
    /// instalment (分割) at its full amount, a foreign purchase in yen with the dollars in 備考, and two total rows.
    public static let vpassNovember: [[String]] = [
        ["山田　太郎　様", "4980-00**-****-1234", "三井住友カード（ＮＬ）"],
        ["2026/11/01", "セブン－イレブン　中目黒店", "498", "１", "１", "498", ""],
        ["2026/11/03", "ＡＭＡＺＯＮ．ＣＯ．ＪＰ", "3980", "１", "１", "3980", ""],
        ["2026/11/05", "年会費", "0", "１", "１", "0", ""],
        ["2026/11/08", "ビックカメラ　有楽町店", "59800", "分割", "1/3", "19934", ""],
        ["2026/11/12", "ＡＭＡＺＯＮ．ＣＯ．ＪＰ", "-1200", "１", "１", "-1200", "返品"],
        ["2026/11/15", "ＳＴＥＡＭ　ＧＡＭＥＳ", "2450", "１", "１", "2450", "15.99　USD　153.22"],
        ["山田　太郎　様", "4980-00**-****-1234", "ｉＤ"],
        ["2026/11/20", "ファミリーマート／ｉＤ", "340", "１", "１", "340", "ﾌｱﾐﾘ-ﾏ-ﾄ/ID"],
        ["", "", "", "", "", "25192"],
        ["", "", "", "", "", "25192", ""],
    ]

    /// December's statement: the instalment's second row (the same purchase), and new purchases at known shops.
    public static let vpassDecember: [[String]] = [
        ["山田　太郎　様", "4980-00**-****-1234", "三井住友カード（ＮＬ）"],
        ["2026/11/08", "ビックカメラ　有楽町店", "59800", "分割", "2/3", "19933", ""],
        ["2026/12/02", "ビックカメラ　池袋店", "1280", "１", "１", "1280", ""],
        ["2026/12/03", "セブン－イレブン　目黒店", "220", "１", "１", "220", ""],
        ["", "", "", "", "", "21433", ""],
    ]

    /// 楽天カード's e-NAVI statement (as public importers document it): two titles that name months, half-width kana,
    /// a 分割 purchase at its full amount, and an adjustment row with no date.
    public static let rakutenCard: [[String]] = [
        ["利用日", "利用店名・商品名", "利用者", "支払方法", "利用金額", "支払手数料", "支払総額", "12月支払金額", "1月繰越残高", "新規サイン"],
        ["2026/11/02", "ﾏｲﾊﾞｽｹｯﾄ ﾅｶﾒｸﾞﾛ", "本人", "1回払い", "1280", "0", "1280", "1280", "0", "*"],
        ["2026/11/09", "ﾗｸﾃﾝｲﾁﾊﾞ", "家族", "分割3回", "12000", "0", "12000", "4000", "8000", "*"],
        ["", "ポイント利用分", "", "", "-100", "", "-100", "-100", "", ""],
        ["2026/11/21", "ﾕﾆｸﾛ ｼﾌﾞﾔ", "本人", "1回払い", "3990", "0", "3990", "3990", "0", "*"],
    ]

    /// PayPay's 取引履歴 (as public converters document it): `-` where there is no amount, a charge, money sent, a
    /// refund coming back as a deposit, and a payment with points and balance together.
    public static let payPay: [[String]] = [
        ["取引日", "出金金額（円）", "入金金額（円）", "海外出金金額", "通貨", "変換レート（円）", "利用国", "取引内容", "取引先", "取引方法",
         "支払い区分", "利用者", "取引番号"],
        ["2026/11/01 08:12:30", "-", "5,000", "-", "-", "-", "-", "チャージ", "セブン銀行", "セブン銀行ATM", "-", "-", "04000000000000000001"],
        ["2026/11/02 12:40:05", "880", "-", "-", "-", "-", "-", "支払い", "すき家 中目黒店", "PayPay残高", "-", "-", "04000000000000000002"],
        ["2026/11/03 19:00:00", "1,000", "-", "-", "-", "-", "-", "送金", "山田 花子", "PayPay残高", "-", "-", "04000000000000000003"],
        ["2026/11/04 10:10:10", "2,599", "-", "-", "-", "-", "-", "支払い", "ドラッグストア マツモトキヨシ", "PayPayポイント (1円), PayPay残高 (2,598円)",
         "-", "-", "04000000000000000004"],
        ["2026/11/05 09:00:00", "-", "880", "-", "-", "-", "-", "返金", "すき家 中目黒店", "PayPay残高", "-", "-", "04000000000000000005"],
    ]
}

