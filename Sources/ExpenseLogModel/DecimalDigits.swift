/// Decimal digits appended as bytes, for what writes numbers for every item (a made id's content, JSON, a table's
/// dates): no String of the number is made.
public enum DecimalDigits {
    /// Appends the digits of a number that is not negative (its magnitude otherwise), zero-padded to `minimum`.
    public static func append<Value: BinaryInteger>(_ value: Value, minimum: Int = 1, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { digits in
            var rest = value.magnitude, at = 40
            repeat {
                at -= 1
                digits[at] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            while 40 - at < minimum, at > 0 {
                at -= 1
                digits[at] = UInt8(ascii: "0")
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[at...]))
        }
    }
}
