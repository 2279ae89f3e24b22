import ExpenseLogClient
import ExpenseLogModel

extension Ledger {
    /// What partners settled, as the bundled script keeps it (its sheet 精算), with its notices.
    public nonisolated func settlements(link: ServerLink) async throws -> (settlements: [Settlement], notices: [String])
    {
        try await link.client.settlements()
    }

    /// Records `settlement` where the next `settle` finds it; every settlement after.
    public nonisolated func record(
        _ settlement: Settlement, link: ServerLink
    ) async throws -> (settlements: [Settlement], notices: [String]) {
        try await link.client.record(settlement)
    }
}
