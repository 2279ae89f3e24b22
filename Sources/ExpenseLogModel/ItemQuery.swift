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
    /// Text the name must hold, compared after NFKC, case and kana folding (`スターバックス` finds `ｽﾀｰﾊﾞｯｸｽ` and `すたーばっくす`); nil for any.
    public var name: String? {
        didSet { foldedName = name.map(Self.fold) }
    }
    /// The lowest and highest price kept, each bound included; nil for no bound.
    public var minPrice: Int?, maxPrice: Int?
    /// The first and last day kept, each included; nil for no bound.
    public var from: Day?, to: Day?
    /// Who must have paid (names compared as `name` is; `none` for the household's items), or nil for any.
    public var payer: String? {
        didSet { foldedPayer = payer.map(Self.fold) }
    }
    /// What the configuration says of items that name no payer (`payer.app`), which `payer` compares with.
    public var shareDefaults = ShareDefaults()
    private var foldedName: String?, foldedPayer: String?

    /// A query; the defaults keep every item in the server's order.
    public init(
        sort: ItemSort? = nil, reverse: Bool = false, category: Int? = nil, sub: Int? = nil, name: String? = nil,
        minPrice: Int? = nil, maxPrice: Int? = nil, from: Day? = nil, to: Day? = nil
    ) {
        self.sort = sort
        self.reverse = reverse
        self.category = category
        self.sub = sub
        self.name = name
        foldedName = name.map(Self.fold)
        (self.minPrice, self.maxPrice, self.from, self.to) = (minPrice, maxPrice, from, to)
    }

    /// Text as names are compared: NFKC, case folded, katakana as hiragana (`NameFolding`).
    static func fold(_ text: String) -> String {
        NameFolding.fold(text)
    }

    /// Whether an item passes every filter.
    public func keeps(_ item: Item) -> Bool {
        (category == nil || item.category == category) && (sub == nil || item.categorySub == sub)
            && (minPrice.map { item.price >= $0 } ?? true) && (maxPrice.map { item.price <= $0 } ?? true)
            && (from.map { item.date >= $0 } ?? true) && (to.map { item.date <= $0 } ?? true)
            && (foldedName.map { Self.fold(item.name).contains($0) } ?? true)
            && (foldedPayer.map { wanted in
                let payer = shareDefaults.applied(to: item).payer
                return ["none", "なし"].contains(wanted) ? payer == nil : payer.map { Self.fold($0) == wanted } ?? false
            } ?? true)
    }

    /// The items kept, sorted stably (ties keep their order in `items`), then reversed if asked.
    public func apply(_ items: [Item]) -> [Item] {
        var kept = items.filter(keeps)
        if let sort {
            // The standard library does not promise a stable sort, so the original position breaks ties.
            kept = kept.enumerated().sorted { first, second in
                switch sort {
                case .date where first.element.date != second.element.date: first.element.date < second.element.date
                case .price where first.element.price != second.element.price:
                    first.element.price < second.element.price
                default: first.offset < second.offset
                }
            }.map(\.element)
        }
        return reverse ? kept.reversed() : kept
    }
}
