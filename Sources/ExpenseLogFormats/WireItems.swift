import ExpenseLogModel
import Foundation

/// `ItemCodec`'s fast path for the JSON this tool reads most: the server's item arrays, cache files, outbox entries
/// and the spool.
///
/// It reads straight into `Item`s, with the codec's leniency, building no `JSONValue` tree. Anything unusual (a
/// fraction, a duplicate key, a wrong type) makes it give up with nil, and the codec parses the document whole to say
/// exactly what is wrong. Building the tree for every item took most of the time of reading a cached month.
public enum WireItems {
    /// The items of a JSON array, or nil when the fast path gives up.
    public static func items(_ bytes: [UInt8]) -> [Item]? {
        read(bytes) { try $0.itemArray() }
    }

    /// Runs `body` over a whole document: nil when it gives up or text follows the value.
    public static func read<T>(_ bytes: [UInt8], _ body: (inout JSONParser) throws -> T?) -> T? {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        guard let value = try? body(&parser) else { return nil }
        parser.skipWhitespace()
        return parser.index == parser.bytes.count ? value : nil
    }
}

extension JSONParser {
    /// Whether the next significant byte is `byte`; consumes it when it is.
    mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Reads an object, calling `field` with each key of `keys` (the parser at its value); other keys' values are
    /// skipped, as the codec ignores them. False from `field`, or one of `keys` given twice, gives up.
    ///
    /// Keys are tracked as bits of a word: a set per object was a tenth of the cost of reading an item.
    public mutating func fields(_ keys: [String], _ field: (inout JSONParser, String) throws -> Bool) throws -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        var seen = 0
        repeat {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), case let key = try parseString(),
                  take(UInt8(ascii: ":")) else { return false }
            skipWhitespace()
            if let position = keys.firstIndex(of: key) {
                guard seen & 1 << position == 0, try field(&self, key) else { return false }
                seen |= 1 << position
            } else {
                _ = try parseValue(depth: 1)
            }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// An array whose elements `element` reads; nil when it gives up.
    mutating func array<T>(_ element: (inout JSONParser) throws -> T?) throws -> [T]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var result: [T] = []
        if take(UInt8(ascii: "]")) { return result }
        repeat {
            skipWhitespace()
            guard let value = try element(&self) else { return nil }
            result.append(value)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? result : nil
    }

    /// An array of items in the wire shape.
    public mutating func itemArray() throws -> [Item]? {
        try array { try $0.item() }
    }

    /// A whole number without fraction or exponent, else nil (left to the general reading).
    mutating func integer() throws -> Int? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "-") || (0x30...0x39).contains(bytes[index]) else { return nil }
        return Int(try parseNumber())
    }

    /// A string, and only a string.
    public mutating func string() throws -> String? {
        index < bytes.count && bytes[index] == UInt8(ascii: "\"") ? try parseString() : nil
    }

    /// A string, or a number's text (the lenient reading of a string field).
    mutating func lenientString() throws -> String? {
        guard index < bytes.count else { return nil }
        return bytes[index] == UInt8(ascii: "\"") ? try parseString() : try integer().map(String.init)
    }

    /// A number, or a string holding one (the lenient reading of a number field).
    mutating func lenientInteger() throws -> Int? {
        guard index < bytes.count else { return nil }
        return bytes[index] == UInt8(ascii: "\"") ? Int(try parseString()) : try integer()
    }

    /// One item object; nil when it needs the codec's general reading or its error.
    mutating func item() throws -> Item? {
        var id: String?, date: Day?, name: String?, price: Int?, category: Int?, categorySub: Int?
        let complete = try fields(["id", "date", "name", "price", "category", "categorySub"]) { parser, key in
            switch key {
            case "id": id = try parser.lenientString(); return id != nil
            case "date": date = try parser.lenientString().flatMap(Day.init(parsing:)); return date != nil
            case "name": name = try parser.lenientString(); return name != nil
            case "price": price = try parser.lenientInteger(); return price != nil
            case "category": category = try parser.lenientInteger(); return category != nil
            default: return try parser.optionalInteger(&categorySub)
            }
        }
        guard complete, let id, let date, let name, let price, let category else { return nil }
        return Item(id: id, date: date, name: name, price: price, category: category, categorySub: categorySub)
    }

    /// A number or null (a time stamp) into `value`; false when it is neither.
    public mutating func optionalNumber(_ value: inout Double?) throws -> Bool {
        guard index < bytes.count else { return false }
        switch try parseValue(depth: 1) {
        case .null: return true
        case .number(let text, _):
            value = Double(text)
            return value != nil
        default: return false
        }
    }

    /// categorySub: `null` and `""` mean none, else a lenient integer; false when it is neither.
    private mutating func optionalInteger(_ value: inout Int?) throws -> Bool {
        guard index < bytes.count else { return false }
        if bytes[index] == UInt8(ascii: "n") {
            guard case .null = try parseValue(depth: 1) else { return false }
            return true
        }
        if bytes[index] == UInt8(ascii: "\"") {
            let text = try parseString()
            if text.isEmpty { return true }
            value = Int(text)
        } else {
            value = try integer()
        }
        return value != nil
    }
}
