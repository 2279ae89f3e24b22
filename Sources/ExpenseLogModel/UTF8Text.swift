import Foundation

/// UTF-8 checked, and made into Strings, by a specialized loop: `String(validating:as:)` runs generic code when called
/// from another module (its type metadata looked up at every call), which was a twentieth of an import's instructions
/// (every JSON string of every answer, every chunk of a CSV).
public enum UTF8Text {
    /// Whether the bytes are well-formed UTF-8, as Unicode's table 3-7 defines it: no overlong form, no surrogate, nothing
    /// past U+10FFFF, no sequence cut short.
    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            // Eight ASCII bytes at a time: most of what is read is ASCII.
            while index + 8 <= count,
                UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
            }
            guard index < count else { return true }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int, low: UInt8, high: UInt8
            switch lead {
            case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
            case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
            case 0xED: (length, low, high) = (3, 0x80, 0x9F)
            case 0xE1...0xEF: (length, low, high) = (3, 0x80, 0xBF)
            case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
            case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
            case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
            default: return false
            }
            guard index + length <= count, base[index + 1] >= low, base[index + 1] <= high else { return false }
            for offset in 2..<length where base[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    /// A String of the bytes, or nil when they are not well-formed UTF-8. Decoding replaces each ill-formed sequence
    /// with U+FFFD, so the bytes are valid exactly when the String holds them unchanged: one comparison instead of a
    /// second pass of checks (decoding checks them anyway).
    public static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.withUTF8Bytes { decoded in
            decoded.count == bytes.count
                && (bytes.isEmpty || memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        } ? text : nil
    }

    /// A String of some bytes of an array, or nil when they are not well-formed UTF-8.
    public static func string(_ bytes: [UInt8], _ range: Range<Int>) -> String? {
        bytes.withUnsafeBufferPointer { string(UnsafeBufferPointer(rebasing: $0[range])) }
    }
}
