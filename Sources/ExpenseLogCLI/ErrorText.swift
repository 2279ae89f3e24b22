import ExpenseLogClient
import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogStore
import ExpenseLogUseCases

extension Context {
    /// An error as the person reads it: in Japanese under a Japanese locale, for the errors a household meets (the
    /// server, the network, the disk, the configuration); others as they are.
    func describe(_ error: any Error) -> String {
        guard japanese else { return "\(error)" }
        switch error {
        case let error as APIError: return error.japaneseDescription
        case let error as MonthFailure:
            switch error {
            case .api(let error): return error.japaneseDescription
            case .store(let error): return describe(error)
            case .notCached(let month): return "\(month) はキャッシュにありません"
            }
        case let error as StoreError:
            switch error {
            case let .writeFailed(path, reason):
                return "\(path) に書き込めません: \(reason)。フォルダーの権限と空き容量を確かめてください。そのファイルは元のままです。"
            case let .readFailed(path, reason):
                return "\(path) を読めません: \(reason)。ファイルかフォルダーか、その権限を確かめてください。何も変更していません。"
            case let .changed(path, next):
                return "\(path) がこの実行の途中で変わりました (手で編集しましたか?): \(next)"
            case let .notPrivate(path, owner):
                return "\(path) には家計の支出がありますが、別のアカウント (uid \(owner)) のもので、そのアカウントが読み書きできます。"
                    + "expense-log はここを使いません: 自分のものにする (chown -R) か、EXPENSE_LOG_HOME を自分のフォルダーにしてください。"
                    + "ここでは何も読み書きしていません。"
            }
        case let error as InputError:
            let reasons = [
                "no such file": "ありません", "permission denied": "権限がありません",
                "it is a folder, not a file": "ファイルではなくフォルダーです",
            ]
            return "\(error.path) を読めません: \(reasons[error.reason] ?? error.reason)"
        case let error as ConfigError:
            switch error {
            case let .missingBaseURL(env, configFile):
                return
                    "環境 '\(env.rawValue)' のベース URL が設定されていません。--base-url URL、EXPENSE_LOG_BASE_URL、または \(configFile) で設定するか "
                    + "(`expense-log config init`)、サーバーなしで試すには --env dummy を使ってください。"
            case let .missingConfigFile(path, source):
                return "設定ファイル \(path) (\(source) による) がありません。作るか、\(source) で別の場所を指定してください。"
            default:
                return "\(error)"
            }
        default:
            return "\(error)"
        }
    }

    /// `Error: …` (`エラー: …`), a line of its own.
    func errorLine(_ error: any Error) -> String {
        say("Error", ja: "エラー") + ": " + describe(error) + "\n"
    }
}

extension Context {
    /// A notice the store words about a file it could not read (a cache month moved aside, an outbox entry or a queued
    /// change left in place): in Japanese under a Japanese locale. The store keeps one wording per notice, and these three
    /// are all it has; any other text is shown as it is.
    func describeNotice(_ text: String) -> String {
        guard japanese else { return text }
        let notices: [(Regex<(Substring, Substring, Substring)>, (String, String) -> String)] = [
            (
                #/^the cache file (.+) was unreadable and was moved to (.+); it will be fetched again$/#,
                { "キャッシュのファイル \($0) が読めないため \($1) に移しました。もう一度取得します" }
            ),
            (
                #/^the outbox entry (.+) cannot be read \((.+)\); it was left in place and its items are not sent until it is fixed or moved away$/#,
                { "送信待ちの記録 \($0) を読めません (\($1))。そのままにしてあり、直すか移すまでその項目は送りません" }
            ),
        ]
        for (pattern, japanese) in notices {
            if let match = text.wholeMatch(of: pattern) { return japanese(String(match.1), String(match.2)) }
        }
        if let match = text.wholeMatch(
            of: #/^the queued change (.+?) cannot be read(?: \((.+)\))?; it was left in place, .*$/#)
        {
            return "待っている変更 \(match.1) を読めません" + (match.2.map { " (\($0))" } ?? "")
                + "。そのままにしてあり、直すか移すまで、それと後の変更は送りません"
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
