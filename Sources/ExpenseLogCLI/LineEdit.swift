import ExpenseLogRendering

/// What a person did at a prompt: typed a line, ended the input (Ctrl-D on an empty line), or interrupted (Ctrl-C).
public enum TypedLine: Sendable, Equatable {
    /// A line, without its line break.
    case line(String)
    /// The end of input: the question goes unanswered.
    case end
    /// Ctrl-C: the command stops (exit 130).
    case interrupted
}

/// One key as a terminal in raw mode sends it.
enum Key: Equatable {
    case text(String), enter, interrupt, endOfInput, backspace, delete
    case left, right, home, end, wordLeft, wordRight, deleteWordBefore, deleteToStart, deleteToEnd, redraw, ignored
}

/// Turns the bytes a terminal sends into keys: UTF-8 text, control characters, and the escape sequences of arrow,
/// Home, End and Delete (xterm's `ESC [ D`, the VT220 `ESC [ 3 ~`, the application mode `ESC O H`). Bytes of a key not
/// yet complete wait for the next read.
struct KeyDecoder {
    /// Bytes received and not yet taken as keys: a key's start, or what was typed ahead of the next question.
    private(set) var pending: [UInt8] = []

    /// Bytes to take keys from (what was typed ahead first).
    mutating func append(_ bytes: some Sequence<UInt8>) { pending.append(contentsOf: bytes) }

    /// The next complete key, taken off the bytes; nil when more bytes are needed.
    mutating func next() -> Key? {
        guard let (key, length) = Self.key(pending[...]) else { return nil }
        pending.removeFirst(length)
        return key
    }

    /// The keys these bytes complete.
    mutating func keys(_ bytes: some Sequence<UInt8>) -> [Key] {
        append(bytes)
        var keys: [Key] = []
        while let key = next() { keys.append(key) }
        return keys
    }

    /// The key at the start of `bytes` and its length; nil when more bytes are needed.
    private static func key(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
        guard let first = bytes.first else { return nil }
        switch first {
        // CR LF (a paste from a file written on Windows) is one Enter, not an answer and an empty one.
        case 0x0D: return bytes.count >= 2 && bytes[bytes.startIndex + 1] == 0x0A ? (.enter, 2) : (.enter, 1)
        case 0x0A: return (.enter, 1)
        case 0x03: return (.interrupt, 1)
        case 0x04: return (.endOfInput, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x01: return (.home, 1)
        case 0x05: return (.end, 1)
        case 0x02: return (.left, 1)
        case 0x06: return (.right, 1)
        case 0x17: return (.deleteWordBefore, 1)
        case 0x15: return (.deleteToStart, 1)
        case 0x0B: return (.deleteToEnd, 1)
        case 0x0C: return (.redraw, 1)
        case 0x1B: return escape(bytes)
        case ..<0x20: return (.ignored, 1)
        default: return utf8(bytes)
        }
    }

    /// `ESC [ params final` (CSI), `ESC O x` (SS3), or ESC with one key (Alt: `ESC b`, `ESC DEL`).
    private static func escape(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return nil }
        let second = bytes[start + 1]
        if second == UInt8(ascii: "O") {
            guard bytes.count >= 3 else { return nil }
            let keys: [UInt8: Key] = [0x48: .home, 0x46: .end, 0x44: .left, 0x43: .right]
            return (keys[bytes[start + 2]] ?? .ignored, 3)
        }
        // Esc pressed alone, then another key: the Esc is dropped and the key (Enter too) is read as itself.
        if second < 0x20 && second != 0x08 || second >= 0x80 { return (.ignored, 1) }
        guard second == UInt8(ascii: "[") else {
            let alt: [UInt8: Key] = [
                0x62: .wordLeft, 0x66: .wordRight, 0x7F: .deleteWordBefore, 0x08: .deleteWordBefore,
            ]
            return (alt[second] ?? .ignored, 2)
        }
        // Parameters and intermediates run to a final byte in 0x40–0x7E.
        guard let final = bytes.dropFirst(2).firstIndex(where: { (0x40...0x7E).contains($0) }) else {
            return bytes.count > 32 ? (.ignored, bytes.count) : nil
        }
        let parameters = String(decoding: bytes[(start + 2)..<final], as: UTF8.self)
        let length = final - start + 1
        let control = parameters.hasSuffix(";5") || parameters.hasSuffix(";3")  // Ctrl or Alt held
        switch bytes[final] {
        case UInt8(ascii: "D"): return (control ? .wordLeft : .left, length)
        case UInt8(ascii: "C"): return (control ? .wordRight : .right, length)
        case UInt8(ascii: "H"): return (.home, length)
        case UInt8(ascii: "F"): return (.end, length)
        case UInt8(ascii: "~"):
            let keys: [String: Key] = ["1": .home, "7": .home, "4": .end, "8": .end, "3": .delete]
            return (keys[parameters] ?? .ignored, length)
        default: return (.ignored, length)
        }
    }

