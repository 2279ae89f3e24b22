extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (Unicode Zs, U+0009 and U+200B): what
    /// `trimmingCharacters(in: .whitespaces)` gives, without its trip through NSString, which took a tenth of
    /// a large import's time. Text with nothing to trim is returned as it is.
    public func trimmingSpaces() -> String {
        // Most text starts and ends with an ASCII byte that is no space: nothing to trim, decided from two bytes (a space
        // past ASCII ends with a continuation byte, 0x80 or more).
        let text = String(self)
        let plain = text.withUTF8Bytes { bytes in
            guard let first = bytes.first, let last = bytes.last else { return true }
            return first < 0x80 && last < 0x80 && first != 0x20 && first != 0x09 && last != 0x20 && last != 0x09
        }
        if plain { return text }
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last, isSpace(first) || isSpace(last) else { return text }
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, isSpace(scalars[start]) { start = scalars.index(after: start) }
        while end > start, isSpace(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return String(String.UnicodeScalarView(scalars[start..<end]))
    }

    private func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        // Foundation's set on Linux also holds U+200B ZERO WIDTH SPACE (common in text pasted from web pages).
        scalar == "\t" || scalar == "\u{200B}" || scalar.isSpaceSeparator
    }

    /// Whether every character is whitespace (empty text too). Most text is decided by its first scalar, without going
    /// through its characters.
    public var isBlank: Bool {
        guard let first = unicodeScalars.first else { return true }
        return first.isWhiteSpace && allSatisfy(\.isWhitespace)
    }
}

extension Unicode.Scalar {
    /// Whether it is one of Unicode's space separators (general category Zs), from the category's fixed list: looking the
    /// category up was a tenth of reading a large import's names.
    var isSpaceSeparator: Bool {
        switch value {
        case 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// Whether it has Unicode's White_Space property (as `Character.isWhitespace` asks of a character's first scalar),
    /// from the property's fixed list.
    var isWhiteSpace: Bool {
        switch value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}
