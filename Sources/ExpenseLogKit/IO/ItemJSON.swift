/// Writes items in the wire format with the keys in the contract's order, without a JSONEncoder per item.
public enum ItemJSON {
    /// One item as a single-line JSON object.
    public static func object(_ item: Item) -> String {
        var out = "{\"id\":"
        appendString(item.id, to: &out)
        out += ",\"date\":\"" + item.date.compact + "\",\"name\":"
        appendString(item.name, to: &out)
        out += ",\"price\":\(item.price),\"category\":\(item.category),\"categorySub\":"
        out += item.categorySub.map(String.init) ?? "null"
        out += "}"
        return out
    }

    /// A JSON array of items, one per line, so diffs and `grep` stay readable.
    public static func array(_ items: [Item]) -> String {
        guard !items.isEmpty else { return "[]" }
        var out = "[\n"
        out.reserveCapacity(items.count * 120)
        for (index, item) in items.enumerated() {
            out += "  " + object(item) + (index + 1 < items.count ? ",\n" : "\n")
        }
        return out + "]"
    }

    /// Appends a JSON string literal, escaping only what JSON requires (UTF-8 stays as is).
    public static func appendString(_ text: String, to out: inout String) {
        out += "\""
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
        out += "\""
    }
}
