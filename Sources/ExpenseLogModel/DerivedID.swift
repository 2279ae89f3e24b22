/// Ids made from what a row says, so that importing the same statement again gives the same ids and the server's copy
/// is recognised by id: a name-based (version 5) UUID, uppercase as the app writes its ids.
///
/// The name hashed is `yyyyMMdd␟NAME␟PRICE␟N` (␟ is U+001F): the day, the name as read (trimmed, before a profile's
/// rule renames it), the price in yen, and N, the row's place among the input's rows with the same day, name and price
/// (1 for the first ¥178 coffee of a day, 2 for the second). The namespace is `namespace`, itself
/// `uuid5(NAMESPACE_URL, "https://github.com/expense-log/expense-log/import-row")`, so any language can check an id:
/// `uuid.uuid5(uuid.UUID("0C89BF94-E60E-5D6B-A116-C042F5034BDA"), "20261103\x1fコーヒー\x1f178\x1f1")`.
public enum DerivedID {
    /// The namespace of the ids made here.
    public static let namespace: [UInt8] = [
        0x0C, 0x89, 0xBF, 0x94, 0xE6, 0x0E, 0x5D, 0x6B,
        0xA1, 0x16, 0xC0, 0x42, 0xF5, 0x03, 0x4B, 0xDA,
    ]

    /// How a made id is explained in messages.
    public static let explanation = "its id is made from its date, name and price and its place among such rows"

    /// What rows of one account with the same content share: `ACCOUNT␟yyyyMMdd␟NAME␟PRICE`, or without the account
    /// (`yyyyMMdd␟NAME␟PRICE`, as every id was made before accounts counted) when there is none.
    public static func content(account: String?, date: Day, name: String, price: Int) -> [UInt8] {
        let plain = content(date: date, name: name, price: price)
        guard let account, !account.isEmpty else { return plain }
        return Array(account.utf8) + [0x1F] + plain
    }

    /// What rows with the same content share: their day, name and price, as the UTF-8 bytes `yyyyMMdd␟NAME␟PRICE`.
    public static func content(date: Day, name: String, price: Int) -> [UInt8] {
        name.withUTF8Bytes { text in
            // Laid out in place, once: appended a piece at a time, the digits alone cost more than the rest.
            [UInt8](unsafeUninitializedCapacity: text.count + 32) { buffer, count in
                var at = buffer.baseAddress!
                at += DecimalDigits.write(UInt64(date.year * 10_000 + date.month * 100 + date.day), minimum: 8, to: at)
                at.pointee = 0x1F
                at += 1
                if let base = text.baseAddress { at.update(from: base, count: text.count) }
                at += text.count
                at.pointee = 0x1F
                at += 1
                if price < 0 {
                    at.pointee = UInt8(ascii: "-")
                    at += 1
                }
                at += DecimalDigits.write(UInt64(price.magnitude), to: at)
                count = at - buffer.baseAddress!
            }
        }
    }

    /// The id of the `occurrence`-th row (from 1) with this content.
    public static func make(content: [UInt8], occurrence: Int) -> String {
        // The hashed bytes are laid out in a buffer of their own: an array of them cost an allocation a row.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: namespace.count + content.count + 21) { buffer in
            var at = buffer.baseAddress!
            func put(_ part: [UInt8]) {
                part.withUnsafeBufferPointer { if let base = $0.baseAddress { at.update(from: base, count: $0.count) } }
                at += part.count
            }
            put(namespace)
            put(content)
            at.pointee = 0x1F
            at += 1
            at += DecimalDigits.write(UInt64(occurrence.magnitude), to: at)
            return uuid(hashing: UnsafeBufferPointer(start: buffer.baseAddress, count: at - buffer.baseAddress!))
        }
    }

    /// A version 5 UUID (RFC 4122 §4.3), uppercase, of bytes that are the namespace followed by the name.
    static func uuid(hashing bytes: UnsafeBufferPointer<UInt8>) -> String {
        let h = SHA1.words(bytes)
        // The digest's first 16 bytes, with the version (5, the high nibble of byte 6) and variant (binary 10, the top
        // bits of byte 8) set, read from its words: no array of bytes is made.
        let words = (h.0, h.1 & 0xFFFF_0FFF | 0x0000_5000, h.2 & 0x3FFF_FFFF | 0x8000_0000, h.3)
        return String(unsafeUninitializedCapacity: 36) { text in
            let out = text.baseAddress!
            // 8-4-4-4-12 hex digits of the first 16 bytes: each word's eight digits, the dashes put in between.
            func put(_ word: UInt32, at start: Int, dashAfter: Int) {
                var at = start
                for index in 0..<8 {
                    if index == dashAfter {
                        out[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    let nibble = UInt8(truncatingIfNeeded: word >> UInt32(28 - 4 * index)) & 0xF
                    out[at] = nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "A") &+ nibble &- 10
                    at += 1
                }
            }
            put(words.0, at: 0, dashAfter: 8)
            out[8] = UInt8(ascii: "-")
            put(words.1, at: 9, dashAfter: 4)
            out[18] = UInt8(ascii: "-")
            put(words.2, at: 19, dashAfter: 4)
            put(words.3, at: 28, dashAfter: 8)
            return 36
        }
    }
}

