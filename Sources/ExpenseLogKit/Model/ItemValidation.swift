import Foundation

extension ItemDraft {
    /// The app's longest allowed name, in characters.
    public static let maxNameLength = 30

    /// The item when every field is valid, else every problem found (not just the first).
    public func validated(makeID: () -> String = RandomID.make) -> (item: Item?, problems: [ValidationProblem]) {
        var problems: [ValidationProblem] = []
        func fail(_ field: String, _ message: String) {
            problems.append(ValidationProblem(location: location, field: field, message: message))
        }

        var itemID = ""
        switch id {
        case let value where value.isAbsent: itemID = makeID()
        case .text(let text): itemID = text.trimmingSpaces()
        case .integer(let number): itemID = String(number)
        default: fail("id", "must be a string, got \(id.shown)")
        }

        var day: Day?
        switch date {
        case let value where value.isAbsent: fail("date", "is missing (expected yyyyMMdd, e.g. 20240122)")
        case .text(let text):
            day = Day(parsing: text.trimmingSpaces())
            if day == nil { fail("date", "\(date.shown) is not a real day (expected yyyyMMdd, yyyy-MM-dd or yyyy/M/d)") }
        case .integer(let number):
            day = Day(parsing: String(number))
            if day == nil { fail("date", "\(number) is not a real day (expected yyyyMMdd)") }
        default: fail("date", "must be a yyyyMMdd string, got \(date.shown)")
        }

        var itemName = ""
        switch name {
        case let value where value.isAbsent: fail("name", "is empty (give what was bought)")
        case .text(let text):
            itemName = text.trimmingSpaces()
            if itemName.count > Self.maxNameLength {
                fail("name", "is \(itemName.count) characters long; at most \(Self.maxNameLength) are allowed")
            }
        default: fail("name", "must be a string, got \(name.shown)")
        }

        let itemPrice = integer(price, field: "price", required: true, fail: fail, parse: PriceText.parse)
        if itemPrice == 0 { fail("price", "must not be 0 (use a negative price for a refund)") }
        let itemCategory = integer(category, field: "category", required: true, fail: fail)
        let itemSub = integer(categorySub, field: "categorySub", required: false, fail: fail)

        guard problems.isEmpty, let day, let itemPrice, let itemCategory else { return (nil, problems) }
        return (Item(id: itemID, date: day, name: itemName, price: itemPrice,
                             category: itemCategory, categorySub: itemSub), [])
    }

    private func integer(_ value: RawValue, field: String, required: Bool, fail: (String, String) -> Void,
                         parse: (String) -> Int? = { Int($0) }) -> Int? {
        switch value {
        case let value where value.isAbsent:
            if required { fail(field, "is missing (expected a whole number)") }
            return nil
        case .integer(let number): return number
        case .text(let text):
            if let number = parse(text.trimmingSpaces()) { return number }
            fail(field, "\(value.shown) is not a whole number" + (field == "price" ? " of yen (1500, 1,500, ¥1,500 and 1,500円 are read)" : ""))
            return nil
        default:
            fail(field, "must be a whole number, got \(value.shown)")
            return nil
        }
    }
}

extension Array where Element == ItemDraft {
    /// Validates every draft and also flags an `id` given twice; items (with where each was read) keep input order.
    public func validatedAll(makeID: () -> String = RandomID.make)
        -> (items: [Item], locations: [SourceLocation], problems: [ValidationProblem]) {
        var items: [Item] = []
        var locations: [SourceLocation] = []
        var problems: [ValidationProblem] = []
        var firstSeen: [String: SourceLocation] = [:]
        items.reserveCapacity(count)
        for draft in self {
            let (validItem, found) = draft.validated(makeID: makeID)
            if let item = validItem {
                // Only ids the input gave can repeat; hashing the ones made here cost a tenth of a large import.
                if draft.id.isAbsent {
                    items.append(item)
                    locations.append(draft.location)
                } else if let earlier = firstSeen[item.id] {
                    problems.append(ValidationProblem(location: draft.location, field: "id",
                                                      message: "'\(item.id)' is already used by the item at \(earlier)"))
                } else {
                    firstSeen[item.id] = draft.location
                    items.append(item)
                    locations.append(draft.location)
                }
            } else {
                problems.append(contentsOf: found)
            }
        }
        return (items, locations, problems)
    }
}
