import Foundation

/// Names as people and statements write them, made comparable: `ﾏｲﾊﾞｽｹｯﾄ`, `マイバスケット` and `まいばすけっと` are one
/// shop, and so are `ＡＭＡＺＯＮ` and `amazon`.
public enum NameFolding {
    /// `text` in NFKC (full-width letters and half-width kana made ordinary), case folded, katakana as hiragana.
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return hiragana(compatible(text).folding(options: [.caseInsensitive], locale: nil))
    }

    /// `text` in NFKC, case kept, katakana as hiragana: how a regular expression over folded text is written, so that a
    /// range of katakana (`[ァ-ン]`) stays a range.
    public static func foldKeepingCase(_ text: String) -> String {
        hiragana(compatible(text))
    }

    /// `text` in NFKC (full-width letters and half-width kana made ordinary), case kept; ASCII as it is.
    public static func compatible(_ text: String) -> String {
        text.unicodeScalars.allSatisfy(isStable) ? text : text.precomposedStringWithCompatibilityMapping
    }

    /// Katakana as the hiragana of the same sound (`ァ`…`ヶ`, `ヽ`, `ヾ`); `ー` and the rest as they are.
    public static func hiragana(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isKatakana) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(isKatakana(scalar) ? Unicode.Scalar(scalar.value - 0x60) ?? scalar : scalar)
        }
        return String(scalars)
    }

    private static func isKatakana(_ scalar: Unicode.Scalar) -> Bool {
        (0x30A1...0x30F6).contains(scalar.value) || (0x30FD...0x30FE).contains(scalar.value)
    }

    /// Whether NFKC leaves this scalar as it is whatever stands beside it: ASCII, kana, the common kanji and Japanese
    /// punctuation, most of a name. Skipping texts made only of them keeps a large import from normalising every name.
    private static func isStable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E, 0x3001...0x3002, 0x3005...0x3007, 0x300C...0x300F, 0x3041...0x3096, 0x309D...0x309E, 0x30A1...0x30FE,
             0x4E00...0x9FFF:
            return true
        default:
            return false
        }
    }
}
