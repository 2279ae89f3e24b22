/// Terminal column widths, so tables line up when names are in Japanese (two columns a character).
public enum TextWidth {
    /// The number of terminal columns a string takes.
    public static func of(_ text: String) -> Int {
        // Printable ASCII is one column a byte; only other text needs splitting into characters.
        if text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) { return text.utf8.count }
        return simpleWidth(text) ?? text.reduce(0) { $0 + of($1) }
    }

    /// The width of text made only of printable ASCII, kana, CJK ideographs, CJK punctuation and fullwidth forms,
    /// where each scalar is a character of its own; nil for anything else. Splitting into characters was most of
    /// drawing a table of Japanese names.
    static func simpleWidth(_ text: String) -> Int? {
        var width = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x20..<0x7F: width += 1
            // Not U+302A–U+302F or U+3099–U+309A: those combine with the character before them.
            case 0x3000...0x3029, 0x3030...0x303E, 0x3041...0x3096, 0x309B...0x30FF, 0x4E00...0x9FFF, 0xFF01...0xFF60: width += 2
            default: return nil
            }
        }
        return width
    }

    /// The columns one character takes: 2 for East Asian wide and fullwidth, 0 for a lone combining mark.
    public static func of(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        if isWide(scalar.value) { return 2 }
        // No scalar below U+231A has Emoji_Presentation, so most text never asks for the (slow) property.
        if character.unicodeScalars.contains(where: { $0.value >= 0x231A && $0.properties.isEmojiPresentation }) { return 2 }
        return isZeroWidth(scalar.value) ? 0 : 1
    }

    static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    static func isZeroWidth(_ v: UInt32) -> Bool {
        (0x0300...0x036F).contains(v) || (0x200B...0x200F).contains(v) || v == 0xFEFF
    }

    /// Pads on the right to a width in columns.
    public static func padRight(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - of(text)))
    }

    /// Pads on the left to a width in columns.
    public static func padLeft(_ text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - of(text))) + text
    }
}
