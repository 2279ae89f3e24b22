import ExpenseLogModel

/// A parsed JSON value that remembers the line it starts on, so input errors can say `FILE:LINE`.
public indirect enum JSONValue: Sendable, Equatable {
    /// An object, members in the order written.
    case object([(key: String, value: JSONValue)], line: Int)
    /// An array.
    case array([JSONValue], line: Int)
    /// A string.
    case string(String, line: Int)
    /// The number's text as written, so integers stay exact and fractions can be reported as such.
    case number(String, line: Int)
    /// `true` or `false`.
    case bool(Bool, line: Int)
    /// `null`.
    case null(line: Int)

    /// The 1-based line the value starts on.
    public var line: Int {
        switch self {
        case .object(_, let line), .array(_, let line), .string(_, let line),
            .number(_, let line), .bool(_, let line), .null(let line):
            return line
        }
    }

    /// Equal values at the same lines.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case let (.object(a, la), .object(b, lb)):
            return la == lb && a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.array(a, la), .array(b, lb)): return la == lb && a == b
        case let (.string(a, la), .string(b, lb)): return la == lb && a == b
        case let (.number(a, la), .number(b, lb)): return la == lb && a == b
        case let (.bool(a, la), .bool(b, lb)): return la == lb && a == b
        case let (.null(la), .null(lb)): return la == lb
        default: return false
        }
    }
}

/// A JSON syntax error at a line.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    /// The 1-based line of the offending byte.
    public let line: Int
    /// What was wrong there.
    public let message: String
}

/// A strict RFC 8259 parser over UTF-8 bytes; small because it only has to serve input files.
public struct JSONParser {
    let bytes: [UInt8]
    var index = 0
    var line: Int

    /// Parses one whole document (trailing content is an error); `firstLine` offsets line numbers.
    public static func parse(_ bytes: [UInt8], firstLine: Int = 1) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes, line: firstLine)
        parser.skipBOM()
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < bytes.count { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    /// The first byte after a UTF-8 BOM and JSON whitespace, to tell JSON from CSV or HTML without parsing.
    public static func firstSignificantByte<Bytes: Collection<UInt8>>(of bytes: Bytes) -> UInt8? {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        return body.first { !isWhitespace($0) }
    }

    /// Whether a byte is JSON whitespace (space, tab, line feed, carriage return).
    public static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    init(bytes: [UInt8], line: Int = 1) {
        self.bytes = bytes
        self.line = line
    }

    private mutating func skipBOM() {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A: line += 1
            case 0x20, 0x09, 0x0D: break
            default: return
            }
            index += 1
        }
    }

    private func error(_ message: String) -> JSONSyntaxError { JSONSyntaxError(line: line, message: message) }

    mutating func parseValue(depth: Int) throws -> JSONValue {
        guard depth < 512 else { throw error("nested too deeply") }
        guard index < bytes.count else { throw error("unexpected end of input (is the file cut off?)") }
        let start = line
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString(), line: start)
        case UInt8(ascii: "t"): try expect("true"); return .bool(true, line: start)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false, line: start)
        case UInt8(ascii: "n"): try expect("null"); return .null(line: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber(), line: start)
        default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
        }
    }

    private mutating func expect(_ word: String) throws {
        let utf8 = Array(word.utf8)
        guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw error("unexpected word (expected \(word))")
        }
        index += utf8.count
    }

    private mutating func parseObject(depth: Int) throws -> JSONValue {
        let start = line
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members, line: start) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a \"key\" in the object")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an object (missing '}')") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members, line: start) }
            throw error("expected ',' or '}' in the object")
        }
    }

    private mutating func parseArray(depth: Int) throws -> JSONValue {
        let start = line
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements, line: start) }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an array (missing ']')") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements, line: start) }
            throw error("expected ',' or ']' in the array")
        }
    }

    mutating func parseNumber() throws -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        let intStart = index
        guard digits() > 0 else { throw error("a number needs digits") }
        if index - intStart > 1, bytes[intStart] == UInt8(ascii: "0") { throw error("numbers may not start with 0") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("a number needs digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { throw error("a number needs digits in its exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// A string at its opening quote. Most have no escapes and become a String in one step; the rest are put
    /// together as UTF-8 bytes, so no character is appended one at a time.
    mutating func parseString() throws -> String {
        index += 1
        let start = index
        // Most strings hold no escape: found by one scan of their bytes, and made at once.
        let end = bytes.withUnsafeBufferPointer { all in
            var at = start
            while at < all.count, all[at] != UInt8(ascii: "\""), all[at] != UInt8(ascii: "\\"), all[at] >= 0x20 {
                at += 1
            }
            return at
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\""), let text = UTF8Text.string(bytes, start..<end) {
            index = end + 1
            return text
        }
        var escaped: [UInt8]?
        var runStart = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text: String?
                if var built = escaped {
                    built.append(contentsOf: bytes[runStart..<index])
                    text = UTF8Text.string(built, 0..<built.count)
                } else {
                    text = UTF8Text.string(bytes, start..<index)
                }
                guard let text else { throw error("the string is not valid UTF-8 (is the file in another encoding?)") }
                index += 1
                return text
            }
            if byte < 0x20 {
                throw error(byte == 0x0A ? "a string is not closed on its line" : "a control character inside a string")
            }
            if byte == UInt8(ascii: "\\") {
                var built = escaped ?? []
                escaped = nil  // so the append below does not copy the buffer
                built.append(contentsOf: bytes[runStart..<index])
                index += 1
                built.append(contentsOf: String(try parseEscape()).utf8)
                escaped = built
                runStart = index
                continue
            }
            index += 1
        }
        throw error("unexpected end of input inside a string")
    }

    private mutating func parseEscape() throws -> Unicode.Scalar {
        guard index < bytes.count else { throw error("unexpected end of input in an escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hex4()
            if (0xD800..<0xDC00).contains(high) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw error("a lone UTF-16 surrogate in \\u escape")
                }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low),
                    let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                else {
                    throw error("an invalid UTF-16 surrogate pair in \\u escape")
                }
                return scalar
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("an invalid \\u escape") }
            return scalar
        default: throw error("an unknown escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}

extension Array where Element == (key: String, value: JSONValue) {
    /// The value of an object's first member named `key`.
    public subscript(member key: String) -> JSONValue? {
        first { $0.key == key }?.value
    }
}

extension JSONValue {
    /// What the value is, for a message: `the string "abc"`, `an object`.
    public var described: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string(let text, _): return "the string \"\(text)\""
        case .number(let text, _): return "the number \(text)"
        case .bool(let flag, _): return flag ? "true" : "false"
        case .null: return "null"
        }
    }
}
