extension NetworkFailure {
    /// The message in Japanese, for a Japanese locale.
    public var japaneseDescription: String {
        switch self {
        case .refused: return "接続を拒否されました (サーバーが動いているか、URL が正しいか確かめてください)"
        case .timedOut: return "時間内に応答がありません (もう一度試すか、--timeout を長くしてください)"
        case .hostNotFound: return "ホスト名を解決できません (URL と DNS を確かめてください)"
        case .lookupTimedOut: return "時間内にホスト名を解決できません (DNS を確かめるか、--timeout を長くしてください)"
        case .offline: return "この機械はネットワークにつながっていません"
        case .connectionLost: return "応答の途中で接続が切れました"
        case .tls(let detail): return "安全な接続に失敗しました: \(detail)"
        case .redirect(let detail): return "リダイレクトをたどれません: \(detail)"
        case .other(let detail): return detail
        }
    }
}
