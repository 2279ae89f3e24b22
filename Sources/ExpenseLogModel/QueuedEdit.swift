import Foundation

/// A change to items already on the server (the bundled web app's `delete` or `update`), as queued for sending.
public struct QueuedEdit: Sendable, Equatable {
    /// What the change does.
    public enum Change: Sendable, Equatable {
        /// Deletes these items, as the cache held them (their dates name their sheets).
        case delete([Item])
        /// Changes `item` to `changed`, sending only `fields`, so another machine's change to another field is kept.
        case update(item: Item, changed: Item, fields: Set<ItemField>)
    }

    /// The change.
    public let change: Change
    /// When it was queued.
    public let queuedAt: Date
    /// The file it waits in.
    public let file: URL

    /// A change as queued in a file.
    public init(change: Change, queuedAt: Date, file: URL) {
        (self.change, self.queuedAt, self.file) = (change, queuedAt, file)
    }

    /// The ids of the items it touches.
    public var ids: [String] {
        switch change {
        case .delete(let items): items.map(\.id)
        case .update(let item, _, _): [item.id]
        }
    }

    /// Whether it is a deletion.
    public var isDelete: Bool {
        if case .delete = change { true } else { false }
    }

    /// The months it touches, oldest first: an update's old and new.
    public var months: [YearMonth] {
        switch change {
        case .delete(let items): Set(items.map(\.date.yearMonth)).sorted()
        case let .update(item, changed, _): Set([item.date.yearMonth, changed.date.yearMonth]).sorted()
        }
    }
}

extension QueuedEdit.Change {
    /// `base` with the fields this update sends taken from its changed item; `base` itself for a deletion.
    public func applying(to base: Item) -> Item {
        guard case let .update(_, changed, fields) = self else { return base }
        return Item(
            id: base.id, date: fields.contains(.date) ? changed.date : base.date,
            name: fields.contains(.name) ? changed.name : base.name,
            price: fields.contains(.price) ? changed.price : base.price,
            category: fields.contains(.category) ? changed.category : base.category,
            categorySub: fields.contains(.categorySub) ? changed.categorySub : base.categorySub,
            payer: changesShare ? changed.payer : base.payer, personal: changesShare ? changed.personal : base.personal,
            shared: changesShare ? changed.shared : base.shared)
    }

    /// Whether an update changes who paid or whether the item is one person's own (`edit --payer`, `--personal`).
    public var changesShare: Bool {
        guard case let .update(item, changed, _) = self else { return false }
        return item.payer != changed.payer || item.personal != changed.personal || item.shared != changed.shared
    }
}

extension [QueuedEdit] {
    /// A month's items as the server answered them, with these queued changes made in order: deleted items gone, edited
    /// ones changed in the fields the edit sends, an item moved in added and one moved out removed. The cache holds
    /// a month so, as it does right after a change is queued, so a refetch does not bring back what was deleted.
    public func applied(to items: [Item], in month: YearMonth) -> [Item] {
        applied(to: items) { item, changed, fields in
            // An item the month lacks comes in only when the edit moves it here from another month.
            fields.contains(.date) && item.date.yearMonth != month && changed.date.yearMonth == month
        }.filter { $0.date.yearMonth == month }
    }

    /// Items of any months (the whole cache) with these changes made: what an item is once the queue is sent. An
    /// edited item the items lack is taken as the edit left it.
    public func applied(to items: [Item]) -> [Item] {
        applied(to: items) { _, _, _ in true }
    }

    private func applied(to items: [Item], bringsIn: (Item, Item, Set<ItemField>) -> Bool) -> [Item] {
        var items = items
        for edit in self {
            switch edit.change {
            case .delete(let gone):
                let ids = Set(gone.map(\.id))
                items.removeAll { ids.contains($0.id) }
            case let .update(item, changed, fields):
                if let index = items.firstIndex(where: { $0.id == item.id }) {
                    items[index] = edit.change.applying(to: items[index])
                } else if bringsIn(item, changed, fields) {
                    items.append(edit.change.applying(to: changed))
                }
            }
        }
        return items
    }
}
