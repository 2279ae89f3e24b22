import ExpenseLogModel
import Testing

/// `UTF8Text` says what the standard library says of every byte sequence: the same strings, the same refusals.
@Suite struct UTF8TextTests {
    static func agrees(_ bytes: [UInt8]) -> Bool {
        let ours = bytes.withUnsafeBufferPointer { UTF8Text.string($0) }
        let standard = String(validating: bytes, as: UTF8.self)
        return ours == standard && ours?.utf8.elementsEqual(bytes) != false
    }

    @Test(
        "the edges of table 3-7: overlong forms, surrogates, past U+10FFFF, cut short, and Japanese text",
        arguments: [
            [], Array("コーヒー 350円, ｺｰﾋｰ and ascii".utf8), [0x7F], [0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xC2, 0x80],
            [0xDF, 0xBF],
            [0xE0, 0x9F, 0x80], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF],
            [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xE3, 0x81], [0xF0, 0x9F, 0x98], Array("12345678コ".utf8.dropLast()),
        ] as [[UInt8]])
    func edges(bytes: [UInt8]) {
        #expect(Self.agrees(bytes), "\(bytes)")
    }

    @Test("random byte strings, mostly ASCII with some UTF-8 and some damage, agree with String(validating:)")
    func random() {
        var generator = SeededGenerator(seed: 34)
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("12345678".utf8), Array("円".utf8), Array("🍣".utf8), Array("é".utf8),
            [0x80], [0xE3], [0xF0, 0x9F], [0xED, 0xA0, 0x80], [0xC0, 0xAF],
        ]
        var refused = 0
        for _ in 0..<5_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                bytes += pieces.randomElement(using: &generator) ?? []
            }
            #expect(Self.agrees(bytes), "\(bytes)")
            if String(validating: bytes, as: UTF8.self) == nil { refused += 1 }
        }
        #expect(refused > 500 && refused < 4_500, "the sample holds both kinds: \(refused) refused")
    }
}

/// A deterministic generator (SplitMix64), so a failure is the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
