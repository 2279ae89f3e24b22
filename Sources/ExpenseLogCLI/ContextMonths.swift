import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// Reading months as `fetch`, `summary` and `report` do.
extension Context {
    /// The months, from the server first (as fetch), else the cache; offline needs no base URL, as `fetch --offline`.
    func loadMonths(
        _ months: [YearMonth], policy: MonthLoader.Policy, _ config: AppConfig, strict: Bool
    ) async throws -> [LoadedMonth] {
        let repository = try ledger().repository
        let client = policy == .offline ? nil : try client()
        let edits = EditText.waiting(self, config)
        let loaded = await MonthLoader(client: client, repository: repository, strict: strict, edits: edits).load(
            months, policy: policy)
        await flushWarnings(repository)
        EditText.noteWaiting(edits, in: months, self)
        return loaded
    }
}
