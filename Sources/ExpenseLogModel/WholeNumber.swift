/// A whole number written as text, read as `Int(text.trimmingSpaces())` reads it. A cell of ASCII digits (most
/// category, sub-category and price cells) is read from its bytes: trimming made a String and `Int` parsed it again,
/// for every row of an import.
public enum WholeNumber {
    /// The number the text holds, after spaces around it; nil when it holds none.
    public static func parse(_ text: String) -> Int? {
        if let read = text.utf8.withContiguousStorageIfAvailable(ascii), let decided = read { return decided }
        return Int(text.trimmingSpaces())
    }

    /// The number in ASCII text: `.some(nil)` for none, nil when the text needs the general reading (a byte past ASCII,
    /// which may be a Unicode space or digit, or more digits than are read here).
    private static func ascii(_ bytes: UnsafeBufferPointer<UInt8>) -> Int?? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var start = 0, end = bytes.count
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        var negative = false
        if start < end, bytes[start] == UInt8(ascii: "-") || bytes[start] == UInt8(ascii: "+") {
            negative = bytes[start] == UInt8(ascii: "-")
            start += 1
        }
        guard start < end, end - start <= 18 else { return nil }
        var value = 0
        for index in start..<end {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return .some(nil) }
            value = value * 10 + Int(digit)
        }
        return .some(negative ? -value : value)
    }
}
