/// A set of 64-bit fingerprints (content hashes) in one array, open addressing with linear probing, filled to 7/8: the
/// import keeps one per CSV row without an id, and `Set<Int>`, which grows at 3/4 to twice its size, held 2 MiB for
/// 100,000 rows where this holds 1 MiB.
public struct FingerprintSet: Sendable {
    /// The slots; 0 marks an empty one (the fingerprint 0 is kept aside, in `hasZero`).
    private var slots = [UInt64](repeating: 0, count: 16)
    private var hasZero = false
    /// How many fingerprints it holds.
    public private(set) var count = 0

    /// An empty set.
    public init() {}

    /// Adds a fingerprint; returns whether it was new.
    @discardableResult
    public mutating func insert(_ fingerprint: UInt64) -> Bool {
        if fingerprint == 0 {
            defer { hasZero = true }
            if hasZero { return false }
            count += 1
            return true
        }
        if (count + 1) * 8 > slots.count * 7 { grow() }
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: fingerprint >> 7 ^ fingerprint) & mask
        while slots[index] != 0 {
            if slots[index] == fingerprint { return false }
            index = (index + 1) & mask
        }
        slots[index] = fingerprint
        count += 1
        return true
    }

    /// Every fingerprint, in no order.
    public var elements: [UInt64] { slots.filter { $0 != 0 } + (hasZero ? [0] : []) }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        let mask = slots.count - 1
        for fingerprint in old where fingerprint != 0 {
            var index = Int(truncatingIfNeeded: fingerprint >> 7 ^ fingerprint) & mask
            while slots[index] != 0 { index = (index + 1) & mask }
            slots[index] = fingerprint
        }
    }
}
