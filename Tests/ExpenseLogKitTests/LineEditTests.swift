import Testing

@testable import ExpenseLogCLI

/// The line editing at every prompt, key by key: what a terminal sends for each key, and the line and cursor it leaves.
@Suite struct LineEditTests {
    /// Types the bytes into an empty line; the answer when they end it, and the line as it stands.
    static func type(_ bytes: String) -> (answer: TypedLine?, edit: LineEdit) {
        var decoder = KeyDecoder(), edit = LineEdit()
        for key in decoder.keys(Array(bytes.utf8)) {
            if let answer = edit.apply(key) { return (answer, edit) }
        }
        return (nil, edit)
    }

    @Test func arrowsMoveByCharacterSoAKanaCanBeInsertedMidWord() {
        #expect(Self.type("ラメン\u{1B}[D\u{1B}[Dー\r").answer == .line("ラーメン"))
        #expect(Self.type("ラメン\u{1B}OD\u{1B}ODー\r").answer == .line("ラーメン"), "application-mode arrows too")
        #expect(Self.type("ーメン\u{1B}[Hラ\u{1B}[F!\r").answer == .line("ラーメン!"), "Home and End")
        #expect(Self.type("ーメン\u{01}ラ\u{05}!\r").answer == .line("ラーメン!"), "Ctrl-A and Ctrl-E")
    }

    @Test func backspaceDeleteAndWordDeletionEditWhatWasTyped() {
        #expect(Self.type("コーヒ-\u{7F}ー\r").answer == .line("コーヒー"))
        #expect(
            Self.type("abc\u{1B}[D\u{1B}[D\u{1B}[3~\r").answer == .line("ac"),
            "Delete removes the character under the cursor")
        #expect(Self.type("スタバ ラテ\u{17}\r").answer == .line("スタバ "), "Ctrl-W deletes the word before the cursor")
        #expect(Self.type("スタバ ラテ\u{1B}[1;5DX\r").answer == .line("スタバ Xラテ"), "Ctrl-Left moves a word")
        #expect(Self.type("old\u{15}new\r").answer == .line("new"), "Ctrl-U deletes to the start")
        #expect(Self.type("keep cut\u{1B}b\u{0B}\r").answer == .line("keep "), "Alt-B and Ctrl-K")
    }

    @Test func controlKeysEndTheLineOrAreIgnoredButNeverBecomeText() {
        #expect(Self.type("半分\u{03}").answer == .interrupted)
        #expect(Self.type("\u{04}").answer == .end, "Ctrl-D on an empty line ends the input")
        #expect(Self.type("ab\u{01}\u{04}\r").answer == .line("b"), "Ctrl-D within a line deletes")
        #expect(
            Self.type("a\u{1B}[Ab\tc\u{1B}[200~d\r").answer == .line("abcd"), "up, Tab and unknown sequences do nothing"
        )
        #expect(Self.type("x\u{85}y\r").answer == .line("xy"), "a C1 control is no text")
        #expect(Self.type("ok\u{1B}\r").answer == .line("ok"), "Esc alone, then Enter: the Enter still ends the line")
        var decoder = KeyDecoder()
        #expect(
            decoder.keys(Array("a\r\nb\r\n".utf8)) == [.text("a"), .enter, .text("b"), .enter], "CR LF is one Enter")
    }

    @Test func aKeySplitAcrossReadsWaitsForItsLastByte() {
        var decoder = KeyDecoder()
        let bytes = Array("ー\u{1B}[D".utf8)
        #expect(decoder.keys(bytes[..<2]).isEmpty)
        #expect(decoder.keys(bytes[2..<4]) == [.text("ー")])
        #expect(decoder.keys(bytes[4...]) == [.left])
    }

    @Test func theRedrawPutsTheCursorBackByColumnsNotCharacters() {
        let (_, edit) = Self.type("ラーメンx\u{1B}[D\u{1B}[D\u{1B}[D")
        // メンx after the cursor take five columns (メ and ン two each).
        // The prompt is on screen already: the cursor moves past its last line (6 columns) instead of writing it again.
        #expect(edit.drawing(after: "Which?\nName: ", secret: false) == "\r\u{1B}[6Cラーメンx\u{1B}[K\u{1B}[5D")
        #expect(edit.drawing(after: "Token: ", secret: true) == "\r\u{1B}[7C\u{1B}[K", "a secret shows nothing typed")
        // A voicing mark typed apart joins the kana before it: one character, one step of the cursor.
        #expect(Self.type("カ\u{3099}\u{1B}[Dx\r").answer == .line("xガ".decomposedStringWithCanonicalMapping))
    }

    @Test func aLineWiderThanTheTerminalScrollsSidewaysAroundTheCursor() {
        let (_, edit) = Self.type(String(repeating: "あ", count: 30) + "\u{1B}[H\u{1B}[C")
        // 20 columns, a prompt of 2: 17 columns of text at most, the cursor kept in view.
        let start = edit.drawing(after: "> ", secret: false, columns: 20)
        #expect(
            start == "\r\u{1B}[2C" + String(repeating: "あ", count: 8) + "\u{1B}[K\u{1B}[14D",
            "\(start.debugDescription)")
        var decoder = KeyDecoder(), moved = edit
        for key in decoder.keys(Array("\u{1B}[F".utf8)) { _ = moved.apply(key) }
        #expect(
            moved.drawing(after: "> ", secret: false, columns: 20) == "\r\u{1B}[2C" + String(repeating: "あ", count: 8)
                + "\u{1B}[K",
            "at the end, the last characters are shown")
    }
}
