import ExpenseLogFormats
import ExpenseLogModel
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
            let lines = Array(
                body.lazy.split(separator: 0x0A).filter { !$0.allSatisfy(JSONParser.isWhitespace) }.prefix(2))
            if lines.count > 1, (try? JSONParser.parse(Array(lines[0]))) != nil { self = .ndjson } else { self = .json }
        default: self = .csv
        }
    }
}

/// Turns the bytes of one input into drafts; syntax problems come back as `ValidationProblem`s at their lines.
public enum InputReader {
    /// The wire keys, which are also the native CSV header.
    public static let fields = ItemField.allCases.map(\.rawValue)

    /// Decodes the input (as declared, else detected) and reads it in a format (else sniffed); CSV goes through the profile.
    public static func read(
        _ bytes: [UInt8], name: String, format: InputFormat?, encoding: TextEncoding? = nil,
        profile: ImportProfile = .native
    ) -> ReadOutcome {
        ReadOutcome.collecting {
            read(bytes, name: name, format: format, encoding: encoding, profile: profile, each: $0)
        }
    }

    /// As `read`, handing each draft to `each` as it is read (CSV is never held as records or drafts); the outcome
    /// carries no drafts, and when it is `refusedWhole` the drafts already handed out must be dropped. With `detect`
    /// (no profile given), a CSV input in a built-in profile's layout is read with that profile, which learns what
    /// `profile` learned.
    public static func read(
        _ bytes: [UInt8], name: String, format: InputFormat?, encoding: TextEncoding? = nil,
        profile: ImportProfile = .native, detect: Bool = false, each: (ItemDraft) -> Void
    ) -> ReadOutcome {
        let text: [UInt8]
        switch TextEncoding.utf8Bytes(of: bytes, declared: encoding ?? profile.encoding, name: name) {
        case .success(let decoded): text = decoded.bytes
        case .failure(let problem):
            return ReadOutcome(problems: [.wholeFile(problem.location, problem.message)], refusedWhole: true)
        }
        let read: ([ItemDraft], [ValidationProblem])
        switch format ?? InputFormat(sniffing: text) {
        case .json: read = readJSON(text, name: name)
        case .ndjson: read = readNDJSON(text, name: name)
        case .csv:
            guard detect else { return profile.readCSV(text, name: name, each: each) }
            let reading = profile.reading(text, file: name)
            if let refusal = reading.refusal { return refusal }
            var outcome = reading.profile.readCSV(text, name: name, each: each)
            outcome.detected = reading.detected
            return outcome
        }
        read.0.forEach(each)
        return ReadOutcome(problems: read.1)
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
            return (
                [],
                [
                    .wholeFile(
                        SourceLocation(file: name, line: error.line), "invalid JSON: \(error.message)",
                        japanese: "JSON として読めません: \(error.message)")
                ]
            )
        } catch {
            return ([], [.wholeFile(SourceLocation(file: name, line: 1), "\(error)")])
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
                problems.append(
                    ValidationProblem(
                        location: SourceLocation(file: name, line: line), field: nil,
                        message: "invalid JSON: \(error.message)", japanese: "JSON として読めません: \(error.message)"))
            } catch {
                problems.append(
                    ValidationProblem(location: SourceLocation(file: name, line: line), field: nil, message: "\(error)")
                )
            }
        }
        return (drafts, problems)
    }

    static func draft(from value: JSONValue, file: String) -> Result<ItemDraft, ValidationProblem> {
        let location = SourceLocation(file: file, line: value.line)
        guard case .object(let members, _) = value else {
            return .failure(
                ValidationProblem(
                    location: location, field: nil,
                    message:
                        "expected an item object like {\"date\":\"20240122\",\"name\":…}, found \(value.described)",
                    japanese: "{\"date\":\"20240122\",\"name\":…} のような項目のオブジェクトを想定しましたが、\(value.described) でした"))
        }
        var draft = ItemDraft(location: location)
        var seen: Set<String> = []
        for (key, member) in members {
            // Parsers disagree on which of two values wins (the last, the first, an error): the user must say.
            guard seen.insert(key).inserted else {
                return .failure(
                    ValidationProblem(
                        location: SourceLocation(file: file, line: member.line), field: key,
                        message: "given twice in one item; keep one", japanese: "一つの項目に二度あります。一つにしてください"))
            }
            let raw = rawValue(member)
            switch key {
            case "id": draft.id = raw
            case "date": draft.date = raw
            case "name": draft.name = raw
            case "price": draft.price = raw
            case "category": draft.category = raw
            case "categorySub": draft.categorySub = raw
            // Who paid, as `fetch --format json` prints it from a server that keeps it: read back as it was.
            case "payer":
                switch member {
                case .string(let name, _) where !name.trimmingSpaces().isEmpty: draft.payer = name.trimmingSpaces()
                case .null, .string: draft.payer = nil
                default:
                    return .failure(
                        ValidationProblem(
                            location: SourceLocation(file: file, line: member.line), field: key,
                            message: "must be a name or null, got \(member.described)",
                            japanese: "名前か null にしてください (\(member.described)でした)"))
                }
            case "personal":
                guard case .bool(let value, _) = member else {
                    return .failure(
                        ValidationProblem(
                            location: SourceLocation(file: file, line: member.line), field: key,
                            message: "must be true or false, got \(member.described)",
                            japanese: "true か false にしてください (\(member.described)でした)"))
                }
                (draft.personal, draft.shared) = (value, !value)
            default:
                return .failure(
                    ValidationProblem(
                        location: location, field: key,
                        message: "unknown key; an item has \(fields.joined(separator: ", "))",
                        japanese: "知らないキーです。項目のキーは \(fields.joined(separator: "、")) です"))
            }
        }
        return .success(draft)
    }

    static func rawValue(_ value: JSONValue) -> RawValue {
        switch value {
        case .string(let text, _): return .text(text)
        case .number(let text, _): return Int(text).map(RawValue.integer) ?? .other("the number \(text)")
        case .null: return .null
        default: return .other(value.described)
        }
    }
}
