import ExpenseLogImport
import ExpenseLogUseCases

extension Context {
    /// An error as the person reads it: in Japanese under a Japanese locale, for the errors a household meets
    /// (`FailureText`); others as they are.
    func describe(_ error: any Error) -> String {
        FailureText.describe(error, japanese: japanese)
    }

    /// `Error: …` (`エラー: …`), a line of its own.
    func errorLine(_ error: any Error) -> String {
        say("Error", ja: "エラー") + ": " + describe(error) + "\n"
    }
}

extension Context {
    /// A notice the store words about a file it could not read (a cache month moved aside, a journal entry left in
    /// place): in Japanese under a Japanese locale. The store keeps one wording per notice, and these two are all it
    /// has; any other text is shown as it is.
    func describeNotice(_ text: String) -> String {
        guard japanese else { return text }
        let notices: [(Regex<(Substring, Substring, Substring)>, (String, String) -> String)] = [
            (
                #/^the cache file (.+) was unreadable and was moved to (.+); it will be fetched again$/#,
                { "キャッシュのファイル \($0) が読めないため \($1) に移しました。もう一度取得します" }
            ),
            (
                #/^the journal entry (.+) cannot be read \((.+)\); it was left in place, and neither what it holds nor the changes made after it are sent until it is fixed or moved away$/#,
                {
                    "送信待ちの記録 \($0) を読めません (\($1))。そのままにしてあり、直すか移すまで、"
                        + "その中身もその後に作った変更も送りません"
                }
            ),
        ]
        for (pattern, japanese) in notices {
            if let match = text.wholeMatch(of: pattern) { return japanese(String(match.1), String(match.2)) }
        }
        return text
    }
}

extension Context {
    /// The reasons the built-in profiles give their `transfers` and `skip` rules, in Japanese (a profile file's own
    /// reasons are its author's words, shown as written).
    public static let builtinReasons = [
        "a card's bill: the card's own statement has its purchases": "カードの引き落とし: 買い物はカードの明細にあります",
        "a top-up of PayPay 残高 (チャージ): the money's spending is the payments": "PayPay 残高へのチャージ: 支出はその支払いです",
        "a transfer between your own accounts (振替)": "自分の口座間の振替",
        "a wallet's top-up: the wallet's own statement has its purchases": "電子マネーへのチャージ: 買い物はその明細にあります",
        "cash from an ATM (カード): what the cash buys is the spending": "ATM での引き出し (カード): 支出はその現金で買ったものです",
        "cash from an ATM: what the cash buys is the spending": "ATM での引き出し: 支出はその現金で買ったものです",
        "income (収入)": "収入",
        "money received (受け取り)": "受け取ったお金 (受け取り)",
        "money sent to a person (送金)": "人への送金",
        "not counted (計算対象 is 0)": "計算の対象外 (計算対象が0)",
        "points (ポイント)": "ポイント",
    ]

    /// Why a row was left out, in the person's language where the tool or a built-in profile worded it.
    func reason(_ row: ExcludedRow) -> String {
        guard japanese else { return row.reason }
        return row.japaneseReason ?? Self.builtinReasons[row.reason] ?? row.reason
    }
}
