import ExpenseLogModel
import ExpenseLogUseCases

/// `summary` counts the items still waiting in the outbox with their months (as `fetch` shows them), so that a month
/// and its budgets are not undercounted while the server is down; `--sent-only` counts only what the server has.
enum WaitingCount {
    /// The months with their waiting items counted (read with them, the changes queued for them laid over them); says
    /// how many.
    static func counted(_ loaded: [LoadedMonth], waiting: [Item], _ context: Context) -> [LoadedMonth] {
        let counted = loaded.map { $0.counting(waiting) }
        let added = zip(counted, loaded).reduce(0) { $0 + $1.0.items.count - $1.1.items.count }
        if added > 0 {
            context.note(
                context.say(
                    "\(added) item\(added == 1 ? "" : "s") still waiting in the outbox \(added == 1 ? "is" : "are") counted; "
                        + "`expense-log sync` sends \(added == 1 ? "it" : "them") (--sent-only counts only what the server has).",
                    ja: "送信待ちの\(added)件も数えています。`expense-log sync` で送ります (--sent-only でサーバーにある分だけ数えます)。"))
        }
        return counted
    }
}
