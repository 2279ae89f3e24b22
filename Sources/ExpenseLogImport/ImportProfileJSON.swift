import ExpenseLogFormats
import ExpenseLogModel

extension ImportProfile {
    /// The keys a profile file may have.
    static let keys = [
        "extends", "description", "source", "encoding", "skipRows", "header", "columns", "dateFormat", "invertSign",
        "truncateNames", "skip", "rules", "defaultCategory", "defaultSub", "unmatched", "onInvalid", "otherShapes",
        "noAmount", "categories", "refunds", "transfers", "refundIDSuffix", "account", "payer",
    ]

    /// Reads a profile file's JSON; throws a `ValidationProblem` naming the file, line and key, and what is expected.
    /// `"extends"` names the profile it starts from, which `base` finds (nil when there is none of that name); its keys
    /// override the base's, `columns` field by field, and its `transfers`, `skip` and `rules` come before the base's
    /// (every transfer before every skip).
    public static func parse(
        _ bytes: [UInt8], name: String, file: String,
        base: (String) throws -> ImportProfile? = { try builtin($0) }
    ) throws -> ImportProfile {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch let error as JSONSyntaxError {
            throw ValidationProblem(
                location: SourceLocation(file: file, line: error.line), field: nil,
                message: "invalid JSON: \(error.message)")
        } catch {
            throw ValidationProblem(location: SourceLocation(file: file, line: 1), field: nil, message: "\(error)")
        }
        let reader = ProfileReader(file: file)
        let members = try reader.object(root, at: "profile", keys: keys)
        var profile = ImportProfile(name: name, description: "", columns: [:])
        if let extends = members.first(where: { $0.key == "extends" }) {
            let baseName = try reader.string(extends.value, at: "extends")
            guard let found = try base(baseName) else {
                let names = builtinSources.keys.sorted().joined(separator: ", ")
                throw reader.problem(
                    extends.value, "extends",
                    "'\(baseName)' is neither a built-in profile (\(names)) nor a profile file")
            }
            profile = found
            profile.name = name
        }
        // A new default category does not keep the base's sub-category, which belonged to another category.
        if members.contains(where: { $0.key == "defaultCategory" }),
            !members.contains(where: { $0.key == "defaultSub" })
        {
            profile.defaultSub = nil
        }
        for (key, value) in members {
            try profile.apply(key, value, reader: reader)
        }
        // Transfers are tried first, whichever key a file lists first, so that a profile reads back as written.
        profile.skip = profile.skip.filter(\.isTransfer) + profile.skip.filter { !$0.isTransfer }
        for field in [ItemField.date, .name, .price] where profile.columns[field] == nil {
            throw reader.problem(
                root, "columns",
                "has no \"\(field.rawValue)\"; a profile must say which column holds date, name and price")
        }
        if profile.columns[.category] == nil, !profile.rules.contains(where: { $0.category != nil }),
            profile.defaultCategory == nil
        {
            throw reader.problem(
                root, "columns",
                "gives no way to find a category: map a \"category\" column, add \"rules\", or set \"defaultCategory\"")
        }
        if profile.defaultSub != nil, profile.defaultCategory == nil {
            throw reader.problem(
                root, "defaultSub", "needs \"defaultCategory\": a sub-category only means something within a category")
        }
        return profile
    }

