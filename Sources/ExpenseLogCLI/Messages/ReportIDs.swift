import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogUseCases

/// The ids a month's report page shows: each item's short id (unique among every cached and waiting item, as `edit`
/// and `delete` search them) and which items still wait in the outbox.
enum ReportIDs {
    /// Short ids by id, and the ids of the period's items still waiting (`waiting`, read once for the count too).
    static func of(
        waiting items: [Item], _ context: Context, _ config: AppConfig
    ) async -> (short: [String: String], waiting: Set<String>) {
        let waiting = items.map(\.id)
        var cached: [String] = []
        if let ledger = try? context.ledger() {
            cached = await ledger.cachedItems().map(\.id)
        }
        return (EditTargets.shortIDs(cached + waiting), Set(waiting))
    }
}
