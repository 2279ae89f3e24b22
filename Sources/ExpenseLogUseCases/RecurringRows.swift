import ExpenseLogImport
import ExpenseLogModel

/// How `register` meets the household's fixed costs: an occurrence `recurring post` registers is not sent when a
/// person already typed it, and a statement row that pays an occurrence is that occurrence (registered once, under the
/// occurrence's id, whoever brings it first), or held for a person when its amount is not the rule's (a raised fee).
struct RecurringRows: Sendable {
    /// The rules.
    let rules: [RecurringRule]
    /// The most days a row may be from the occurrence's day.
    let window: Int

    /// What a row is to the fixed costs.
    enum Fate {
        /// The occurrence is already there, as this item: the row is not sent.
        case paid(RecurringOccurrence, by: KnownItem)
        /// The row pays this occurrence, not yet there: it is sent as the occurrence (its id, the rule's name and
        /// category, the row's day and amount).
        case pays(RecurringOccurrence, Item)
        /// The row names the rule near its day, but its amount is not the rule's: a person decides.
        case feeChanged(RecurringOccurrence)
    }

    /// The occurrence whose id `id` is, among the months `id`'s item may fall in.
    func occurrence(withID id: String, near day: Day) -> RecurringOccurrence? {
        for rule in rules {
            for month in [day.yearMonth, day.yearMonth.previous, day.yearMonth.next] {
                if let occurrence = rule.occurrence(in: month), occurrence.id == id { return occurrence }
            }
        }
        return nil
    }

    /// A posted occurrence (`recurring post`) a person or a statement already brought under another id.
    func typedHolder(of item: Item, among known: [KnownItem]) -> (RecurringOccurrence, KnownItem)? {
        guard let occurrence = occurrence(withID: item.id, near: item.date),
            let holder = occurrence.holder(among: known.map(\.item), window: window),
            let found = known.first(where: { $0.item.id == holder.id })
        else { return nil }
        return (occurrence, found)
    }

    /// What a statement row is to the fixed costs, or nil when it names none near its day; `claimed` holds the
    /// occurrences earlier rows of the run paid (a second row for one is a payment of its own).
    func fate(
        ofStatementRow item: Item, finder: DuplicateFinder, claimed: inout Set<String>
    ) -> Fate? {
        var nearest: RecurringOccurrence?
        var distance = Int.max
        for rule in rules where rule.relates(to: item.name) {
            for month in [item.date.yearMonth.previous, item.date.yearMonth, item.date.yearMonth.next] {
                guard let occurrence = rule.occurrence(in: month) else { continue }
                let days = abs(occurrence.date.daysSinceEpoch - item.date.daysSinceEpoch)
                // The closest occurrence; at a tie, the one whose amount the row has.
                if days <= window,
                    days < distance
                        || (days == distance && rule.accepts(price: item.price)
                            && nearest?.rule.accepts(price: item.price) != true)
                {
                    (nearest, distance) = (occurrence, days)
                }
            }
        }
        guard let occurrence = nearest else { return nil }
        guard occurrence.rule.accepts(price: item.price) else { return .feeChanged(occurrence) }
        if let posted = finder.item(withID: occurrence.id) { return .paid(occurrence, by: posted) }
        if let holder = occurrence.holder(among: finder.known.map(\.item), window: window),
            let found = finder.item(withID: holder.id)
        {
            return .paid(occurrence, by: found)
        }
        guard claimed.insert(occurrence.id).inserted else { return nil }
        return .pays(occurrence, paying(occurrence, with: item))
    }

    /// The item a row paying `occurrence` is sent as: the occurrence's id, name and category, the row's day and amount.
    func paying(_ occurrence: RecurringOccurrence, with row: Item) -> Item {
        Item(
            id: occurrence.id, date: row.date, name: occurrence.rule.name, price: row.price,
            category: occurrence.rule.category, categorySub: occurrence.rule.categorySub)
    }
}
