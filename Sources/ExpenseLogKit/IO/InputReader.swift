import Foundation

/// The input formats `register` reads.
public enum InputFormat: String, Sendable, CaseIterable {
    /// A JSON object or an array of objects.
    case json
    /// One JSON object per line.
    case ndjson
    /// CSV with a header row.
    case csv

    /// The format implied by a file name's extension, if any.
    public init?(fileName: String) {
        switch (fileName as NSString).pathExtension.lowercased() {
        case "json": self = .json
        case "ndjson", "jsonl": self = .ndjson
        case "csv": self = .csv
        default: return nil
        }
    }

    /// Guesses from the content: JSON when it starts with `[` or `{` (NDJSON when each line is a whole object), else CSV.
    public init(sniffing bytes: [UInt8]) {
        switch JSONParser.firstSignificantByte(of: bytes) {
        case UInt8(ascii: "["): self = .json
        case UInt8(ascii: "{"):
            // Only the first two non-blank lines matter: never split a large input whole just to count them.
            let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
            let lines = Array(body.lazy.split(separator: 0x0A).filter { !$0.allSatisfy(JSONParser.isWhitespace) }.prefix(2))
            if lines.count > 1, (try? JSONParser.parse(Array(lines[0]))) != nil { self = .ndjson } else { self = .json }
        default: self = .csv
        }
    }
}

/// Turns the bytes of one input into drafts; syntax problems come back as `ValidationProblem`s at their lines.
public enum InputReader {
    /// The wire keys, which are also the native CSV header.
    public static let fields = ["id", "date", "name", "price", "category", "categorySub"]
    /// The spreadsheet's Japanese header names, in the same order.
    static let japaneseFields = ["ID", "日付", "品名", "金額", "項目", "サブ項目"]

    /// Reads drafts in the given format; `name` is how the input is named in messages.
    public static func read(_ bytes: [UInt8], name: String, format: InputFormat) -> (drafts: [ItemDraft], problems: [ValidationProblem]) {
        switch format {
        case .json: return readJSON(bytes, name: name)
        case .ndjson: return readNDJSON(bytes, name: name)
        case .csv: return readCSV(bytes, name: name)
        }
    }

    static func readJSON(_ bytes: [UInt8], name: String) -> ([ItemDraft], [ValidationProblem]) {
        do {
            switch try JSONParser.parse(bytes) {
            case .array(let elements, _):
                var drafts: [ItemDraft] = []
                var problems: [ValidationProblem] = []
                for element in elements {
                    switch draft(from: element, file: name) {
                    case .success(let draft): drafts.append(draft)
                    case .failure(let problem): problems.append(problem)
                    }
                }
                return (drafts, problems)
            case let value:
                switch draft(from: value, file: name) {
                case .success(let draft): return ([draft], [])
                case .failure(let problem): return ([], [problem])
                }
            }
        } catch let error as JSONSyntaxError {
            return ([], [ValidationProblem(location: SourceLocation(file: name, line: error.line), field: nil,
                                           message: "invalid JSON: \(error.message)")])
        } catch {
            return ([], [ValidationProblem(location: SourceLocation(file: name, line: 1), field: nil, message: "\(error)")])
        }
    }

