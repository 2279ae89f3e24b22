/// Decimal digits appended as bytes, for what writes numbers for every item (a made id's content, JSON, a table's
/// dates): no String of the number is made.
public enum DecimalDigits {
    /// Appends the digits of a signed number's magnitude, zero-padded to `minimum`.
    @inlinable
    public static func append(_ value: Int, minimum: Int = 1, to out: inout [UInt8]) {
        append(UInt64(value.magnitude), minimum: minimum, to: &out)
    }

    /// Appends the digits of a number, zero-padded to `minimum`.
    ///
    /// Not generic: an unspecialized `BinaryInteger` call from another module cost a tenth of an import's CPU in
    /// protocol witnesses.
    public static func append(_ value: UInt64, minimum: Int = 1, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            let count = write(value, minimum: minimum, to: digits.baseAddress!)
            // Byte by byte: appending a buffer of a few bytes cost more than the digits themselves.
            for index in 0..<count { out.append(digits[index]) }
        }
    }

    /// Writes the digits of a number, zero-padded to `minimum` (at most 20), at `start`; returns how many were written.
    public static func write(_ value: UInt64, minimum: Int = 1, to start: UnsafeMutablePointer<UInt8>) -> Int {
        // A category's or sub-category's one digit.
        if value < 10, minimum <= 1 {
            start.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
            return 1
        }
        // A date's eight digits, a year's four, a month's two: the count is the minimum, without counting.
        let fits =
            switch minimum {
            case 2: value < 100
            case 4: value < 10_000
            case 8: value < 100_000_000
            default: false
            }
        var count = minimum
        if !fits {
            count = 1
            var rest = value / 10
            while rest > 0 {
                count += 1
                rest /= 10
            }
            count = max(count, min(minimum, 20))
        }
        // Two digits a division: a date's eight digits are four steps.
        var at = count, rest = value
        while rest >= 10 {
            let pair = Int(truncatingIfNeeded: rest % 100)
            rest /= 100
            at -= 2
            start[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair / 10)
            start[at + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair % 10)
        }
        while at > 0 {
            at -= 1
            start[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
            rest = 0
        }
        return count
    }
}
