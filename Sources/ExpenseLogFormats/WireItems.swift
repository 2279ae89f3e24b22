import ExpenseLogModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// Reads an object, calling `field` with the position in `keys` of each of its keys found there (the parser at its
    /// value); other keys' values are skipped, as the codec ignores them. False from `field`, or one of `keys` given
    /// twice, gives up.
    ///
    /// Keys are compared as bytes, with no String made of them, and tracked as bits of a word: a String and a set per
    /// object were a third of the cost of reading an item.
    public mutating func fields(_ keys: [StaticString], _ field: (inout JSONParser, Int) throws -> Bool) throws -> Bool
    {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        var seen = 0, expected = 0
        repeat {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""),
                let position = try key(in: keys, expected: expected),
                take(UInt8(ascii: ":"))
            else { return false }
            skipWhitespace()
            if position >= 0 {
                guard seen & 1 << position == 0, try field(&self, position) else { return false }
                seen |= 1 << position
                expected = position + 1
            } else {
                _ = try parseValue(depth: 1)
            }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// Reads the key at the parser (at its opening quote) and returns its position in `keys`, or -1 for another key;
    /// nil for a key with an escape, which the general reading takes. The `expected` key (the one after the last, as
    /// a server writes them in order) is compared first.
    private mutating func key(in keys: [StaticString], expected: Int) throws -> Int? {
        let start = index + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
        index = end + 1
        return bytes.withUnsafeBufferPointer { all in
            let key = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(all)[start..<end])
            func matches(_ name: StaticString) -> Bool {
                name.utf8CodeUnitCount == key.count
                    && (key.isEmpty || memcmp(name.utf8Start, key.baseAddress!, key.count) == 0)
            }
            if expected < keys.count, matches(keys[expected]) { return expected }
            return keys.firstIndex(where: matches) ?? -1
        }
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
        guard index < bytes.count, bytes[index] == UInt8(ascii: "-") || (0x30...0x39).contains(bytes[index]) else {
            return nil
        }
        // Most are a few digits and nothing more: read from the bytes, no String made. Anything else (a fraction, an
        // exponent, a leading zero, 18 digits or more) is read as any number is.
        var at = index, value = 0
        if bytes[at] == UInt8(ascii: "-") { at += 1 }
        let first = at
        while at < bytes.count, at - first < 18, (0x30...0x39).contains(bytes[at]) {
            value = value * 10 + Int(bytes[at] &- 0x30)
            at += 1
        }
        let count = at - first
        if count > 0, count < 18, count == 1 || bytes[first] != UInt8(ascii: "0"),
            at == bytes.count || !(bytes[at] == UInt8(ascii: ".") || bytes[at] | 0x20 == UInt8(ascii: "e"))
        {
            let negative = first > index
            index = at
            return negative ? -value : value
        }
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

    /// A wire date: `"yyyyMMdd"` read straight from its bytes, anything else as text `Day(parsing:)` reads.
    mutating func day() throws -> Day? {
        if index + 10 <= bytes.count, bytes[index] == UInt8(ascii: "\""), bytes[index + 9] == UInt8(ascii: "\"") {
            var value = 0
            for at in (index + 1)...(index + 8) {
                guard (0x30...0x39).contains(bytes[at]) else { return try lenientString().flatMap(Day.init(parsing:)) }
                value = value * 10 + Int(bytes[at] - 0x30)
            }
            index += 10
            return Day(year: value / 10000, month: value / 100 % 100, day: value % 100)
        }
        return try lenientString().flatMap(Day.init(parsing:))
    }

    /// One item object; nil when it needs the codec's general reading or its error.
    mutating func item() throws -> Item? {
        var id: String?, date: Day?, name: String?, price: Int?, category: Int?, categorySub: Int?
        var payer: String?, personal = false, shared = false
        let keys: [StaticString] = ["id", "date", "name", "price", "category", "categorySub", "payer", "personal"]
        let complete = try fields(keys) { parser, key in
            switch key {
            case 0: id = try parser.lenientString(); return id != nil
            case 1: date = try parser.day(); return date != nil
            case 2: name = try parser.lenientString(); return name != nil
            case 3: price = try parser.lenientInteger(); return price != nil
            case 4: category = try parser.lenientInteger(); return category != nil
            case 5: return try parser.optionalInteger(&categorySub)
            case 6:
                switch try parser.parseValue(depth: 1) {
                case .string(let text, _): payer = text
                case .null: payer = nil
                default: return false
                }
                return true
            default:
                switch try parser.parseValue(depth: 1) {
                case .bool(let value, _): (personal, shared) = (value, !value)
                case .null: break
                default: return false
                }
                return true
            }
        }
        guard complete, let id, let date, let name, let price, let category else { return nil }
        return Item(
            id: id, date: date, name: name, price: price, category: category, categorySub: categorySub, payer: payer,
            personal: personal, shared: shared)
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
