import ExpenseLogHTTP

extension APIError {
    /// The message in Japanese, for a Japanese locale; what the server said is quoted as it came.
    public var japaneseDescription: String {
        switch self {
        case let .network(url, reason):
            return "\(URLRedaction.redacted(url)) に届きません: \(reason.japaneseDescription)"
        case let .httpStatus(url, status, snippet) where status == 401 || status == 403:
            return
                "\(URLRedaction.redacted(url)) が HTTP \(status) を返しました (\(status == 401 ? "認証されていません" : "禁止されています"))。"
                + "ウェブアプリが使っているアカウントで公開されているか、トークンが正しいか確かめてください。" + APIError.quote(snippet)
        case let .httpStatus(url, status, snippet):
            let hint = status >= 500 ? "サーバーの失敗です。あとでもう一度試してください。" : "ベース URL とリクエストを確かめてください。"
            return "\(URLRedaction.redacted(url)) が HTTP \(status) を返しました。\(hint)" + APIError.quote(snippet)
        case let .invalidResponse(url, status, reason, snippet):
            return "\(URLRedaction.redacted(url)) が HTTP \(status) を返しましたが、想定した応答ではありません (\(reason))。"
                + APIError.quote(snippet)
        case let .answerTooLarge(url, limit):
            return "\(URLRedaction.redacted(url)) の応答が \(limit >> 20) MiB を超えたため途中で切りました。ウェブアプリの応答ではありません "
                + "(URL を確かめてください)。本当にそうなら設定ファイルの \"maxAnswerMiB\" を大きくしてください。"
        case let .fixtureUnreadable(path, reason):
            return "ダミーのフィクスチャ \(path) が使えません (\(reason))。--fixtures か EXPENSE_LOG_FIXTURES で fetch.json と "
                + "register.json のあるフォルダーを指定してください。"
        case let .scriptRefused(url, kind, message) where kind == "unauthorized":
            return "\(URLRedaction.redacted(url)) がリクエストを拒否しました: \(message)。ウェブアプリのスクリプトプロパティ EXPENSE_LOG_KEY と、"
                + "ベース URL 末尾のキー (…/exec/***) やここで設定したトークンを同じにしてください (`expense-log config set-token`)"
        case let .scriptRefused(url, kind, message) where kind == "unavailable":
            return "\(URLRedaction.redacted(url)) が完了しませんでした: ウェブアプリのスクリプトの下で Google のサービスが失敗しました (\(message))。"
                + "それまでの処理は残っており、もう一度送っても安全です"
        case let .scriptRefused(url, kind, message):
            return "\(URLRedaction.redacted(url)) がリクエストを拒否しました (\(kind)): \(message)"
        case let .scriptStopped(url, message):
            return "\(URLRedaction.redacted(url)) が完了しませんでした: Apps Script がウェブアプリのスクリプトを止めました (\(message))。"
                + "それまでの処理は残っており、もう一度送っても安全です"
        case let .invalidMonth(year, month):
            return "\(year)-\(month) は月ではありません (年は4桁、月は1〜12)。何も送信していません。"
        }
    }
}
