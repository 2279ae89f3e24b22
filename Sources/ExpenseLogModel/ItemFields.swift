/// An item's fields with its two texts as UTF-8 bytes borrowed from where they are kept (a file's buffer, a String's
/// storage), valid only inside the closure that hands them out: a pass over 100,000 items (a table, a cache file) then
/// makes no String of each.
public struct ItemFields {
    /// The id's bytes.
    public let id: UnsafeBufferPointer<UInt8>
    /// The day of the purchase.
    public let date: Day
    /// The name's bytes.
    public let name: UnsafeBufferPointer<UInt8>
    /// Yen, negative for refunds.
    public let price: Int
    /// The category number.
    public let category: Int
    /// The sub-category number, or nil.
    public let categorySub: Int?
    /// Who paid, or nil (`Item.payer`).
    public let payer: String?
    /// Whether it was one person's own (`Item.personal`).
    public let personal: Bool
    /// Whether it was said to be shared (`Item.shared`).
    public var shared = false

    /// Fields over borrowed bytes.
    public init(
        id: UnsafeBufferPointer<UInt8>, date: Day, name: UnsafeBufferPointer<UInt8>, price: Int, category: Int,
        categorySub: Int?, payer: String? = nil, personal: Bool = false
    ) {
        (self.id, self.date, self.name) = (id, date, name)
        (self.price, self.category, self.categorySub) = (price, category, categorySub)
        (self.payer, self.personal) = (payer, personal)
    }

    /// The id as a String (a copy).
    public var idText: String { String(decoding: id, as: UTF8.self) }

    /// The item, its texts copied.
    public var item: Item {
        Item(
            id: idText, date: date, name: String(decoding: name, as: UTF8.self), price: price, category: category,
            categorySub: categorySub, payer: payer, personal: personal, shared: shared)
    }
}

extension Item {
    /// Hands the item's fields to `body`, its texts straight from their storage.
    public func withFields<R>(_ body: (ItemFields) throws -> R) rethrows -> R {
        try id.withUTF8Bytes { id in
            try name.withUTF8Bytes { name in
                var fields = ItemFields(
                    id: id, date: date, name: name, price: price, category: category, categorySub: categorySub,
                    payer: payer, personal: personal)
                fields.shared = shared
                return try body(fields)
            }
        }
    }
}

extension String {
    /// Hands the UTF-8 bytes to `body`: from the String's own storage when contiguous (always, for native Strings), else
    /// from a copy (a bridged NSString on Darwin).
    public func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        var copy = self
        return try copy.withUTF8(body)
    }
}
