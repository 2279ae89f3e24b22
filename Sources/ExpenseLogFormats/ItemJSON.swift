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
    /// digit by digit) and appended at once.
    public static func appendObject(_ item: ItemFields, to out: inout [UInt8]) {
        // The keys and punctuation take 65 bytes, the date 8, each of three numbers at most 20, and a text at most six
        // bytes for each of its own (`\u001f`).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 160 + 6 * (item.id.count + item.name.count)) { buffer in
            var at = buffer.baseAddress!
            func put(_ text: StaticString) {
                at.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
                at += text.utf8CodeUnitCount
            }
            func put(_ number: Int) {
                if number < 0 {
                    at.pointee = UInt8(ascii: "-")
                    at += 1
                }
                at += DecimalDigits.write(UInt64(number.magnitude), to: at)
            }
            put("{\"id\":")
            at += writeString(item.id, to: at)
            put(",\"date\":\"")
            at += DecimalDigits.write(
                UInt64(item.date.year * 10_000 + item.date.month * 100 + item.date.day), minimum: 8, to: at)
            put("\",\"name\":")
            at += writeString(item.name, to: at)
            put(",\"price\":")
            put(item.price)
            put(",\"category\":")
            put(item.category)
            put(",\"categorySub\":")
            if let sub = item.categorySub { put(sub) } else { put("null") }
            // Who paid only when known: the app's six keys stay the whole object otherwise.
            guard item.payer != nil || item.personal || item.shared else {
                put("}")
                out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: at - buffer.baseAddress!))
                return
            }
            out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: at - buffer.baseAddress!))
            var tail = ""
            if let payer = item.payer {
                tail += ",\"payer\":"
                appendString(payer, to: &tail)
            }
            // `personal`: true for one person's own, false when said to be shared, absent when unsaid.
            if item.personal || item.shared { tail += item.personal ? ",\"personal\":true" : ",\"personal\":false" }
            out.append(contentsOf: Array((tail + "}").utf8))
        }
    }

    /// Writes a JSON string literal of UTF-8 bytes at `start` (room for 2 + 6 × its bytes), escaping only what JSON
    /// requires (UTF-8 stays as is); returns how many bytes it wrote.
    private static func writeString(_ bytes: UnsafeBufferPointer<UInt8>, to start: UnsafeMutablePointer<UInt8>) -> Int {
        var at = start
        func put(_ byte: UInt8) {
            at.pointee = byte
            at += 1
        }
        put(UInt8(ascii: "\""))
        // Most text needs no escape and is copied whole; the rest goes byte by byte: every byte of a multi-byte
        // scalar is 0x80 or more, so none of them is escaped.
        if !needsEscape(bytes) {
            if let base = bytes.baseAddress { at.update(from: base, count: bytes.count) }
            at += bytes.count
        } else {
            func hex(_ nibble: UInt8) -> UInt8 {
                nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): put(UInt8(ascii: "\\")); put(byte)
                case UInt8(ascii: "\n"): put(UInt8(ascii: "\\")); put(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): put(UInt8(ascii: "\\")); put(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): put(UInt8(ascii: "\\")); put(UInt8(ascii: "t"))
                case ..<0x20:
                    for piece in [UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30, hex(byte >> 4), hex(byte & 0xF)] {
                        put(piece)
                    }
                default: put(byte)
                }
            }
        }
        put(UInt8(ascii: "\""))
        return at - start
    }

    /// Whether any byte is a control character, a quote or a backslash; eight bytes at a time (a byte below 0x20, or
    /// equal to one of the two, is found with the bit tricks of "Bit Twiddling Hacks": it was a byte-by-byte scan of
    /// every id and name written).
    static func needsEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        var at = 0
        while at + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self)
            if (word &- ones &* 0x20) & ~word & highs != 0 || hasZero(word ^ ones &* 0x22)
                || hasZero(word ^ ones &* 0x5C)
            {
                return true
            }
            at += 8
        }
        while at < bytes.count {
            let byte = bytes[at]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            at += 1
        }
        return false
    }

    /// Appends a JSON string literal of UTF-8 bytes, escaping only what JSON requires (UTF-8 stays as is).
    static func appendString(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 + 6 * bytes.count) { buffer in
            out.append(
                contentsOf: UnsafeBufferPointer(
                    start: buffer.baseAddress, count: writeString(bytes, to: buffer.baseAddress!)))
        }
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
