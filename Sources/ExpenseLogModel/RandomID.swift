import Synchronization

/// Random (version 4) UUIDs in the uppercase form `UUID().uuidString` gives.
///
/// Foundation's `UUID()` opens and reads /dev/urandom for every UUID on Linux, and the system generator is a
/// system call per 8 bytes: for a 100,000-row import both cost more than reading the rows. Ids are only names
/// that must not collide, not secrets, so they come from xoshiro256** seeded with 256 bits from the system.
public enum RandomID {
    private static let generator = Mutex(Xoshiro256())

    /// A new random UUID string, e.g. `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
    public static func make() -> String {
        let (first, second) = generator.withLock { ($0.next(), $0.next()) }
        let high = first & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_4000  // version 4
        let low = second & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000  // RFC 4122 variant
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

    /// Whether an id is a random (version 4) UUID, as the app and `add` make them, in either case: an item a person
    /// typed, where an import's rows have made (version 5) ids or a bank's own.
    public static func isRandom(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else if !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte),
                !(UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
            {
                return false
            }
        }
        return bytes[14] == UInt8(ascii: "4")
    }
}

/// xoshiro256** (Blackman and Vigna), seeded from the system's generator.
struct Xoshiro256: RandomNumberGenerator, Sendable {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    init() {
        var system = SystemRandomNumberGenerator()
        state = (system.next(), system.next(), system.next(), system.next())
        if state == (0, 0, 0, 0) { state.0 = 1 }  // the one state it cannot leave
    }

    mutating func next() -> UInt64 {
        let result = (state.1 &* 5).rotatedLeft(by: 7) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = state.3.rotatedLeft(by: 45)
        return result
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(by count: UInt64) -> UInt64 {
        self << count | self >> (64 - count)
    }
}
