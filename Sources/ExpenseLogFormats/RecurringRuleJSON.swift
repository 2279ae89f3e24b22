import ExpenseLogModel

/// Fixed-cost rules as JSON, the same on the wire (the bundled script's `rules` action) and in the files that keep them
/// on this machine: `{"id","name","price","low","high","day","month","category","categorySub","every","from","until",
/// "match"}`, `low`/`high` the `--about` range, `from`/`until` months as `yyyy-MM`.
public enum RecurringRuleJSON {
    /// One rule as a single-line object, keys in a fixed order (a file written twice is the same bytes).
    public static func object(_ rule: RecurringRule) -> String {
        func number(_ value: Int?) -> String { value.map(String.init) ?? "null" }
        func month(_ value: YearMonth?) -> String { value.map { "\"\($0)\"" } ?? "null" }
        return "{\"id\":\(ItemJSON.string(rule.id)),\"name\":\(ItemJSON.string(rule.name)),\"price\":\(rule.price),"
            + "\"low\":\(number(rule.about?.lowerBound)),\"high\":\(number(rule.about?.upperBound)),\"day\":\(rule.day),"
            + "\"month\":\(number(rule.month)),\"category\":\(rule.category),\"categorySub\":\(number(rule.categorySub)),"
            + "\"every\":\"\(rule.every.rawValue)\",\"from\":\(month(rule.from)),\"until\":\(month(rule.until)),"
            + "\"match\":[\(rule.match.map(ItemJSON.string).joined(separator: ","))]}"
    }

    /// Rules as an array, one a line.
    public static func array(_ rules: [RecurringRule]) -> String {
        rules.isEmpty ? "[]\n" : "[\n" + rules.map(object).joined(separator: ",\n") + "\n]\n"
    }

    /// The rules of a JSON array; a member that is not a rule is named in the error (`rule 2: day must be 1 to 31`).
    public static func rules(_ value: JSONValue) throws(RuleFormatError) -> [RecurringRule] {
        guard case .array(let list, _) = value else {
            throw RuleFormatError("the rules are \(value.described), not an array")
        }
        var rules: [RecurringRule] = []
        for (index, member) in list.enumerated() {
            do {
                rules.append(try rule(member))
            } catch {
                throw RuleFormatError("rule \(index + 1): \(error.message)")
            }
        }
        return rules
    }

    /// One rule read from its object.
    public static func rule(_ value: JSONValue) throws(RuleFormatError) -> RecurringRule {
        guard case .object(let members, _) = value else { throw RuleFormatError("\(value.described), not an object") }
        func text(_ key: String) throws(RuleFormatError) -> String? {
            switch members[member: key] {
            case .string(let text, _)?: return text
            case nil, .null?: return nil
            case let other?: throw RuleFormatError("\(key) is \(other.described), not a string")
            }
        }
        func whole(_ key: String) throws(RuleFormatError) -> Int? {
            switch members[member: key] {
            case .number(let text, _)?:
                guard let number = Int(text) else { throw RuleFormatError("\(key) \(text) is not a whole number") }
                return number
            case nil, .null?: return nil
            case let other?: throw RuleFormatError("\(key) is \(other.described), not a number")
            }
        }
        func required<T>(_ key: String, _ value: T?) throws(RuleFormatError) -> T {
            guard let value else { throw RuleFormatError("\(key) is missing") }
            return value
        }
        func month(_ key: String) throws(RuleFormatError) -> YearMonth? {
            guard let shown = try text(key) else { return nil }
            guard let month = YearMonth(parsing: shown) else {
                throw RuleFormatError("\(key) \"\(shown)\" is not a month as yyyy-MM")
            }
            return month
        }
        let id = try required("id", try text("id")), name = try required("name", try text("name"))
        guard !id.isEmpty, !name.isEmpty else { throw RuleFormatError("the id and the name must not be empty") }
        let day = try required("day", try whole("day"))
        guard (1...31).contains(day) else { throw RuleFormatError("day must be 1 to 31, not \(day)") }
        let everyText = try text("every") ?? "month"
        guard let every = RecurringRule.Every(rawValue: everyText) else {
            throw RuleFormatError("every must be \"month\" or \"year\", not \"\(everyText)\"")
        }
        let monthOfYear = try whole("month")
        if let monthOfYear, !(1...12).contains(monthOfYear) {
            throw RuleFormatError("month must be 1 to 12, not \(monthOfYear)")
        }
        let price = try required("price", try whole("price"))
        let low = try whole("low"), high = try whole("high")
        var about: ClosedRange<Int>?
        if low != nil || high != nil {
            let bounds = (min(low ?? price, high ?? price), max(low ?? price, high ?? price))
            about = bounds.0...bounds.1
        }
        var words: [String] = []
        if case .array(let list, _)? = members[member: "match"] {
            words = list.compactMap { if case .string(let word, _) = $0 { word } else { nil } }
        }
        return RecurringRule(
            id: id, name: name, price: price, about: about, day: day, every: every,
            month: every == .year ? (monthOfYear ?? 1) : nil, category: try required("category", try whole("category")),
            categorySub: try whole("categorySub"), from: try month("from"), until: try month("until"), match: words)
    }
}

/// Why a rule's JSON cannot be read: which rule and which field.
public struct RuleFormatError: Error, Sendable, CustomStringConvertible {
    /// The reason, naming the rule and the field.
    public let message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    /// The reason.
    public var description: String { message }
}
