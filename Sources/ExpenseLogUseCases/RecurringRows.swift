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

    /// The ids of every rule's occurrences in the months around `occurrence`'s but its own: items that are them hold
    /// no other.
    func otherOccurrences(than occurrence: RecurringOccurrence) -> Set<String> {
        let months = [occurrence.month.previous, occurrence.month, occurrence.month.next]
        return Set(rules.flatMap { rule in months.compactMap { rule.occurrence(in: $0)?.id } }).subtracting([
            occurrence.id
        ])
    }

    /// A posted occurrence (`recurring post`) a person or a statement already brought under another id.
    func typedHolder(of item: Item, among known: [KnownItem]) -> (RecurringOccurrence, KnownItem)? {
        guard let occurrence = occurrence(withID: item.id, near: item.date),
            let holder = occurrence.holder(
                among: known.map(\.item), window: window, others: otherOccurrences(than: occurrence)),
            let found = known.first(where: { $0.item.id == holder.id })
        else { return nil }
        return (occurrence, found)
    }

    /// What a statement row is to the fixed costs, or nil when it names none near its day; `claimed` holds the
    /// occurrences earlier rows of the run took (a second row for one is a payment of its own). Of the occurrences
    /// near its day whose rule it names, the row is one with exactly its amount first, then one whose range holds it,
    /// the closest day first: two rules a bank names alike (ﾄﾞｺﾓ for the phone and the fibre) each get their own row.
    func fate(
        ofStatementRow item: Item, finder: DuplicateFinder, claimed: inout Set<String>
    ) -> Fate? {
        func rank(_ occurrence: RecurringOccurrence) -> Int {
            occurrence.rule.price == item.price ? 0 : occurrence.rule.accepts(price: item.price) ? 1 : 2
        }
        var near: [(occurrence: RecurringOccurrence, days: Int)] = []
        for rule in rules where rule.relates(to: item.name) {
            for month in [item.date.yearMonth.previous, item.date.yearMonth, item.date.yearMonth.next] {
                guard let occurrence = rule.occurrence(in: month) else { continue }
                let days = abs(occurrence.date.daysSinceEpoch - item.date.daysSinceEpoch)
                if days <= window { near.append((occurrence, days)) }
            }
        }
        near.sort {
            (rank($0.occurrence), $0.days, $0.occurrence.id) < (rank($1.occurrence), $1.days, $1.occurrence.id)
        }
        guard let closest = near.first?.occurrence else { return nil }
        for (occurrence, _) in near where rank(occurrence) < 2 && !claimed.contains(occurrence.id) {
            claimed.insert(occurrence.id)
            if let posted = finder.item(withID: occurrence.id) { return .paid(occurrence, by: posted) }
            if let holder = occurrence.holder(
                among: finder.known.map(\.item), window: window, others: otherOccurrences(than: occurrence)),
                let found = finder.item(withID: holder.id)
            {
                return .paid(occurrence, by: found)
            }
            return .pays(occurrence, paying(occurrence, with: item))
        }
        // Its amount is a rule's, but earlier rows took each such occurrence: a payment of its own.
        return rank(closest) < 2 ? nil : .feeChanged(closest)
    }

    /// The item a row paying `occurrence` is sent as: the occurrence's id, name and category, the row's amount, and its
    /// day within the occurrence's month (February's rent debited on March 1st is February's, on the 28th: the server
    /// keeps an id once a month's sheet, so the occurrence must stay in its month).
    func paying(_ occurrence: RecurringOccurrence, with row: Item) -> Item {
        let month = occurrence.month
        let date = row.date < month.firstDay ? month.firstDay : row.date > month.lastDay ? month.lastDay : row.date
        return Item(
            id: occurrence.id, date: date, name: occurrence.rule.name, price: row.price,
            category: occurrence.rule.category, categorySub: occurrence.rule.categorySub, payer: row.payer,
            personal: row.personal, shared: row.shared)
    }
}
