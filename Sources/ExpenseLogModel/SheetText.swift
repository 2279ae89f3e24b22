/// Text as a Google Sheet shows it after a person (or `appendRow`) typed it into a cell left at its default format:
/// Sheets turns `0120` into the number 120 and `true` into the boolean TRUE, and `getValues()` hands those back.
public enum SheetText {
    /// The form an id takes once a Sheet has retyped it (`00123` → `123`, `true` → `TRUE`, `1.50` → `1.5`), so two ids
    /// that a Sheet cannot tell apart compare equal; text a Sheet keeps as text is its own key.
    ///
    /// Only numbers a Sheet holds exactly are folded: up to 15 significant digits and finite. A longer run of digits
    /// (a bank's 20-digit transaction id) stays its own key, so two such ids never collide through rounding.
    public static func key(_ id: String) -> String {
        // Most ids are UUIDs: a first character that cannot start a number or a boolean means text, decided at once.
        if let first = id.utf8.first,
            !(first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
                || (0x30...0x39).contains(first) || first | 0x20 == UInt8(ascii: "t")
                || first | 0x20 == UInt8(ascii: "f"))
        {
            return id
        }
        // Nor can a number hold anything but digits, signs, points, commas and exponents: a UUID that starts with a
        // digit is decided here, without the character-by-character reading below, which is slow.
        let numeric = id.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: ",") || byte | 0x20 == UInt8(ascii: "e")
        }
        if !numeric, let first = id.utf8.first, first | 0x20 != UInt8(ascii: "t"), first | 0x20 != UInt8(ascii: "f") {
            return id
        }
        switch id.lowercased() {
        case "true": return "TRUE"
        case "false": return "FALSE"
        default:
            guard let value = number(typed: id), value.isFinite, significantDigits(id) <= 15 else { return id }
            return display(value)
        }
    }

    /// The digits of a number's text that carry its value: no sign, separators, leading or trailing zeros, exponent.
    static func significantDigits(_ text: String) -> Int {
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }.filter(\.isNumber)
        return mantissa.drop { $0 == "0" }.reversed().drop { $0 == "0" }.count
    }

    /// What a cell shows for a boolean.
    public static func display(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }

    /// The number a Sheet makes of typed text (`1,500`, `-0.50`, `1e3`), or nil when it stays text.
    public static func number(typed text: String) -> Double? {
        var body = Substring(text)
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        guard let first = body.first, first.isASCII, first.isNumber || first == "." else { return nil }
        let mantissa = body.prefix { $0 != "e" && $0 != "E" }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ $0.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ",") } }) else {
            return nil
        }
        // Thousands separators only in the whole part, in groups of three (`1,5` stays text).
        let groups = parts[0].split(separator: ",", omittingEmptySubsequences: false)
        guard
            groups.count == 1
                || (!groups[0].isEmpty && groups[0].count <= 3 && groups.dropFirst().allSatisfy { $0.count == 3 }),
            parts.count == 1 || !parts[1].contains(",")
        else { return nil }
        return Double(text.replacingOccurrences(of: ",", with: ""))
    }

    /// A number as JavaScript's `String(n)` writes it, which is what a Sheet's number becomes in Apps Script's JSON.
    public static func display(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return "0" }
        if value == value.rounded(), abs(value) < 9e15 { return String(Int(value)) }
        // Swift's description has the shortest digits that round-trip, as JavaScript's; only the layout differs.
        let (digits, exponent) = shortestDigits(abs(value))
        let sign = value < 0 ? "-" : ""
        let k = digits.count, n = exponent
        if k <= n, n <= 21 { return sign + digits + String(repeating: "0", count: n - k) }
        if 0 < n, n <= 21 { return sign + digits.prefix(n) + "." + digits.dropFirst(n) }
        if -6 < n, n <= 0 { return sign + "0." + String(repeating: "0", count: -n) + digits }
        let e = n - 1
        return sign + digits.prefix(1) + (k > 1 ? "." + digits.dropFirst() : "") + "e" + (e < 0 ? "-" : "+")
            + String(abs(e))
    }

    /// The significant digits of a positive number and n, where the number is 0.digits × 10ⁿ.
    private static func shortestDigits(_ value: Double) -> (String, Int) {
        let text = "\(value)"
        let parts = text.split(separator: "e")
        let power = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
        let halves = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(halves[0]), fraction = halves.count > 1 ? String(halves[1]) : ""
        var digits = whole + fraction
        var exponent = whole.count + power
        while digits.hasPrefix("0") {
            digits.removeFirst()
            exponent -= 1
        }
        while digits.hasSuffix("0") { digits.removeLast() }
        return (digits.isEmpty ? "0" : digits, exponent)
    }
}
