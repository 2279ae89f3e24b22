import ExpenseLogModel
import ExpenseLogUseCases

/// The fixed costs a month still expects (`recurring`): found from the rules this machine knows, counted by a forecast
/// (`summary --forecast`, a future month) and named on stderr, or only named.
enum ExpectedCosts {
    /// The occurrences still expected in the months read (this month on), none held by their items or the waiting ones.
    static func find(_ loaded: [LoadedMonth], waiting: [Item], _ context: Context) -> [RecurringOccurrence] {
        guard let ledger = try? context.ledger() else { return [] }
        let rules = ledger.knownRules()
        guard !rules.isEmpty else { return [] }
        let months = loaded.filter { $0.missing == nil }.map(\.month)
        // One deleted here is not expected: `recurring post` will not bring it back.
        let deleted = ledger.deletedIDs()
        return RecurringOccurrence.expected(
            rules, in: months, among: loaded.flatMap(\.items) + waiting, from: context.today.yearMonth
        ).filter { !deleted.contains($0.id) }
    }

    /// The months with their expected occurrences counted, and said so.
    static func counted(
        _ loaded: [LoadedMonth], _ expected: [RecurringOccurrence], _ context: Context
    ) -> [LoadedMonth] {
        guard !expected.isEmpty else { return loaded }
        say(expected, counted: true, context)
        return loaded.map { $0.counting(expected.map(\.item)) }
    }

    /// Names the expected occurrences on stderr: counted (a forecast) or not.
    static func say(_ expected: [RecurringOccurrence], counted: Bool, _ context: Context) {
        guard !expected.isEmpty else { return }
        let total = PriceText.yen(expected.reduce(0) { $0 + $1.rule.price })
        let shown = expected.prefix(6).map {
            "\($0.date) \(PrintableText.of($0.rule.name)) \(PriceText.yen($0.rule.price))"
        }
        let list =
            shown.joined(separator: ", ")
            + (expected.count > shown.count
                ? context.say(" and \(expected.count - shown.count) more", ja: " ほか\(expected.count - shown.count)件")
                : "")
        let count = expected.count
        context.note(
            counted
                ? context.say(
                    "Counted \(count) expected fixed cost\(count == 1 ? "" : "s") not yet registered (\(total)): \(list).",
                    ja: "まだ登録されていない固定費の予定\(count)件 (\(total)) を数えています: \(list)。")
                : context.say(
                    "Expected, not yet registered (not counted; --forecast counts \(count == 1 ? "it" : "them"), "
                        + "`expense-log recurring post` registers \(count == 1 ? "it" : "them") when due): \(list).",
                    ja: "まだ登録されていない固定費の予定 (数えていません。--forecast で数え、"
                        + "`expense-log recurring post` で期日に登録します): \(list)。"))
    }
}
