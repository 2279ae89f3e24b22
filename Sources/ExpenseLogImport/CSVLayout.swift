import ExpenseLogFormats
import ExpenseLogModel

/// Where the profile's columns are in one file's header.
struct Layout {
    /// The number of columns in the header.
    let width: Int
    /// Header positions of each mapped field, in the order the profile names them: a row's value is the first
    /// non-empty one (`摘要内容`, else `摘要`).
    let field: FieldPositions
    /// Header positions of the deposit columns a price of out − in takes off.
    let priceIn: [Int]
    /// The column the profile's `refunds` test reads, and its compiled expressions.
    let refundColumn: Int?
    let refundRegexes: [Regex<AnyRegexOutput>]?
    /// Header position tested by each skip rule, and by each category rule.
    let tested: [Int]
    let ruled: [Int]
    /// The compiled expressions of each skip rule and each category rule that is a `regex` one.
    let skipRegexes: [[Regex<AnyRegexOutput>]?]
    let ruleRegexes: [[Regex<AnyRegexOutput>]?]
    /// Whether any rule renames, so that rules are tried past the one that gives the category.
    let renames: Bool
    /// Where the price is, to mend `1,500` written without quotes.
    let price: Int?
    /// Header names the profile does not use, for a profile that warns of them.
    let ignored: [String]

    /// The layout of a header for a profile, or nil with what is wrong (in English and in Japanese).
    static func resolve(_ header: CSV.Record, profile: ImportProfile) -> (Layout?, [(String, String)]) {
        var index: [String: Int] = [:]
        for (position, title) in header.fields.enumerated() {
            let trimmed = title.trimmingSpaces()
            if index[trimmed] == nil { index[trimmed] = position }
        }
        func find(_ names: [String]) -> Int? { findAll(names).first }
        func findAll(_ names: [String]) -> [Int] {
            names.compactMap { name in
                index[name] ?? index.filter({ $0.key.caseInsensitiveCompare(name) == .orderedSame }).values.min()
            }
        }
        var messages: [(String, String)] = []
        var field = FieldPositions()
        for (key, names) in profile.columns {
            let found = findAll(names)
            if !found.isEmpty { field[key] = found }
        }
        let expected = ItemField.allCases.compactMap { profile.columns[$0]?.first }.joined(separator: ",")
        let known = Set(field.values.joined())
        let ignored =
            profile.warnsOtherColumns
            ? header.fields.enumerated().filter { !known.contains($0.offset) && !$0.element.trimmingSpaces().isEmpty }
                .map { $0.element.trimmingSpaces() }
            : []
        let missing = profile.requiredFields.filter { field[$0] == nil }.map {
            profile.columns[$0]?.joined(separator: " or ") ?? $0.rawValue
        }
        if !missing.isEmpty {
            if profile.name == ImportProfile.native.name,
                let (name, builtin) = ImportProfile.builtins.first(where: { resolve(header, profile: $0.1).0 != nil })
            {
                let layout = builtin.description.prefix { $0 != "(" }.trimmingSpaces()
                return (
                    nil,
                    [
                        (
                            "the header is not expense-log's own (\(expected)) but matches the built-in \(name) profile "
                                + "(\(layout)): pass --profile \(name)",
                            "見出しは expense-log のもの (\(expected)) ではなく、組み込みのプロファイル \(name) (\(layout)) に合います: "
                                + "--profile \(name) を付けてください"
                        )
                    ]
                )
            }
            let hint =
                profile.name == ImportProfile.native.name
                ? " (expected \(expected); id and categorySub may be left out"
                    + (ignored.isEmpty
                        ? ")"
                        : "; it has \(ignored.map { "'\($0)'" }.joined(separator: ", ")), which no field is called)")
                    + "; another layout needs a profile: `expense-log profile init FILE` writes one"
                : " (the \(profile.name) profile needs them; is this the right profile?)"
            let japaneseHint =
                profile.name == ImportProfile.native.name
                ? " (\(expected) を想定。id と categorySub は省けます。別の書き方にはプロファイルが要ります: `expense-log profile init FILE` で作れます)"
                : " (\(profile.name) プロファイルに必要です。プロファイルは合っていますか?)"
            let missingJapanese = profile.requiredFields.filter { field[$0] == nil }.map {
                profile.columns[$0]?.joined(separator: " か ") ?? $0.rawValue
            }
            messages.append(
                (
                    "the header lacks \(missing.joined(separator: ", "))" + hint,
                    "見出しに \(missingJapanese.joined(separator: "、")) がありません" + japaneseHint
                ))
        }
        func column(_ name: String, _ place: String) -> Int {
            if let found = find([name]) { return found }
            messages.append(
                (
                    "the header has no column '\(name)', which the \(profile.name) profile's \(place) tests",
                    "見出しに、\(profile.name) プロファイルの \(place) が調べる欄「\(name)」がありません"
                ))
            return 0
        }
        // Each entry named as the profile file lists it: `transfers[0]`, `skip[1]`.
        let tested = profile.skip.enumerated().map { index, rule in
            let key = rule.isTransfer ? "transfers" : "skip"
            return column(
                rule.match.column, "\(key)[\(profile.skip[..<index].filter { $0.isTransfer == rule.isTransfer }.count)]"
            )
        }
        let ruled = profile.rules.enumerated().map { column($0.element.match.column, "rules[\($0.offset)]") }
        let refundColumn = profile.refunds.map { column($0.column, "refunds") }
        guard messages.isEmpty else { return (nil, messages) }
        let priceIn = findAll(profile.priceIn)
        if !profile.priceIn.isEmpty, priceIn.isEmpty {
            return (
                nil,
                [
                    (
                        "the header has no column " + profile.priceIn.map { "'\($0)'" }.joined(separator: " or ")
                            + ", which the \(profile.name) profile takes deposits from",
                        "見出しに、\(profile.name) プロファイルが入金を読む欄 " + profile.priceIn.map { "「\($0)」" }.joined(separator: "か")
                            + " がありません"
                    )
                ]
            )
        }
        return (
            Layout(
                width: header.fields.count, field: field, priceIn: priceIn, refundColumn: refundColumn,
                refundRegexes: profile.refunds?.compiled(), tested: tested, ruled: ruled,
                skipRegexes: profile.skip.map { $0.match.compiled() },
                ruleRegexes: profile.rules.map { $0.match.compiled() },
                renames: profile.rules.contains { $0.name != nil },
                price: field[.price]?.first, ignored: ignored), []
        )
    }