    /// One key of a profile file, over what the profile (or its base) has.
    private mutating func apply(_ key: String, _ value: JSONValue, reader: ProfileReader) throws {
        switch key {
        case "extends": break
        case "description": description = try reader.string(value, at: key)
        case "source": source = try reader.string(value, at: key)
        case "refunds":
            refunds = try reader.match(
                try reader.object(value, at: key, keys: ["column"] + ColumnMatch.Kind.allCases.map(\.rawValue)), value,
                at: key)
        case "header": header = try reader.strings(value, at: key)
        case "refundIDSuffix": refundIDSuffix = try reader.string(value, at: key)
        case "account": account = try reader.string(value, at: key)
        case "payer": payer = try reader.string(value, at: key)
        case "otherShapes": skipsOtherShapes = try reader.choice(value, at: key, ["skip", "invalid"]) == "skip"
        case "noAmount": skipsNoAmount = try reader.choice(value, at: key, ["skip", "invalid"]) == "skip"
        case "categories": learnsCategories = try reader.choice(value, at: key, ["learn", "rules"]) == "learn"
        case "encoding":
            let text = try reader.string(value, at: key)
            guard let found = TextEncoding(name: text) else {
                throw reader.problem(
                    value, key, "'\(text)' is not an encoding; use \(TextEncoding.names.joined(separator: " or "))")
            }
            encoding = found
        case "skipRows": skipRows = try reader.integer(value, at: key, in: 0...1000)
        case "columns":
            let (read, deposits) = try reader.columns(value)
            columns.merge(read) { _, new in new }
            if let deposits { priceIn = deposits }
        case "dateFormat":
            let text = try reader.string(value, at: key)
            guard let pattern = DatePattern(text) else {
                throw reader.problem(
                    value, key,
                    "'\(text)' is not a date layout; use yyyy or yy, MM or M, dd or d and separators, e.g. yyyy/M/d")
            }
            dateFormat = pattern
        case "invertSign": invertSign = try reader.bool(value, at: key)
        case "truncateNames": truncateNames = try reader.bool(value, at: key)
        case "skip", "transfers":
            skip =
                try reader.array(value, at: key).enumerated().map { index, element in
                    let place = "\(key)[\(index)]"
                    let rule = try reader.object(
                        element, at: place, keys: ["column", "reason"] + ColumnMatch.Kind.allCases.map(\.rawValue))
                    let match = try reader.match(rule, element, at: place)
                    let reason = try rule.first { $0.key == "reason" }.map {
                        try reader.string($0.value, at: place + ".reason")
                    }
                    return SkipRule(
                        match: match,
                        reason: reason
                            ?? "\(match.column) \(match.kind.rawValue) \(match.values.joined(separator: "/"))",
                        isTransfer: key == "transfers")
                } + skip
        case "rules":
            rules =
                try reader.array(value, at: key).enumerated().map { try reader.rule($1, at: "rules[\($0)]") } + rules
        case "defaultCategory": defaultCategory = try reader.optionalInteger(value, at: key)
        case "defaultSub": defaultSub = try reader.optionalInteger(value, at: key)
        case "unmatched":
            switch try reader.string(value, at: key) {
            case "invalid": excludesUnmatched = false
            case "exclude": excludesUnmatched = true
            case let text: throw reader.problem(value, key, "'\(text)' is not a choice; use \"invalid\" or \"exclude\"")
            }
        default:
            let text = try reader.string(value, at: key)
            guard let mode = InvalidRows(rawValue: text) else {
                throw reader.problem(
                    value, key,
                    "'\(text)' is not a choice; use \(InvalidRows.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))"
                )
            }
            onInvalid = mode
        }
    }
}

/// Typed access to a profile's JSON, each failure a `ValidationProblem` at the value's line.
private struct ProfileReader {
    let file: String

    func problem(_ value: JSONValue, _ field: String, _ message: String) -> ValidationProblem {
        ValidationProblem(location: SourceLocation(file: file, line: value.line), field: field, message: message)
    }

    func object(
        _ value: JSONValue, at place: String, keys: [String]
    ) throws(ValidationProblem) -> [(key: String, value: JSONValue)] {
        guard case .object(let members, _) = value else { throw problem(value, place, "must be an object {…}") }
        var seen: Set<String> = []
        if let repeated = members.first(where: { !seen.insert($0.key).inserted }) {
            throw problem(repeated.value, place, "'\(repeated.key)' is given twice; give each key once")
        }
        if let unknown = members.first(where: { !keys.contains($0.key) }) {
            throw problem(
                unknown.value, place, "unknown key '\(unknown.key)'; the keys are \(keys.joined(separator: ", "))")
        }
        return members
    }

    func array(_ value: JSONValue, at place: String) throws(ValidationProblem) -> [JSONValue] {
        guard case .array(let elements, _) = value else { throw problem(value, place, "must be an array […]") }
        return elements
    }

    func string(_ value: JSONValue, at place: String) throws(ValidationProblem) -> String {
        guard case .string(let text, _) = value, !text.isEmpty else {
            throw problem(value, place, "must be a non-empty string")
        }
        return text
    }

    func bool(_ value: JSONValue, at place: String) throws(ValidationProblem) -> Bool {
        guard case .bool(let flag, _) = value else { throw problem(value, place, "must be true or false") }
        return flag
    }

