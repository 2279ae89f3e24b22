/// What printed items are ordered by.
public enum ItemSort: String, Sendable, CaseIterable {
    /// The purchase day, earliest first.
    case date
    /// The price, lowest first (refunds, being negative, come before purchases).
    case price
}

/// Which items to show and in what order; it only shapes what is printed, never what is cached.
public struct ItemQuery: Sendable, Equatable {
    /// The key to sort by, or nil to keep the server's order.
    public var sort: ItemSort?
    /// Whether to reverse the order, after sorting.
    public var reverse: Bool
    /// The only category to keep, or nil for all.
    public var category: Int?
    /// The only sub-category to keep, or nil for all; a sub number means something only within `category`.
    public var sub: Int?

    /// A query; the defaults keep every item in the server's order.
    public init(sort: ItemSort? = nil, reverse: Bool = false, category: Int? = nil, sub: Int? = nil) {
        self.sort = sort
        self.reverse = reverse
        self.category = category
        self.sub = sub
    }

    /// The items kept, sorted stably (ties keep their order in `items`), then reversed if asked.
    public func apply(_ items: [Item]) -> [Item] {
        var kept = items.filter { item in
            (category == nil || item.category == category) && (sub == nil || item.categorySub == sub)
        }
        if let sort {
            // The standard library does not promise a stable sort, so the original position breaks ties.
            kept = kept.enumerated().sorted { first, second in
                switch sort {
                case .date where first.element.date != second.element.date: first.element.date < second.element.date
                case .price where first.element.price != second.element.price: first.element.price < second.element.price
                default: first.offset < second.offset
                }
            }.map(\.element)
        }
        return reverse ? kept.reversed() : kept
    }
}
