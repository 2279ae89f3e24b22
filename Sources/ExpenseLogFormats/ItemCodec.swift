import ExpenseLogModel
import Foundation

/// The one reader of items as JSON this tool stored or a server sent: the cache, the outbox, the spool and the
/// server's plain answers (inputs go through `InputReader`, retyped answers through `SheetRows`, both on the same
/// `JSONParser`; writing is `ItemJSON`).
///
/// Reading is lenient as a spreadsheet needs (numbers for strings and the reverse, `""` for no categorySub, unknown
/// keys ignored). The plain shape takes `WireItems`' fast path; anything else is parsed whole, and what cannot be read
/// is named by line, item and field.
public enum ItemCodec {
    /// What cannot be read, and on which line of the document.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The line (from 1) of the value at fault.
        public let line: Int
        /// The item (from 1) at fault, when the problem is one item's.
        public let item: Int?
        /// What is wrong.
        public let message: String

        /// A problem at a line, of one item or of the whole value.
        public init(line: Int, item: Int?, message: String) {
            self.line = line
            self.item = item
            self.message = message
        }

        /// `line 3: item 2: price: the string "abc" is not a whole number`.
        public var description: String { "line \(line): " + (item.map { "item \($0): " } ?? "") + message }
    }

    /// The items of a JSON array.
    public static func items(_ data: Data) throws(Problem) -> [Item] {
        try items(Array(data))
    }

    /// The items of a JSON array, as bytes.
    public static func items(_ bytes: [UInt8]) throws(Problem) -> [Item] {
        if let items = WireItems.items(bytes) { return items }
        return try items(in: parse(bytes))
    }

    /// A whole document, its syntax errors as problems.
    public static func parse(_ bytes: [UInt8]) throws(Problem) -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch let error as JSONSyntaxError {
            throw Problem(line: error.line, item: nil, message: "invalid JSON: \(error.message)")
        } catch {
            throw Problem(line: 1, item: nil, message: "invalid JSON: \(error)")
        }
    }

    /// The items of a parsed array.
    /// The items of a parsed JSON array.
    public static func items(in value: JSONValue) throws(Problem) -> [Item] {
        guard case .array(let elements, _) = value else {
            throw Problem(line: value.line, item: nil, message: "expected an array of items, found \(value.described)")
        }
        var items: [Item] = []
        items.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() { items.append(try item(element, number: index + 1)) }
        return items
    }

    /// One item object, read leniently; `number` names it in a problem.
    public static func item(_ value: JSONValue, number: Int? = nil) throws(Problem) -> Item {
        func fail(_ line: Int, _ message: String) -> Problem { Problem(line: line, item: number, message: message) }
        guard case .object(let members, let line) = value else {
            throw fail(value.line, "expected an item object, found \(value.described)")
        }
        var fields: [String: JSONValue] = [:]
        for (key, member) in members where ItemField(rawValue: key) != nil {
            guard fields.updateValue(member, forKey: key) == nil else { throw fail(member.line, "\(key): given twice") }
        }
        func text(_ key: ItemField) throws(Problem) -> String {
            switch fields[key.rawValue] {
            case .string(let text, _): return text
            case .number(let text, let at):
                guard let number = Int(text) else {
                    throw fail(at, "\(key): expected a string, found the number \(text)")
                }
                return String(number)
            case let other?: throw fail(other.line, "\(key): expected a string, found \(other.described)")
            case nil: throw fail(line, "\(key): missing")
            }
        }
        func integer(_ key: ItemField) throws(Problem) -> Int {
            switch fields[key.rawValue] {
            case .number(let text, let at):
                guard let number = Int(text) else {
                    throw fail(at, "\(key): expected a whole number, found the number \(text)")
                }
                return number
            case .string(let text, let at):
                guard let number = Int(text) else {
                    throw fail(at, "\(key): expected a whole number, found the string \"\(text)\"")
                }
                return number
            case let other?: throw fail(other.line, "\(key): expected a whole number, found \(other.described)")
            case nil: throw fail(line, "\(key): missing")
            }
        }
        let sub: Int?
        switch fields[ItemField.categorySub.rawValue] {
        case nil, .null?, .string("", _)?: sub = nil
        default: sub = try integer(.categorySub)
        }
        let dateText = try text(.date)
        guard let date = Day(parsing: dateText) else {
            throw fail(fields["date"]?.line ?? line, "date: \"\(dateText)\" is not a yyyyMMdd day")
        }
        // Who paid (the bundled script's `fields=payer`, the cache, the journal): a name or null; personal true or false.
        var payer: String?
        switch members[member: "payer"] {
        case .string(let name, _)?: payer = name
        case nil, .null?: payer = nil
        case let other?: throw fail(other.line, "payer: expected a name or null, found \(other.described)")
        }
        // `personal`: true one person's own, false said to be shared, null or absent unsaid.
        var personal = false, shared = false
        switch members[member: "personal"] {
        case .bool(let value, _)?: (personal, shared) = (value, !value)
        case nil, .null?: break
        case let other?: throw fail(other.line, "personal: expected true or false, found \(other.described)")
        }
        return Item(
            id: try text(.id), date: date, name: try text(.name), price: try integer(.price),
            category: try integer(.category),
            categorySub: sub, payer: payer, personal: personal, shared: shared)
    }
}
