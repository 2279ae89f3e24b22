/// A date layout such as `yyyy/M/d`, `dd.MM.yyyy` or `yyyy年M月d日`, read without `DateFormatter` or a time zone.
public struct DatePattern: Sendable, Equatable, CustomStringConvertible {
    enum Part: Sendable, Equatable {
        case year
        /// Month or day; `exact` means two digits (`MM`), else one or two (`M`).
        case month(exact: Bool)
        case day(exact: Bool)
        case literal(Unicode.Scalar)
    }

    let parts: [Part]
    /// The pattern as written.
    public let description: String

    /// A pattern of `yyyy`, `MM`/`M`, `dd`/`d` and literal separators; nil unless it has exactly one of each.
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
            case ("M", 1...2): parts.append(.month(exact: run == 2))
            case ("d", 1...2): parts.append(.day(exact: run == 2))
            case ("y", _), ("M", _), ("d", _): return nil
            default: parts.append(contentsOf: Array(repeating: .literal(scalar), count: run))
            }
            index += run
        }
        let fields = parts.filter { if case .literal = $0 { false } else { true } }
        guard fields.count == 3, fields.contains(.year),
              fields.contains(where: { if case .month = $0 { true } else { false } }),
              fields.contains(where: { if case .day = $0 { true } else { false } }) else { return nil }
        // Two numbers with nothing between them are only readable when the first has a fixed width.
        for (left, right) in zip(parts, parts.dropFirst()) {
            if case .literal = left { continue }
            if case .literal = right { continue }
            if left == .month(exact: false) || left == .day(exact: false) { return nil }
        }
        self.parts = parts
        self.description = text
    }

    /// The day the text names, or nil when it does not fit the pattern or is not a real day.
    public func day(from text: String) -> Day? {
        // Only the ends are trimmed: a space inside may be one of the layout's separators.
        let scalars = Array(text.unicodeScalars.drop { $0.properties.isWhitespace }.reversed()
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
            case .month(let exact): guard let value = number(min: exact ? 2 : 1, max: 2) else { return nil }; month = value
            case .day(let exact): guard let value = number(min: exact ? 2 : 1, max: 2) else { return nil }; day = value
            case .literal(let scalar):
                guard index < scalars.count, scalars[index] == scalar else { return nil }
                index += 1
            }
        }
        guard index == scalars.count else { return nil }
        return Day(year: year, month: month, day: day)
    }
}
