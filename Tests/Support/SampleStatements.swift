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
}