/// SHA-1 (FIPS 180-4), which version 5 UUIDs are defined with; not used for anything secret. It runs once per imported
/// row: whole blocks are read where they lie, only the padded tail is copied, and the digest stays in five words.
enum SHA1 {
    typealias Words = (UInt32, UInt32, UInt32, UInt32, UInt32)

    static func digest(_ message: [UInt8]) -> [UInt8] {
        let h = message.withUnsafeBufferPointer { words($0) }
        return [h.0, h.1, h.2, h.3, h.4].flatMap { word in
            (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) }
        }
    }

    /// The digest as its five big-endian words.
    static func words(_ message: UnsafeBufferPointer<UInt8>) -> Words {
        var h: Words = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        let whole = message.count / 64, rest = message.count % 64
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { schedule in
            let w = schedule.baseAddress!
            if let base = message.baseAddress {
                for block in 0..<whole { compress(&h, base + block * 64, w) }
            }
            // The padded tail: the last bytes, 0x80, zeros to 56 mod 64, and the length in bits (big-endian).
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer in
                let tail = buffer.baseAddress!
                if rest > 0, let base = message.baseAddress { tail.update(from: base + whole * 64, count: rest) }
                tail[rest] = 0x80
                let blocks = rest < 56 ? 1 : 2
                (tail + rest + 1).update(repeating: 0, count: blocks * 64 - 8 - rest - 1)
                let bits = UInt64(message.count) &* 8
                for byte in 0..<8 {
                    tail[blocks * 64 - 8 + byte] = UInt8(truncatingIfNeeded: bits >> UInt64(56 - 8 * byte))
                }
                for block in 0..<blocks { compress(&h, tail + block * 64, w) }
            }
        }
        return h
    }

    /// Adds one 64-byte block to the state, with `w` (80 words) for its message schedule.
    private static func compress(_ h: inout Words, _ block: UnsafePointer<UInt8>, _ w: UnsafeMutablePointer<UInt32>) {
        for t in 0..<16 {
            w[t] =
                UInt32(block[4 * t]) << 24 | UInt32(block[4 * t + 1]) << 16 | UInt32(block[4 * t + 2]) << 8
                | UInt32(block[4 * t + 3])
        }
        for t in 16..<80 { w[t] = rotate(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1) }
        var (a, b, c, d, e) = h
        for t in 0..<20 {
            (e, d, c, b, a) = (d, c, rotate(b, 30), a, rotate(a, 5) &+ (b & c | ~b & d) &+ e &+ 0x5A82_7999 &+ w[t])
        }
        for t in 20..<40 {
            (e, d, c, b, a) = (d, c, rotate(b, 30), a, rotate(a, 5) &+ (b ^ c ^ d) &+ e &+ 0x6ED9_EBA1 &+ w[t])
        }
        for t in 40..<60 {
            (e, d, c, b, a) = (
                d, c, rotate(b, 30), a, rotate(a, 5) &+ (b & c | b & d | c & d) &+ e &+ 0x8F1B_BCDC &+ w[t]
            )
        }
        for t in 60..<80 {
            (e, d, c, b, a) = (d, c, rotate(b, 30), a, rotate(a, 5) &+ (b ^ c ^ d) &+ e &+ 0xCA62_C1D6 &+ w[t])
        }
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { value << count | value >> (32 - count) }
}