    static func readNDJSON(_ bytes: [UInt8], name: String) -> ([ItemDraft], [ValidationProblem]) {
        var drafts: [ItemDraft] = []
        var problems: [ValidationProblem] = []
        var line = 0
        for raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            line += 1
            guard raw.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else { continue }
            do {
                let value = try JSONParser.parse(Array(raw), firstLine: line)
                switch draft(from: value, file: name) {
                case .success(let draft): drafts.append(draft)
                case .failure(let problem): problems.append(problem)
                }
            } catch let error as JSONSyntaxError {
                problems.append(ValidationProblem(location: SourceLocation(file: name, line: line), field: nil,
                                                  message: "invalid JSON: \(error.message)"))
            } catch {
                problems.append(ValidationProblem(location: SourceLocation(file: name, line: line), field: nil, message: "\(error)"))
            }
        }
        return (drafts, problems)
    }

    static func draft(from value: JSONValue, file: String) -> Result<ItemDraft, ValidationProblem> {
        let location = SourceLocation(file: file, line: value.line)
        guard case .object(let members, _) = value else {
            return .failure(ValidationProblem(location: location, field: nil,
                                              message: "expected an item object like {\"date\":\"20240122\",\"name\":…}, found \(describe(value))"))
        }
        var draft = ItemDraft(location: location)
        for (key, member) in members {
            let raw = rawValue(member)
            switch key {
            case "id": draft.id = raw
            case "date": draft.date = raw
            case "name": draft.name = raw
            case "price": draft.price = raw
            case "category": draft.category = raw
            case "categorySub": draft.categorySub = raw
            default:
                return .failure(ValidationProblem(location: location, field: key,
                                                  message: "unknown key; an item has \(fields.joined(separator: ", "))"))
            }
        }
        return .success(draft)
    }

    static func rawValue(_ value: JSONValue) -> RawValue {
        switch value {
        case .string(let text, _): return .text(text)
        case .number(let text, _): return Int(text).map(RawValue.integer) ?? .other("the number \(text)")
        case .null: return .null
        default: return .other(describe(value))
        }
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .object: return "an object"
        case .array: return "an array"
        case .string(let text, _): return "the string \"\(text)\""
        case .number(let text, _): return "the number \(text)"
        case .bool(let flag, _): return flag ? "true" : "false"
        case .null: return "null"
        }
    }

    static func readCSV(_ bytes: [UInt8], name: String) -> ([ItemDraft], [ValidationProblem]) {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        func problem(_ line: Int, _ field: String?, _ message: String) -> ValidationProblem {
            ValidationProblem(location: SourceLocation(file: name, line: line), field: field, message: message)
        }
        guard let text = String(validating: body, as: UTF8.self) else {
            return ([], [problem(1, nil, "the file is not valid UTF-8 text (convert it to UTF-8 first)")])
        }
        let records: [CSV.Record]
        do {
            records = try CSV.parse(text)
        } catch let error as CSV.SyntaxError {
            return ([], [problem(error.line, nil, "invalid CSV: \(error.message)")])
        } catch {
            return ([], [problem(1, nil, "\(error)")])
        }
        guard let header = records.first else { return ([], []) }
        var columns: [Int?] = []  // header position → field index
        var problems: [ValidationProblem] = []
        for title in header.fields {
            let trimmed = title.trimmingCharacters(in: .whitespaces)
            let index = fields.firstIndex { $0.caseInsensitiveCompare(trimmed) == .orderedSame }
                ?? japaneseFields.firstIndex { $0.caseInsensitiveCompare(trimmed) == .orderedSame }
            if index == nil {
                problems.append(problem(header.line, nil, "unknown column '\(trimmed)'; the header names \(fields.joined(separator: ","))"))
            }
            columns.append(index)
        }
        let required = ["date", "name", "price", "category"]
        let missing = required.filter { name in !columns.contains { $0.map { fields[$0] } == name } }
        if !missing.isEmpty {
            problems.append(problem(header.line, nil, "the header lacks \(missing.joined(separator: ", ")) (expected \(fields.joined(separator: ",")); id and categorySub may be left out)"))
        }
        guard problems.isEmpty else { return ([], problems) }

        var drafts: [ItemDraft] = []
        drafts.reserveCapacity(records.count - 1)
        for record in records.dropFirst() {
            guard record.fields.count == columns.count else {
                problems.append(problem(record.line, nil, "has \(record.fields.count) fields but the header has \(columns.count)"))
                continue
            }
            var draft = ItemDraft(location: SourceLocation(file: name, line: record.line))
            for (position, value) in record.fields.enumerated() {
                let raw: RawValue = .text(value)
                switch columns[position] {
                case 0: draft.id = raw
                case 1: draft.date = raw
                case 2: draft.name = raw
                case 3: draft.price = raw
                case 4: draft.category = raw
                default: draft.categorySub = raw
                }
            }
            drafts.append(draft)
        }
        return (drafts, problems)
    }
}