    /// A field's value in a row: the first of its columns that is not empty, else the first column's.
    func cell(_ field: ItemField, of cells: [String]) -> String? {
        guard let positions = self.field[field], let first = positions.first else { return nil }
        if positions.count == 1 { return cells[first] }
        return positions.lazy.map { cells[$0] }.first { !$0.trimmingSpaces().isEmpty } ?? cells[first]
    }

    /// The record's cells by header position, or nil when it has the wrong number of fields.
    func cells(of record: CSV.Record) -> [String]? {
        if record.fields.count == width { return record.fields }
        // `…,1,500,…` without quotes splits the price in two: join it back when the extra fields are three-digit groups.
        let extra = record.fields.count - width
        guard extra > 0, let price, price + extra < record.fields.count else { return nil }
        let groups = record.fields[(price + 1)...(price + extra)]
        let joined = record.fields[price] + groups.map { "," + $0 }.joined()
        guard groups.dropLast().allSatisfy(Self.isGroup), let last = groups.last,
            Self.isGroup(last) || (last.hasSuffix("円") && Self.isGroup(String(last.dropLast()))),
            record.fields[price].contains(where: \.isNumber), PriceText.parse(joined) != nil
        else { return nil }
        var fields = Array(record.fields[..<price]) + [joined]
        fields += record.fields[(price + extra + 1)...]
        return fields
    }

    static func isGroup(_ text: String) -> Bool { text.count == 3 && text.allSatisfy { ("0"..."9").contains($0) } }
}
