import Foundation

/// One expense as the server stores it; the wire keys are exactly the stored property names.
public struct Item: Sendable, Hashable {
    /// A non-empty identifier, an uppercase UUID when the client made it.
    public var id: String
    /// The day of the purchase.
    public var date: Day
    /// What was bought, 1–30 characters.
    public var name: String
    /// Yen, never 0; negative for refunds.
    public var price: Int
    /// The category number in the catalogue.
    public var category: Int
    /// The sub-category number, or nil when the item has none.
    public var categorySub: Int?
    /// Who paid (`add --payer`), or nil: the household's, or not known (the app sends none). Kept by the bundled script
    /// in a column the app never reads, and sent only to a server that keeps it.
    public var payer: String?
    /// Whether it was one person's own spending, not the household's (`add --personal`): left out of settling up.
    public var personal: Bool
    /// Whether it was said to be shared (`--shared`): then no category the configuration calls personal makes it so.
    public var shared = false

    /// An item from already valid fields; readers go through `ItemDraft.validated()`.
    public init(
        id: String, date: Day, name: String, price: Int, category: Int, categorySub: Int?, payer: String? = nil,
        personal: Bool = false, shared: Bool = false
    ) {
        self.id = id
        self.date = date
        self.name = name
        self.price = price
        self.category = category
        self.categorySub = categorySub
        self.payer = payer
        self.personal = personal
        self.shared = shared && !personal
    }

    /// Whether it carries more than the app's six fields (who paid, or one person's own).
    public var hasShare: Bool { payer != nil || personal || shared }

    /// The item as the app's six fields (for a server that keeps nothing more).
    public var withoutShare: Item {
        Item(id: id, date: date, name: name, price: price, category: category, categorySub: categorySub)
    }
}

extension Sequence where Element == Item {
    /// The sum of the prices, wide enough that no list of `Int` prices can overflow it.
    public var totalPrice: Int128 { reduce(0) { $0 + Int128($1.price) } }

    /// The months the items fall in, oldest first, each once.
    public var months: [YearMonth] { YearMonth.distinct(map { $0.date.yearMonth }) }
}

extension Array where Element == Item {
    /// Whether both hold the same items with the same bytes: `==` on strings also matches another Unicode
    /// normalisation of a name, and what the server saved must be shown as it saved it.
    public func isByteForByte(_ other: [Item]) -> Bool {
        count == other.count
            && zip(self, other).allSatisfy { a, b in
                a.id.hasSameBytes(as: b.id) && a.name.hasSameBytes(as: b.name) && a.date == b.date
                    && a.price == b.price && a.category == b.category && a.categorySub == b.categorySub
                    && a.payer == b.payer && a.personal == b.personal && a.shared == b.shared
            }
    }
}

extension String {
    /// Whether both hold the same UTF-8 bytes (`==` also matches another Unicode normalisation), compared straight from
    /// their storage when it is contiguous.
    func hasSameBytes(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let fast = utf8.withContiguousStorageIfAvailable { a in
            other.utf8.withContiguousStorageIfAvailable { b in
                a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
            }
        }
        return (fast ?? nil) ?? utf8.elementsEqual(other.utf8)
    }
}
