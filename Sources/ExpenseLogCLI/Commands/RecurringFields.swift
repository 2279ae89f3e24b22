import ExpenseLogModel
import Foundation

/// The parts of a fixed cost `recurring add` and `recurring edit` both read from the command line, as a person types
/// them (full-width digits, ¥ and commas, 〜 between two amounts).
struct RecurringFields {
    var about: String?
    var from: String?
    var until: String?
    var match: String?

    /// Sets the parts given on `rule`; a value that cannot be read is a usage error naming its option.
    func apply(to rule: inout RecurringRule, _ context: Context) throws {
        let fail = { (message: String) in UsageError(path: context.invocation.path, message: message) }
        if let about {
            let text = NameFolding.compatible(about.trimmingSpaces())
            if ["", "none", "なし"].contains(text) {
                rule.about = nil
            } else if let range = Self.range(text, around: rule.price) {
                rule.about = range
            } else {
                throw fail("--about takes two amounts (4000-12000) or a margin (±500), not '\(about)'")
            }
        }
        if let from {
            // A rule without a first month would be posted from whatever month a run names: it keeps one.
            guard let month = try Self.month(from, "--from", context) else {
                throw fail("--from needs a month (2027-01): a fixed cost is posted from its first month on")
            }
            rule.from = month
        }
        if let until { rule.until = try Self.month(until, "--until", context) }
        if let from = rule.from, let until = rule.until, until < from {
            throw fail("--until \(until) is before the first month \(from)")
        }
        if let range = rule.about, !range.contains(rule.price) {
            throw fail(
                "--about \(PriceText.yen(range.lowerBound))–\(PriceText.yen(range.upperBound)) leaves out the price "
                    + "\(PriceText.yen(rule.price)) itself; give a range around it")
        }
        if let match {
            rule.match = match.split(whereSeparator: { " ,、，\u{3000}".contains($0) }).map(String.init)
        }
    }

    /// A price as `add` reads it (980, ¥85,000, 85,000円); a usage error otherwise.
    static func price(_ text: String, _ context: Context) throws -> Int {
        guard let price = PriceText.parse(text), price != 0 else {
            throw UsageError(
                path: context.invocation.path,
                message: "the price must be yen other than 0 (85000, ¥85,000), not '\(text)'")
        }
        return price
    }

    /// `4000-12000`, `4,000〜12,000` or `±500` (around `price`).
    static func range(_ text: String, around price: Int) -> ClosedRange<Int>? {
        for margin in ["±", "+-", "+/-"] where text.hasPrefix(margin) {
            guard let amount = PriceText.parse(String(text.dropFirst(margin.count))), amount >= 0 else { return nil }
            return (price - amount)...(price + amount)
        }
        let parts = text.split(whereSeparator: { "-〜~～".contains($0) }).map(String.init)
        guard parts.count == 2, let low = PriceText.parse(parts[0]), let high = PriceText.parse(parts[1]) else {
            return nil
        }
        return min(low, high)...max(low, high)
    }

    /// A month as a person types it (2027-01, 2027/1, 202701, 2027年1月); none for `none`.
    static func month(_ text: String, _ option: String, _ context: Context) throws -> YearMonth? {
        let trimmed = NameFolding.compatible(text.trimmingSpaces())
        if ["none", "なし", ""].contains(trimmed) { return nil }
        if case .month(let month)? = Period(parsing: trimmed) { return month }
        throw UsageError(
            path: context.invocation.path, message: "\(option) takes a month (2027-01, 2027年1月), not '\(text)'")
    }
}
