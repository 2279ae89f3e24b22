import ExpenseLogUseCases
import Foundation

extension Context {
    /// Says what the ledger did on its own, or noticed: notes on stderr, a warning for the token sent in the clear.
    func tell(_ notice: LedgerNotice) {
        switch notice {
        case let .legacyCacheMoved(moved, legacy, cache):
            note(
                "The cache is now kept per server (\(cache.path)). \(moved) month\(moved == 1 ? "" : "s") "
                    + "cached before, from an unknown server, \(moved == 1 ? "was" : "were") moved to \(legacy.path) and "
                    + "\(moved == 1 ? "is" : "are") not used; delete that folder when you like. The outbox is untouched."
            )
        case let .journalMoved(moved, journal):
            note(
                say(
                    "\(moved) waiting write\(moved == 1 ? " was" : "s were") moved into \(journal.path), where "
                        + "items, edits and deletions now wait together in the order they were made.",
                    ja: "送信待ち\(moved)件を \(journal.path) に移しました。項目・変更・削除は作った順にここで待ちます。"))
        case .journalNotMoved(let error):
            warn(
                describe(error)
                    + say(
                        "; what an earlier version queued stays where it is, not sent, until a later run moves it",
                        ja: "。以前のバージョンが送信待ちにしたものはそのまま残り、後の実行で移すまで送りません"))
        case let .recurringRulesMoved(moved, file, server):
            note(
                say(
                    "\(server.host ?? "The server") now keeps the fixed costs: \(moved) rule\(moved == 1 ? "" : "s") kept "
                        + "in \(file.path) \(moved == 1 ? "was" : "were") moved up to it, for every machine to see.",
                    ja: "固定費は \(server.host ?? "サーバー") が保存するようになりました。\(file.path) の\(moved)件を移しました。"))
        case .tokenOverPlainHTTP(let host):
            warn(
                say(
                    "the token is sent over plain http:// to \(host), unencrypted; use https://",
                    ja: "トークンを暗号化されない http:// で \(host) に送ります。https:// を使ってください"))
        }
    }
}