    func integer(_ value: JSONValue, at place: String, in range: ClosedRange<Int>) throws(ValidationProblem) -> Int {
        guard case .number(let text, _) = value, let number = Int(text), range.contains(number) else {
            throw problem(value, place, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    func optionalInteger(_ value: JSONValue, at place: String) throws(ValidationProblem) -> Int? {
        if case .null = value { return nil }
        return try integer(value, at: place, in: 0...Int(Int32.max))
    }

    /// A string or an array of strings; an empty string matches an empty cell.
    func strings(_ value: JSONValue, at place: String) throws(ValidationProblem) -> [String] {
        func text(_ value: JSONValue) throws(ValidationProblem) -> String {
            guard case .string(let text, _) = value else {
                throw problem(value, place, "must be a string or an array of strings")
            }
            return text
        }
        if case .string = value { return [try text(value)] }
        var texts: [String] = []
        for element in try array(value, at: place) { texts.append(try text(element)) }
        guard !texts.isEmpty else { throw problem(value, place, "must name at least one value") }
        return texts
    }

    /// The columns by field, and the deposit columns of a price given as `{"out": …, "in": …}` (out − in).
    func columns(_ value: JSONValue) throws(ValidationProblem) -> ([ItemField: [String]], deposits: [String]?) {
        var columns: [ItemField: [String]] = [:]
        var deposits: [String]?
        for (key, names) in try object(value, at: "columns", keys: ItemField.allCases.map(\.rawValue)) {
            guard let field = ItemField(rawValue: key) else { continue }
            if field == .price, case .object = names {
                let parts = try object(names, at: "columns.price", keys: ["out", "in"])
                guard let out = parts.first(where: { $0.key == "out" }),
                    let into = parts.first(where: { $0.key == "in" })
                else {
                    throw problem(
                        names, "columns.price", "as an object needs \"out\" (spending) and \"in\" (deposits, taken off)"
                    )
                }
                columns[.price] = try strings(out.value, at: "columns.price.out")
                deposits = try strings(into.value, at: "columns.price.in")
            } else {
                columns[field] = try strings(names, at: "columns.\(key)")
            }
            if columns[field]?.contains("") == true {
                throw problem(names, "columns.\(key)", "must name a header column, not \"\"")
            }
        }
        return (columns, deposits)
    }

    /// One of `choices`.
    func choice(_ value: JSONValue, at place: String, _ choices: [String]) throws(ValidationProblem) -> String {
        let text = try string(value, at: place)
        guard choices.contains(text) else {
            throw problem(value, place, "must be " + choices.map { "\"\($0)\"" }.joined(separator: " or "))
        }
        return text
    }

    func match(
        _ members: [(key: String, value: JSONValue)], _ value: JSONValue, at place: String
    ) throws(ValidationProblem) -> ColumnMatch {
        guard let column = members.first(where: { $0.key == "column" }) else {
            throw problem(value, place, "needs \"column\": the header name of the column to test")
        }
        let tests = members.filter { ColumnMatch.Kind(rawValue: $0.key) != nil }
        guard tests.count == 1, let test = tests.first, let kind = ColumnMatch.Kind(rawValue: test.key) else {
            throw problem(value, place, "needs exactly one of \"equals\", \"contains\" or \"regex\"")
        }
        let values = try strings(test.value, at: place + ".\(test.key)")
        if kind == .regex {
            for pattern in values {
                do { _ = try Regex(pattern) } catch {
                    throw problem(test.value, place + ".regex", "'\(pattern)' is not a regular expression: \(error)")
                }
            }
        }
        return ColumnMatch(column: try string(column.value, at: place + ".column"), kind: kind, values: values)
    }

    /// A `rules` entry: a test, and a category, a new name, or both.
    func rule(_ element: JSONValue, at place: String) throws(ValidationProblem) -> CategoryRule {
        let rule = try object(
            element, at: place, keys: ["column", "category", "sub", "name"] + ColumnMatch.Kind.allCases.map(\.rawValue))
        let category = try rule[member: "category"].map { value throws(ValidationProblem) in
            try integer(value, at: place + ".category", in: 0...Int(Int32.max))
        }
        let name = try rule[member: "name"].map { value throws(ValidationProblem) in
            try string(value, at: place + ".name")
        }
        guard category != nil || name != nil else {
            throw problem(
                element, place,
                "needs \"category\" (the number rows matching it get), \"name\" (their new name), or both")
        }
        let sub = try rule[member: "sub"].flatMap { value throws(ValidationProblem) in
            try optionalInteger(value, at: place + ".sub")
        }
        if sub != nil, category == nil {
            throw problem(
                element, place + ".sub", "needs \"category\": a sub-category only means something within a category")
        }
        return CategoryRule(match: try match(rule, element, at: place), category: category, sub: sub, name: name)
    }
}
