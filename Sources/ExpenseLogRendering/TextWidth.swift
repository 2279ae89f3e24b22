/// Terminal column widths, so tables line up when names are in Japanese (two columns a character).
public enum TextWidth {
    /// The number of terminal columns a string takes.
    public static func of(_ text: String) -> Int {
        // Printable ASCII is one column a byte; only other text needs splitting into characters.
        if text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) { return text.utf8.count }
        return simpleWidth(text) ?? text.reduce(0) { $0 + of($1) }
    }

    /// The width of text made only of printable ASCII, Latin-1, kana (half-width too), CJK ideographs, CJK punctuation,
    /// fullwidth forms and the kana voicing marks, summed scalar by scalar; nil for anything else. None of these can
    /// start an emoji, so how they group into characters cannot change the sum, and splitting into characters was
    /// most of drawing a table of Japanese names.
    static func simpleWidth(_ text: String) -> Int? {
        var width = 0
        for scalar in text.unicodeScalars {
            guard let columns = simpleWidth(of: scalar.value) else { return nil }
            width += columns
        }
        return width
    }

    /// One scalar's columns for `simpleWidth`, or nil when it is not one of those it sums.
    static func simpleWidth(of scalar: UInt32) -> Int? {
        switch scalar {
        case 0x20..<0x7F: 1
        // Not U+302A–U+302F or U+3099–U+309A: those combine with the character before them.
        case 0x3000...0x3029, 0x3030...0x303E, 0x3041...0x3096, 0x309B...0x30FF, 0x4E00...0x9FFF, 0xFF01...0xFF60: 2
        // Half-width katakana and their own voicing marks ﾞ and ﾟ: Swift joins ﾊﾞ into one character, a terminal
        // draws it in two columns.
        case 0xFF61...0xFF9F, 0xA0...0xFF: 1
        case 0x3099...0x309A: 0
        default: nil
        }
    }

    /// The columns one character (grapheme cluster) takes: 2 for an emoji, else the sum of its scalars' widths.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        if isEmoji(scalars) { return 2 }
        return scalars.reduce(0) { $0 + of($1) }
    }

    /// The columns one scalar takes on its own: 2 for East Asian Wide and Fullwidth, 0 for a mark that combines or a
    /// format control that is not drawn, else 1 (Ambiguous too, as terminals outside CJK locales draw it).
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return 1 }  // ASCII and Latin; controls too, as before (a name holds none that is drawn)
        if EastAsianWidth.isWide(value) {
            // A few wide code points are marks that combine (U+3099, U+302A–U+302D), drawn over the character before.
            return isCombining(scalar) ? 0 : 2
        }
        // Hangul vowel and final-consonant jamo join the initial consonant into one syllable two columns wide.
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        return isCombining(scalar) || scalar.properties.generalCategory == .format ? 0 : 1
    }

    private static func isCombining(_ scalar: Unicode.Scalar) -> Bool {
        let category = scalar.properties.generalCategory
        return category == .nonspacingMark || category == .enclosingMark
    }

    /// Whether a character is drawn as one emoji picture, two columns however many scalars make it: an emoji shown as
    /// such by default (🍜, a flag's regional indicators), or asked for by VS16 (❤️), a skin tone (👍🏽), or a ZWJ
    /// sequence (👨‍👩‍👧). A digit or ♥ alone is text, one column.
    static func isEmoji(_ scalars: Character.UnicodeScalarView) -> Bool {
        guard let first = scalars.first else { return false }
        // No scalar below U+231A has Emoji_Presentation, and a lone scalar can only be an emoji by that property, so
        // most text never asks for the (slow) properties.
        var rest = scalars.dropFirst()
        if rest.isEmpty { return first.value >= 0x231A && first.properties.isEmojiPresentation }
        guard first.value >= 0x23, first.properties.isEmoji else { return false }
        if first.properties.isEmojiPresentation { return true }
        while let scalar = rest.popFirst() {
            switch scalar.value {
            case 0xFE0F, 0x1F3FB...0x1F3FF: return true
            case 0x200D where !rest.isEmpty: return true  // a joiner joins only when another emoji follows it
            default: continue
            }
        }
        return false
    }
}
