/// Terminal column widths, so tables line up when names are in Japanese (two columns a character).
public enum TextWidth {
    /// The number of terminal columns a string takes.
    public static func of(_ text: String) -> Int {
        // Printable ASCII is one column a byte; only other text needs splitting into characters.
        if text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
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
