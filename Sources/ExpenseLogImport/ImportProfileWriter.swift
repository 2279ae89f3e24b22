import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogStore
import Foundation

extension ImportProfile {
    /// The profile as a profile file's JSON, which `parse` reads back to the same profile: keys in docs/import-profiles.md's order,
    /// those at their default left out, one rule a line.
    public var json: String {
        var members: [String] = []
        func add(_ key: String, _ value: String) { members.append("  \(Self.quoted(key)): \(value)") }
        if !description.isEmpty { add("description", Self.quoted(description)) }
        if let source { add("source", Self.quoted(source)) }
        if let encoding { add("encoding", Self.quoted(encoding.rawValue)) }
        if skipRows > 0 { add("skipRows", String(skipRows)) }
        if let header { add("header", "[" + header.map(Self.quoted).joined(separator: ", ") + "]") }
        let columnMembers = ItemField.allCases.compactMap { field in
            columns[field].map { names in
                guard field == .price, !priceIn.isEmpty else {
                    return "\(Self.quoted(field.rawValue)): \(Self.strings(names))"
                }
                return "\"price\": {\"out\": \(Self.strings(names)), \"in\": \(Self.strings(priceIn))}"
            }
        }
        add("columns", "{" + columnMembers.joined(separator: ", ") + "}")
        if let dateFormat { add("dateFormat", Self.quoted(dateFormat.description)) }
        if invertSign { add("invertSign", "true") }
        if truncateNames { add("truncateNames", "true") }
        for (key, isTransfer) in [("transfers", true), ("skip", false)] {
            let entries = skip.filter { $0.isTransfer == isTransfer }
            guard !entries.isEmpty else { continue }
            add(
                key,
                Self.list(
                    entries.map { rule in
                        "{" + Self.members(rule.match) + ", \"reason\": \(Self.quoted(rule.reason))}"
                    }))
        }
        if !rules.isEmpty {
            add(
                "rules",
                Self.list(
                    rules.map { rule in
                        var parts = [Self.members(rule.match)]
                        if let category = rule.category { parts.append("\"category\": \(category)") }
                        if let sub = rule.sub { parts.append("\"sub\": \(sub)") }
                        if let name = rule.name { parts.append("\"name\": \(Self.quoted(name))") }
                        return "{" + parts.joined(separator: ", ") + "}"
                    }))
        }
        if let defaultCategory { add("defaultCategory", String(defaultCategory)) }
        if let defaultSub { add("defaultSub", String(defaultSub)) }
        if excludesUnmatched { add("unmatched", "\"exclude\"") }
        if let refunds { add("refunds", "{" + Self.members(refunds) + "}") }
        if let account { add("account", Self.quoted(account)) }
        if let refundIDSuffix { add("refundIDSuffix", Self.quoted(refundIDSuffix)) }
        if skipsOtherShapes { add("otherShapes", "\"skip\"") }
        if skipsNoAmount { add("noAmount", "\"skip\"") }
        if learnsCategories { add("categories", "\"learn\"") }
        if let onInvalid { add("onInvalid", Self.quoted(onInvalid.rawValue)) }
        return "{\n" + members.joined(separator: ",\n") + "\n}\n"
    }

    private static func members(_ match: ColumnMatch) -> String {
        "\"column\": \(quoted(match.column)), \(quoted(match.kind.rawValue)): \(strings(match.values))"
    }

    private static func list(_ elements: [String]) -> String {
        "[\n" + elements.map { "    " + $0 }.joined(separator: ",\n") + "\n  ]"
    }

    /// One string as a string, more as an array.
    private static func strings(_ values: [String]) -> String {
        values.count == 1 ? quoted(values[0]) : "[" + values.map(quoted).joined(separator: ", ") + "]"
    }

    /// Writes a profile's text to a new file, atomically: a document at a path the person chose, with the usual mode.
    public static func save(_ text: String, to url: URL) throws {
        try AtomicFile.write(Data(text.utf8), to: url, mode: PrivateFiles.document)
    }

    static func quoted(_ text: String) -> String {
        var out = ""
        ItemJSON.appendString(text, to: &out)
        return out
    }
}
