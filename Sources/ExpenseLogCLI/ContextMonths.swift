import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// Reading months as `fetch`, `summary` and `report` do.
extension Context {
    /// The months through the ledger, from the server first (as fetch), else the cache; offline needs no base URL, as
    /// `fetch --offline`. Says what the cache and the journal had to say, and that changes not sent are shown made.
    func readMonths(
        _ months: [YearMonth], policy: MonthLoader.Policy, strict: Bool, withWaiting: Bool = false
    ) async throws -> MonthsOutcome {
        let ledger = try ledger()
        let read = await ledger.read(
            months, policy: policy, strict: strict, link: policy == .offline ? nil : try link(),
            withWaiting: withWaiting)
        say(read)
        EditText.noteWaiting(read.changes, in: months, self)
        return read
    }

    /// Says what reading months met on the way: the cache's warnings, and a journal that could not be listed.
    func say(_ read: MonthsOutcome) {
        for warning in read.cacheWarnings { warn(describeNotice(warning)) }
        if let failure = read.journalFailure { EditText.warnUnlisted(failure, self) }
    }
}
