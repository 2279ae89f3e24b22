import ExpenseLogImport
import ExpenseLogModel

/// How `register`'s check settles a statement row that names a fixed cost near its day (`RecurringRows`): matched to
/// the occurrence already there, sent as the occurrence, or held (another amount) unless a person decides.
extension DuplicateCheck {
    /// The fate of the statement row `row` that `found` says names a fixed cost (a person decides a held one).
    func settleFixedCost(
        _ found: RecurringRows.Fate, row: Int, item: Item, finder: DuplicateFinder, recurring: RecurringRows,
        today: Day,
        deciding: RowDecision.Source, decide: (HeldRow) async throws -> HeldChoice?, report: ImportRecord,
        fates: inout [Int: Fate], decisions: inout [String: RowDecision]
    ) async throws {
        switch found {
        case let .paid(occurrence, holder):
            fates[row] = .matched(
                holder,
                reason: "the fixed cost \(occurrence.rule.name) of \(occurrence.month), already there as "
                    + "\(Self.describe(holder.item)) \(Self.place(holder))",
                japanese: "\(occurrence.month) の固定費「\(occurrence.rule.name)」: "
                    + "\(Self.describe(holder.item)) (\(Self.japanesePlace(holder))) として登録済み")
            decisions[item.id] = RowDecision(.same, item: holder.item.id, by: .rule, on: today.description)
        case .pays(_, let paying):
            fates[row] = .pays(paying)
        case .feeChanged(let occurrence):
            let posted = finder.item(withID: occurrence.id)
            let choice = try await decide(
                HeldRow(
                    location: report.location(ofRow: row), item: item,
                    candidates: [posted ?? KnownItem(item: occurrence.item, place: .server)]))
            switch choice {
            case nil: fates[row] = .feeChanged(occurrence)
            case .same?:
                // This payment is the occurrence, at the amount the statement shows.
                fates[row] =
                    posted.map {
                        .matched(
                            $0,
                            reason: "decided \(Self.who(deciding)): the fixed cost "
                                + "\(occurrence.rule.name) of \(occurrence.month)",
                            japanese: "\(Self.japaneseWho(deciding))決定: "
                                + "\(occurrence.month) の固定費「\(occurrence.rule.name)」")
                    }
                    ?? .pays(recurring.paying(occurrence, with: item))
                decisions[item.id] = RowDecision(
                    .same, item: occurrence.id, by: deciding, on: today.description)
            case let other?:
                settle(
                    row, item, other, candidates: [], what: ("", ""), deciding: deciding, today: today,
                    fates: &fates, decisions: &decisions)
            }
        }
    }

    /// Why a row naming a fixed cost near its day with another amount is held, and what a person can do.
    static func feeChange(_ occurrence: RecurringOccurrence, _ row: Item, _ posted: KnownItem?) -> String {
        let rule = occurrence.rule
        let expected = rule.aboutText ?? PriceText.yen(rule.price)
        return "it names the fixed cost \(PrintableText.of(rule.name)) (\(expected), due \(occurrence.date)) but is "
            + "\(PriceText.yen(row.price)): if the fee changed, `expense-log recurring edit \(PrintableText.of(rule.name)) "
            + "--price \(row.price)` and register again"
            + (posted.map {
                " (\(occurrence.month)'s was posted at \(PriceText.yen($0.item.price)): `expense-log edit "
                    + "\($0.item.id.prefix(8)) --price \(row.price)`)"
            } ?? "")
            + "; if it is a payment of its own, --ambiguous new"
    }
}
