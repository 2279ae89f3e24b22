import Foundation

/// A date layout such as `yyyy/M/d`, `dd.MM.yyyy` or `yyyy年M月d日`, read without `DateFormatter` or a time zone.
public struct DatePattern: Sendable, Equatable, CustomStringConvertible {
    enum Part: Sendable, Equatable {
        case year
        /// `yy`: two digits, of the years 2000–2099 (card statements write `24/01/05`).
        case shortYear
        /// Month or day; `exact` means two digits (`MM`), else one or two (`M`).
        case month(exact: Bool)
        case day(exact: Bool)
        case literal(Unicode.Scalar)
    }

    let parts: [Part]
    /// The pattern as written.
    public let description: String

    /// A pattern of `yyyy` (or `yy`), `MM`/`M`, `dd`/`d` and literal separators; nil unless it has exactly one of each.
    public init?(_ text: String) {
        var parts: [Part] = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            var run = 1
            while index + run < scalars.count, scalars[index + run] == scalar { run += 1 }
            switch (scalar, run) {
            case ("y", 4): parts.append(.year)
            case ("y", 2): parts.append(.shortYear)
            case ("M", 1...2): parts.append(.month(exact: run == 2))
            case ("d", 1...2): parts.append(.day(exact: run == 2))
            case ("y", _), ("M", _), ("d", _): return nil
            default: parts.append(contentsOf: Array(repeating: .literal(scalar), count: run))
            }
            index += run
        }
        let fields = parts.filter { if case .literal = $0 { false } else { true } }
        guard fields.count == 3, fields.contains(.year) || fields.contains(.shortYear),
            fields.contains(where: { if case .month = $0 { true } else { false } }),
            fields.contains(where: { if case .day = $0 { true } else { false } })
        else { return nil }
        // Two numbers with nothing between them are only readable when the first has a fixed width.
        for (left, right) in zip(parts, parts.dropFirst()) {
            if case .literal = left { continue }
            if case .literal = right { continue }
            if left == .month(exact: false) || left == .day(exact: false) { return nil }
        }
        self.parts = parts
        self.description = text
    }

    /// The day the text names (a time after it ignored), or nil when it does not fit the pattern or is not a real day.
    public func day(from text: String) -> Day? {
        fields(of: text).flatMap { Day(year: $0.year, month: $0.month, day: $0.day) }
    }

    /// `problem`'s words in Japanese.
    public func japaneseProblem(_ text: String) -> String {
        fields(of: text) == nil ? "「\(text)」はプロファイルの dateFormat \(description) に合いません" : "「\(text)」は実在する日ではありません"
    }

    /// Why `text` is not a day in this layout: it does not fit it, or it is not a real day.
    public func problem(_ text: String) -> String {
        guard fields(of: text) != nil else { return "'\(text)' does not fit the profile's dateFormat \(description)" }
        return "'\(text)' is not a real day"
    }

    /// The numbers the text gives in this layout, not yet checked as a real day.
    private func fields(of text: String) -> (year: Int, month: Int, day: Int)? {
        // Only the ends are trimmed: a space inside may be one of the layout's separators.
        // Full-width digits are read as digits.
        let text = text.utf8.allSatisfy { $0 < 0x80 } ? text : text.precomposedStringWithCompatibilityMapping
        let scalars = Array(
            text.unicodeScalars.drop { $0.properties.isWhitespace }.reversed()
                .drop { $0.properties.isWhitespace }.reversed())
        var index = 0
        var year = 0, month = 0, day = 0
        func number(min: Int, max: Int) -> Int? {
            var value = 0, count = 0
            while count < max, index < scalars.count, ("0"..."9").contains(scalars[index]) {
                value = value * 10 + Int(scalars[index].value - 0x30)
                index += 1
                count += 1
            }
            return count >= min ? value : nil
        }
        for part in parts {
            switch part {
            case .year: guard let value = number(min: 4, max: 4) else { return nil }; year = value
            case .shortYear: guard let value = number(min: 2, max: 2) else { return nil }; year = 2000 + value
            case .month(let exact):
                guard let value = number(min: exact ? 2 : 1, max: 2) else { return nil }; month = value
            case .day(let exact): guard let value = number(min: exact ? 2 : 1, max: 2) else { return nil }; day = value
            case .literal(let scalar):
                guard index < scalars.count, scalars[index] == scalar else { return nil }
                index += 1
            }
        }
        // A time of day after the date (`2026/11/03 0:00`) leaves the day as it is.
        if index < scalars.count {
            let rest = Array(String(String.UnicodeScalarView(scalars[index...])).utf8)
            guard rest.first == 0x20 || rest.first == UInt8(ascii: "T"),
                WrittenDateParts.dropTime(([0x30] + rest)[...])?.count == 1
            else { return nil }
        }
        return (year, month, day)
    }
}
