extension ImportProfile {
    /// The keys a profile file may have.
    static let keys = ["description", "encoding", "skipRows", "columns", "dateFormat", "invertSign", "truncateNames",
                       "skip", "rules", "defaultCategory", "defaultSub"]

    /// Reads a profile file's JSON; throws a `ValidationProblem` naming the file, line and key, and what is expected.
    public static func parse(_ bytes: [UInt8], name: String, file: String) throws -> ImportProfile {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch let error as JSONSyntaxError {
            throw ValidationProblem(location: SourceLocation(file: file, line: error.line), field: nil, message: "invalid JSON: \(error.message)")
        } catch {
            throw ValidationProblem(location: SourceLocation(file: file, line: 1), field: nil, message: "\(error)")
        }
        let reader = ProfileReader(file: file)
        let members = try reader.object(root, at: "profile", keys: keys)
        var profile = ImportProfile(name: name, description: "", columns: [:])
        for (key, value) in members {
            switch key {
            case "description": profile.description = try reader.string(value, at: key)
            case "encoding":
                let text = try reader.string(value, at: key)
                guard let encoding = TextEncoding(name: text) else {
                    throw reader.problem(value, key, "'\(text)' is not an encoding; use \(TextEncoding.names.joined(separator: " or "))")
                }
                profile.encoding = encoding
            case "skipRows": profile.skipRows = try reader.integer(value, at: key, in: 0...1000)
            case "columns": profile.columns = try reader.columns(value)
            case "dateFormat":
                let text = try reader.string(value, at: key)
                guard let pattern = DatePattern(text) else {
                    throw reader.problem(value, key, "'\(text)' is not a date layout; use yyyy, MM or M, dd or d and separators, e.g. yyyy/M/d")
                }
                profile.dateFormat = pattern
            case "invertSign": profile.invertSign = try reader.bool(value, at: key)
            case "truncateNames": profile.truncateNames = try reader.bool(value, at: key)
            case "skip":
                profile.skip = try reader.array(value, at: key).enumerated().map { index, element in
                    let place = "skip[\(index)]"
                    let rule = try reader.object(element, at: place, keys: ["column", "equals", "contains", "reason"])
                    let match = try reader.match(rule, element, at: place)
                    let reason = try rule.first { $0.key == "reason" }.map { try reader.string($0.value, at: place + ".reason") }
                    return SkipRule(match: match, reason: reason ?? "\(match.column) \(match.kind.rawValue) \(match.values.joined(separator: "/"))")
                }
            case "rules":
                profile.rules = try reader.array(value, at: key).enumerated().map { index, element in
                    let place = "rules[\(index)]"
                    let rule = try reader.object(element, at: place, keys: ["column", "equals", "contains", "category", "sub"])
                    guard let category = rule.first(where: { $0.key == "category" }) else {
                        throw reader.problem(element, place, "needs \"category\": the number rows matching it get")
                    }
                    let sub = try rule.first { $0.key == "sub" }.flatMap { try reader.optionalInteger($0.value, at: place + ".sub") }
                    return CategoryRule(match: try reader.match(rule, element, at: place),
                                        category: try reader.integer(category.value, at: place + ".category", in: 0...Int(Int32.max)),
                                        sub: sub)
                }
            case "defaultCategory": profile.defaultCategory = try reader.optionalInteger(value, at: key)
            default: profile.defaultSub = try reader.optionalInteger(value, at: key)
            }
        }
        for field in [ItemField.date, .name, .price] where profile.columns[field] == nil {
            throw reader.problem(root, "columns", "has no \"\(field.rawValue)\"; a profile must say which column holds date, name and price")
        }
        if profile.columns[.category] == nil, profile.rules.isEmpty, profile.defaultCategory == nil {
            throw reader.problem(root, "columns", "gives no way to find a category: map a \"category\" column, add \"rules\", or set \"defaultCategory\"")
        }
        if profile.defaultSub != nil, profile.defaultCategory == nil {
            throw reader.problem(root, "defaultSub", "needs \"defaultCategory\": a sub-category only means something within a category")
        }
        return profile
    }
}

/// Typed access to a profile's JSON, each failure a `ValidationProblem` at the value's line.
private struct ProfileReader {
    let file: String

    func problem(_ value: JSONValue, _ field: String, _ message: String) -> ValidationProblem {
        ValidationProblem(location: SourceLocation(file: file, line: value.line), field: field, message: message)
    }

    func object(_ value: JSONValue, at place: String, keys: [String]) throws(ValidationProblem) -> [(key: String, value: JSONValue)] {
        guard case .object(let members, _) = value else { throw problem(value, place, "must be an object {…}") }
        var seen: Set<String> = []
        if let repeated = members.first(where: { !seen.insert($0.key).inserted }) {
            throw problem(repeated.value, place, "'\(repeated.key)' is given twice; give each key once")
        }
        if let unknown = members.first(where: { !keys.contains($0.key) }) {
            throw problem(unknown.value, place, "unknown key '\(unknown.key)'; the keys are \(keys.joined(separator: ", "))")
        }
        return members
    }

    func array(_ value: JSONValue, at place: String) throws(ValidationProblem) -> [JSONValue] {
        guard case .array(let elements, _) = value else { throw problem(value, place, "must be an array […]") }
        return elements
    }

    func string(_ value: JSONValue, at place: String) throws(ValidationProblem) -> String {
        guard case .string(let text, _) = value, !text.isEmpty else { throw problem(value, place, "must be a non-empty string") }
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
            guard case .string(let text, _) = value else { throw problem(value, place, "must be a string or an array of strings") }
            return text
        }
        if case .string = value { return [try text(value)] }
        var texts: [String] = []
        for element in try array(value, at: place) { texts.append(try text(element)) }
        guard !texts.isEmpty else { throw problem(value, place, "must name at least one value") }
        return texts
    }

    func columns(_ value: JSONValue) throws(ValidationProblem) -> [ItemField: [String]] {
        var columns: [ItemField: [String]] = [:]
        for (key, names) in try object(value, at: "columns", keys: ItemField.allCases.map(\.rawValue)) {
            guard let field = ItemField(rawValue: key) else { continue }
            columns[field] = try strings(names, at: "columns.\(key)")
            if columns[field]?.contains("") == true { throw problem(names, "columns.\(key)", "must name a header column, not \"\"") }
        }
        return columns
    }

    func match(_ members: [(key: String, value: JSONValue)], _ value: JSONValue, at place: String) throws(ValidationProblem) -> ColumnMatch {
        guard let column = members.first(where: { $0.key == "column" }) else {
            throw problem(value, place, "needs \"column\": the header name of the column to test")
        }
        let tests = members.filter { ColumnMatch.Kind(rawValue: $0.key) != nil }
        guard tests.count == 1, let test = tests.first, let kind = ColumnMatch.Kind(rawValue: test.key) else {
            throw problem(value, place, "needs exactly one of \"equals\" or \"contains\"")
        }
        return ColumnMatch(column: try string(column.value, at: place + ".column"), kind: kind,
                           values: try strings(test.value, at: place + ".\(test.key)"))
    }
}
