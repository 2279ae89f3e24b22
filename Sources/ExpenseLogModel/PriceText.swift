/// Yen amounts as people write them: shown with thousands separators, read in the styles bank and app exports use.
public enum PriceText {
    /// `1500` → `1,500`, `-12000` → `-12,000`.
    public static func format<Value: BinaryInteger>(_ value: Value) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }

    /// `¥1,500`, and a refund's `-¥300`.
    public static func yen<Value: BinaryInteger>(_ value: Value) -> String {
        (value < 0 ? "-¥" : "¥") + format(value.magnitude)
    }

    /// Reads `1500`, `1,500`, `¥1,500`, `1,500円`, `1,500 円`, `1500.0`, `-1,500`, `▲1,500` (and full-width forms); nil for
    /// fractions of a yen or misplaced commas.
    public static func parse(_ text: String) -> Int? {
        // Plain digits, the usual case, need none of the work below.
        let utf8 = text.utf8
        if let first = utf8.first, first == UInt8(ascii: "-") || (0x30...0x39).contains(first),
            utf8.dropFirst().allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(text), value != .min
        {
            return value
        }
        var scalars = Array(text.unicodeScalars.map(halfWidth).drop { $0.properties.isWhitespace })
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        var negative = false
        var sawCurrency = false
        // A sign and a currency mark may come in either order: `-¥1,500` and `¥-1,500` are both seen in exports.
        while let first = scalars.first {
            if !negative, ["-", "−", "▲", "△"].contains(first) {
                negative = true
            } else if !sawCurrency, ["¥", "\\"].contains(first) {
                // Shift_JIS byte 0x5C is the yen sign in Japanese fonts, but decoders turn it into a backslash.
                sawCurrency = true
            } else {
                break
            }
            scalars.removeFirst()
        }
        if scalars.last == "円" { scalars.removeLast() }
        // `¥ 1,500` and `1,500 円`: a space between the number and its mark.
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        while let first = scalars.first, first.properties.isWhitespace, sawCurrency { scalars.removeFirst() }
        // A spreadsheet's `1500.0` or `1,500.00` is a whole number of yen; `1500.5` is not.
        if let point = scalars.firstIndex(of: "."), point + 1 < scalars.count,
            scalars[(point + 1)...].allSatisfy({ $0 == "0" })
        {
            scalars.removeSubrange(point...)
        }
        guard let first = scalars.first, ("0"..."9").contains(first) else { return nil }
        let body = String(String.UnicodeScalarView(scalars))
        guard body.allSatisfy({ $0 == "," || ("0"..."9").contains($0) }) else { return nil }
        if body.contains(",") {
            let groups = body.split(separator: ",", omittingEmptySubsequences: false)
            guard (1...3).contains(groups[0].count), groups.dropFirst().allSatisfy({ $0.count == 3 }) else {
                return nil
            }
        }
        guard let magnitude = Int(body.filter { $0 != "," }) else { return nil }
        return negative ? -magnitude : magnitude
    }

    /// Full-width digits, comma, minus and yen sign as their ASCII (or plain) forms.
    private static func halfWidth(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0xFF10...0xFF19: return Unicode.Scalar(scalar.value - 0xFF10 + 0x30) ?? scalar
        case 0xFF0C: return ","
        case 0xFF0E: return "."
        case 0xFF0D: return "-"
        case 0xFFE5: return "¥"
        default: return scalar
        }
    }
}
