/// Random (version 4) UUIDs in the uppercase form `UUID().uuidString` gives.
///
/// Foundation's `UUID()` opens and reads /dev/urandom for every UUID on Linux; an import of 100,000 rows spent more
/// time in those system calls than in reading the rows. This draws from the system generator instead.
public enum RandomID {
    /// A new random UUID string, e.g. `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_4000   // version 4
        let low = generator.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000    // RFC 4122 variant
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes = [UInt8]()
        bytes.reserveCapacity(36)
        for index in 0..<32 {
            if index == 8 || index == 12 || index == 16 || index == 20 { bytes.append(UInt8(ascii: "-")) }
            let word = index < 16 ? high : low
            bytes.append(digits[Int(word >> (60 - 4 * (index % 16)) & 0xF)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
