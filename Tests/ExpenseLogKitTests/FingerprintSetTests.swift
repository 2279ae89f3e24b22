import ExpenseLogModel
import Testing

/// The fingerprint set answers as `Set<UInt64>` does, through its growth, for 0 too.
@Suite struct FingerprintSetTests {
    @Test func insertsAndRefusesRepeatsAsASetDoes() {
        var generator = SeededGenerator(seed: 9)
        var ours = FingerprintSet(), theirs = Set<UInt64>()
        // A pool small enough for repeats, with 0 and the highest value in it.
        let pool = (0..<3_000).map { _ in UInt64.random(in: .min ... .max, using: &generator) } + [0, .max]
        for _ in 0..<20_000 {
            let value = pool.randomElement(using: &generator) ?? 0
            #expect(ours.insert(value) == theirs.insert(value).inserted)
        }
        #expect(ours.count == theirs.count)
        #expect(Set(ours.elements) == theirs)
        #expect(ours.elements.count == theirs.count)
    }
}
