import ExpenseLogFormats
import Foundation
import Testing

/// Text that needs JSON's escapes is written with them, byte by byte, and reads back as it was.
@Suite struct ItemJSONEscapeTests {
    @Test func quotesBackslashesAndControlCharactersAreEscapedAndJapaneseIsKept() throws {
        let text = "a\"b\\c\nd\re\tf\u{01}\u{1F}カフェ \"駅前\" 🍣"
        let written = ItemJSON.string(text)
        #expect(written == #""a\"b\\c\nd\re\tf\u0001\u001fカフェ \"駅前\" 🍣""#)
        let read = try JSONSerialization.jsonObject(with: Data("[\(written)]".utf8)) as? [String]
        #expect(read == [text])
    }
}