    /// One UTF-8 character; a byte that starts none is skipped.
    private static func utf8(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
        let first = bytes[bytes.startIndex]
        let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
        guard first < 0x80 || first >= 0xC0 else { return (.ignored, 1) }
        guard bytes.count >= length else { return nil }
        let scalar = bytes.prefix(length)
        // A C1 control (U+0080–U+009F) is no text a name may hold, and could move the cursor if drawn.
        guard let text = String(validating: scalar, as: UTF8.self) else { return (.ignored, 1) }
        return (
            text.unicodeScalars.allSatisfy { $0.properties.generalCategory != .control } ? .text(text) : .ignored,
            length
        )
    }
}

/// A line being typed at a prompt: its characters and the cursor among them, changed key by key as readline changes
/// it, and drawn on one terminal line with each character's width (two columns for kana and kanji).
struct LineEdit {
    private(set) var characters: [Character] = []
    private(set) var cursor = 0

    /// The line typed so far.
    var text: String { String(characters) }

    /// Applies a key; the answer when it ends the line (Enter, Ctrl-C, or Ctrl-D on an empty line).
    mutating func apply(_ key: Key) -> TypedLine? {
        switch key {
        case .enter: return .line(text)
        case .interrupt: return .interrupted
        case .endOfInput:
            if characters.isEmpty { return .end }
            if cursor < characters.count { characters.remove(at: cursor) }
        case .text(let typed):
            // Joined as text, so a combining mark (the ゛ of が typed apart) joins the character before it.
            let before = String(characters[..<cursor]) + typed
            characters = Array(before + String(characters[cursor...]))
            cursor = min(characters.count, before.count)
        case .backspace:
            if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete:
            if cursor < characters.count { characters.remove(at: cursor) }
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = characters.count
        case .wordLeft: cursor = wordStart()
        case .wordRight:
            while cursor < characters.count, characters[cursor].isWhitespace { cursor += 1 }
            while cursor < characters.count, !characters[cursor].isWhitespace { cursor += 1 }
        case .deleteWordBefore:
            let start = wordStart()
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .deleteToStart:
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .deleteToEnd: characters.removeSubrange(cursor...)
        case .redraw, .ignored: break
        }
        return nil
    }

    /// Where the word before the cursor starts (spaces before it skipped), as Ctrl-W and Alt-B find it.
    private func wordStart() -> Int {
        var start = cursor
        while start > 0, characters[start - 1].isWhitespace { start -= 1 }
        while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
        return start
    }

    /// What redraws the text after the prompt's last line (already on screen: the cursor moves past it rather than
    /// writing it again, so the question shows once in the terminal's output), and puts the terminal's cursor back at
    /// the edit's: a secret shows nothing typed. Within `columns`, a line too long to fit scrolls sideways around the
    /// cursor (as linenoise does), since `\r` cannot go back up to a row the line wrapped from.
    func drawing(after prompt: String, secret: Bool, columns: Int? = nil) -> String {
        let promptLine = prompt.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init) ?? prompt
        let promptWidth = TextWidth.of(promptLine)
        // CSI 0 C moves one column on some terminals: no move at all for an empty prompt.
        let start = "\r" + (promptWidth > 0 ? "\u{1B}[\(promptWidth)C" : "")
        guard !secret else { return start + "\u{1B}[K" }
        func width(_ range: Range<Int>) -> Int { characters[range].reduce(0) { $0 + TextWidth.of($1) } }
        var (first, end) = (0, characters.count)
        if let columns {
            // The last column is left free: a character written there makes some terminals wrap at once.
            let room = max(1, columns - promptWidth - 1)
            while first < cursor, width(first..<cursor) >= room { first += 1 }
            while end > cursor, width(first..<end) > room { end -= 1 }
        }
        let back = width(cursor..<end)
        return start + String(characters[first..<end]) + "\u{1B}[K" + (back > 0 ? "\u{1B}[\(back)D" : "")
    }
}
