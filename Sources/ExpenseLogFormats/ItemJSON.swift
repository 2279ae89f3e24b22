import ExpenseLogModel

/// Writes items in the wire format with the keys in the contract's order, without a JSONEncoder per item.
public enum ItemJSON {
    /// One item as a single-line JSON object.
    public static func object(_ item: Item) -> String {
        var out: [UInt8] = []
        appendObject(item, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A JSON array of items, one per line, so diffs and `grep` stay readable.
    public static func array(_ items: [Item]) -> String {
        String(decoding: arrayBytes(items), as: UTF8.self)
    }

    /// The same array as UTF-8 bytes, for files and request bodies: appending bytes is several times faster than
    /// appending to a String, and this runs for every item of every outbox entry, request and cache file.
    public static func arrayBytes(_ items: [Item]) -> [UInt8] {
        var array = ArrayBytes(reserving: items.count)
        items.forEach { array.append($0) }
        array.close()
        return array.bytes
    }

    /// The array of `arrayBytes` built an item at a time, so that a caller can write it out in pieces as it grows.
    public struct ArrayBytes {
        /// The bytes so far (since the last `drain`).
        public private(set) var bytes: [UInt8] = []
        private var isEmpty = true

        /// An empty array, with room for about `expected` items.
        public init(reserving expected: Int = 0) {
            bytes.reserveCapacity(expected * 130 + 8)
        }

        /// Adds an item.
        public mutating func append(_ item: Item) {
            item.withFields { append($0) }
        }

        /// Adds an item from its fields.
        public mutating func append(_ item: ItemFields) {
            bytes.append(contentsOf: (isEmpty ? "[\n  " : ",\n  ").utf8)
            isEmpty = false
            appendObject(item, to: &bytes)
        }

        /// Ends the array.
        public mutating func close() {
            bytes.append(contentsOf: (isEmpty ? "[]" : "\n]").utf8)
        }

        /// Hands the bytes so far to `emit`, then forgets them.
        public mutating func drain(to emit: (UnsafeRawBufferPointer) throws -> Void) rethrows {
            try bytes.withUnsafeBytes(emit)
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// Appends one item's object as UTF-8, with no intermediate strings.
    public static func appendObject(_ item: Item, to out: inout [UInt8]) {
        item.withFields { appendObject($0, to: &out) }
    }

    /// Appends one item's object from its fields' bytes: this runs for every item of every outbox entry, request body
    /// and cache file, so the object is laid out in a buffer of its own (keys copied from static text, numbers written
    /// digit by digit) and appended at once; text that needs escapes takes the slower way.
    public static func appendObject(_ item: ItemFields, to out: inout [UInt8]) {
        guard !needsEscape(item.id), !needsEscape(item.name) else { return appendObjectEscaping(item, to: &out) }
        // The keys and punctuation take 65 bytes, the date 8 and each of three numbers at most 20.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 160 + item.id.count + item.name.count) { buffer in
            var at = buffer.baseAddress!
            func put(_ text: StaticString) {
                at.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
                at += text.utf8CodeUnitCount
            }
            func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                if let base = bytes.baseAddress { at.update(from: base, count: bytes.count) }
                at += bytes.count
            }
            func put(_ number: Int) {
                if number < 0 {
                    at.pointee = UInt8(ascii: "-")
                    at += 1
                }
                at += DecimalDigits.write(UInt64(number.magnitude), to: at)
            }
            put("{\"id\":\"")
            put(item.id)
            put("\",\"date\":\"")
            at += DecimalDigits.write(UInt64(item.date.year * 10_000 + item.date.month * 100 + item.date.day), minimum: 8, to: at)
            put("\",\"name\":\"")
            put(item.name)
            put("\",\"price\":")
            put(item.price)
            put(",\"category\":")
            put(item.category)
            put(",\"categorySub\":")
            if let sub = item.categorySub { put(sub) } else { put("null") }
            put("}")
            out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: at - buffer.baseAddress!))
        }
    }

    /// `appendObject` for an item whose id or name holds a quote, a backslash or a control character.
    private static func appendObjectEscaping(_ item: ItemFields, to out: inout [UInt8]) {
        append("{\"id\":", to: &out)
        appendString(item.id, to: &out)
        append(",\"date\":\"", to: &out)
        let date = item.date
        DecimalDigits.append(date.year * 10_000 + date.month * 100 + date.day, minimum: 8, to: &out)
        append("\",\"name\":", to: &out)
        appendString(item.name, to: &out)
        append(",\"price\":", to: &out)
        appendInteger(item.price, to: &out)
        append(",\"category\":", to: &out)
        appendInteger(item.category, to: &out)
        append(",\"categorySub\":", to: &out)
        if let sub = item.categorySub { appendInteger(sub, to: &out) } else { append("null", to: &out) }
        out.append(UInt8(ascii: "}"))
    }

    /// Whether UTF-8 text needs JSON's escapes (a quote, a backslash, a control character).
    private static func needsEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
    }

    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A whole number in decimal.
    static func appendInteger(_ value: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        DecimalDigits.append(UInt64(value.magnitude), to: &out)
    }

    /// Appends a JSON string literal of UTF-8 bytes, escaping only what JSON requires (UTF-8 stays as is).
    static func appendString(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most text needs no escape and is copied whole; the rest goes a scalar at a time.
        if !needsEscape(bytes) {
            out.append(contentsOf: bytes)
        } else {
            // Byte by byte: every byte of a multi-byte scalar is 0x80 or more, so none of them is escaped.
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""): append("\\\"", to: &out)
                case UInt8(ascii: "\\"): append("\\\\", to: &out)
                case UInt8(ascii: "\n"): append("\\n", to: &out)
                case UInt8(ascii: "\r"): append("\\r", to: &out)
                case UInt8(ascii: "\t"): append("\\t", to: &out)
                case ..<0x20:
                    append("\\u00", to: &out)
                    out.append(contentsOf: [byte >> 4, byte & 0xF].map { $0 < 10 ? UInt8(ascii: "0") + $0 : UInt8(ascii: "a") + $0 - 10 })
                default: out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends a JSON string literal as UTF-8.
    static func appendString(_ text: String, to out: inout [UInt8]) {
        text.withUTF8Bytes { appendString($0, to: &out) }
    }

    /// Appends a JSON string literal to text (summaries, reports: not the hot path).
    public static func string(_ text: String) -> String {
        var out = ""
        appendString(text, to: &out)
        return out
    }

    /// Appends a JSON string literal (quotes and escapes) to a String.
    public static func appendString(_ text: String, to out: inout String) {
        var bytes: [UInt8] = []
        appendString(text, to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }
}
