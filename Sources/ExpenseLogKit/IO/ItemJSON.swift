/// Writes items in the wire format with the keys in the contract's order, without a JSONEncoder per item.
public enum ItemJSON {
    /// One item as a single-line JSON object.
    public static func object(_ item: Item) -> String {
        var out = ""
        appendObject(item, to: &out)
        return out
    }

    /// A JSON array of items, one per line, so diffs and `grep` stay readable.
    public static func array(_ items: [Item]) -> String {
        guard !items.isEmpty else { return "[]" }
        var out = "[\n"
        out.reserveCapacity(items.count * 120)
        for (index, item) in items.enumerated() {
            out += "  "
            appendObject(item, to: &out)
            out += index + 1 < items.count ? ",\n" : "\n"
        }
        return out + "]"
    }

    /// Appends one item's object, with no intermediate strings (this runs once per item of every file and request).
    static func appendObject(_ item: Item, to out: inout String) {
        out += "{\"id\":"
        appendString(item.id, to: &out)
        out += ",\"date\":\""
        out += item.date.compact
        out += "\",\"name\":"
        appendString(item.name, to: &out)
        out += ",\"price\":"
        out += String(item.price)
        out += ",\"category\":"
        out += String(item.category)
        out += ",\"categorySub\":"
        out += item.categorySub.map(String.init) ?? "null"
        out += "}"
    }

    /// Appends a JSON string literal, escaping only what JSON requires (UTF-8 stays as is).
    public static func appendString(_ text: String, to out: inout String) {
        out += "\""
        defer { out += "\"" }
        // Most text needs no escape and is appended whole; the rest goes a scalar at a time.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            out += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
    }
}
