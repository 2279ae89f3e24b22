import Testing

@testable import ExpenseLogModel

/// Ids compared as a Google Sheet shows them: text it would retype folds to the retyped form, anything else is itself.
@Suite struct SheetTextTests {
    @Test(arguments: [
        ("00123", "123"), ("true", "TRUE"), ("False", "FALSE"), ("1.50", "1.5"), ("-0.50", "-0.5"), ("1e3", "1000"),
        ("1,500", "1500"),
        // Text a Sheet keeps as text, decided from its bytes: UUIDs whether they start with a letter or a digit, one
        // with only digits, E and dashes (dashes inside are no number), a 20-digit bank id that a Sheet would round.
        ("100000BF-4AAC-48A6-B316-8A533358859B", "100000BF-4AAC-48A6-B316-8A533358859B"),
        ("ABCDEF01-2345-6789-ABCD-EF0123456789", "ABCDEF01-2345-6789-ABCD-EF0123456789"),
        ("12345678-1234-1234-1234-123456789E12", "12345678-1234-1234-1234-123456789E12"),
        ("12345678901234567890", "12345678901234567890"), ("1,5", "1,5"), (" 12", " 12"), ("", ""),
    ])
    func keys(id: String, key: String) {
        #expect(SheetText.key(id) == key)
    }

    @Test func sameBytesTellsNormalisationsApart() {
        let composed = "ガ", decomposed = "カ\u{3099}"
        #expect(composed == decomposed, "Swift's == matches canonical equivalents")
        #expect(!composed.hasSameBytes(as: decomposed))
        #expect(composed.hasSameBytes(as: "ガ") && "".hasSameBytes(as: ""))
        #expect(!"ab".hasSameBytes(as: "ac"))
    }
}
