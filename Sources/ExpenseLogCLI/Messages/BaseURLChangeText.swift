import ExpenseLogConfig
import ExpenseLogHTTP
import ExpenseLogUseCases
import Foundation

/// What `config set baseURL` says of the writes waiting in the environment's queue.
enum BaseURLChangeText {
    /// Writes queued for one server go to whichever the configuration names when `sync` runs: said when the base
    /// URL of an environment with writes waiting changes, since a change of an item only the old server has is
    /// then refused and dropped.
    static func warnOfWaitingWrites(_ before: AppConfig, _ context: Context) throws {
        let after = try context.config()
        guard after.environment.value == before.environment.value, let old = before.baseURL?.value,
            let new = after.baseURL?.value,
            old != new
        else { return }
        let (items, changes) = (try? context.ledger().waitingWrites()) ?? (0, 0)
        guard items + changes > 0 else { return }
        let environment = before.environment.value.rawValue
        let (from, to) = (
            URLRedaction.redacted(URL(string: old) ?? URL(fileURLWithPath: "/")),
            URLRedaction.redacted(URL(string: new) ?? URL(fileURLWithPath: "/"))
        )
        let english =
            "\(items) item\(items == 1 ? "" : "s") and \(changes) change\(changes == 1 ? "" : "s") wait in the "
            + "\(environment) environment's queue, made for \(from); `sync` now sends them to \(to), where a change of an "
            + "item only the old server has is refused and dropped. To send them where they were made, set the old URL "
            + "back and `sync` first (`expense-log pending` lists them)."
        let japanese =
            "\(environment) 環境の送信待ちに項目\(items)件と変更\(changes)件があり、\(from) 向けに作られたものです。"
            + "`sync` はこれらを \(to) に送り、古いサーバーにしかない項目の変更は拒否されて捨てられます。作った先に送るには、"
            + "古い URL に戻して先に `sync` してください (`expense-log pending` で一覧できます)。"
        context.warn(context.say(english, ja: japanese))
    }
}
