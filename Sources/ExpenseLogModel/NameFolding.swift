import Foundation

/// Names as people and statements write them, made comparable: `ﾏｲﾊﾞｽｹｯﾄ`, `マイバスケット` and `まいばすけっと` are one
/// shop, and so are `ＡＭＡＺＯＮ` and `amazon`, and a bank's `ﾀﾞｲﾜｼﾖｳｹﾝ` and `ダイワショウケン` (banks print names in
/// the Zengin character set, whose kana has no small letters).
public enum NameFolding {
    /// `text` in NFKC (full-width letters and half-width kana made ordinary), case folded, katakana as hiragana, small
    /// kana as large.
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return hiragana(compatible(text).folding(options: [.caseInsensitive], locale: nil))
    }

    /// `text` in NFKC, case kept, katakana as hiragana, small kana as large: how a regular expression over folded text is written, so that a
    /// range of katakana (`[ァ-ン]`) stays a range.
    public static func foldKeepingCase(_ text: String) -> String {
        hiragana(compatible(text))
    }

    /// `text` in NFKC (full-width letters and half-width kana made ordinary), case kept; ASCII as it is.
    public static func compatible(_ text: String) -> String {
        // Composed again: swift-corelibs-foundation leaves a half-width kana's voiced mark apart (`ｼﾞ` as `シ` and U+3099),
        // which compares equal but prints and searches as two characters.
        text.unicodeScalars.allSatisfy(isStable)
            ? text : text.precomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping
    }

    /// Katakana as the hiragana of the same sound (`ァ`…`ヶ`, `ヽ`, `ヾ`), and small kana as large (`ゃ` as `や`: banks print
    /// names without small kana, so `ｼﾖｳｹﾝ` is `ショウケン`); `ー` and the rest as they are.
    public static func hiragana(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isKatakana($0) || large[$0.value] != nil }) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let kana = isKatakana(scalar) ? scalar.value - 0x60 : scalar.value
            scalars.append(Unicode.Scalar(large[kana] ?? kana) ?? scalar)
        }
        return String(scalars)
    }

    /// Small hiragana and the large ones they are written for.
    private static let large: [UInt32: UInt32] = [
        0x3041: 0x3042, 0x3043: 0x3044, 0x3045: 0x3046, 0x3047: 0x3048, 0x3049: 0x304A,
        0x3063: 0x3064, 0x3083: 0x3084, 0x3085: 0x3086, 0x3087: 0x3088, 0x308E: 0x308F,
        0x3095: 0x304B, 0x3096: 0x3051,
    ]

    private static func isKatakana(_ scalar: Unicode.Scalar) -> Bool {
        (0x30A1...0x30F6).contains(scalar.value) || (0x30FD...0x30FE).contains(scalar.value)
    }

    /// Whether NFKC leaves this scalar as it is whatever stands beside it: ASCII, kana, the common kanji and Japanese
    /// punctuation, most of a name. Skipping texts made only of them keeps a large import from normalising every name.
    private static func isStable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E, 0x3001...0x3002, 0x3005...0x3007, 0x300C...0x300F, 0x3041...0x3096, 0x309D...0x309E,
            0x30A1...0x30FE,
            0x4E00...0x9FFF:
            return true
        default:
            return false
        }
    }
}
