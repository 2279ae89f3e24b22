import Foundation

/// An RFC 4180 CSV reader and writer: quoted fields, doubled quotes, newlines inside quotes, CRLF or LF.
public enum CSV {
    /// One record with the line it starts on.
    public struct Record: Sendable, Equatable {
        /// The 1-based line of the record's first byte.
        public let line: Int
        /// The fields, unquoted.
        public let fields: [String]
    }

    /// A CSV syntax error at a line.
    public struct SyntaxError: Error, Sendable, Equatable {
        /// The line where the bad quote is.
        public let line: Int
        /// What is wrong.
        public let message: String
    }

    /// Splits UTF-8 text into records; blank lines are skipped.
    public static func parse(_ text: String) throws -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var line = 1
        var recordLine = 1
        var inQuotes = false
        var quotedFieldLine = 1
        var afterQuote = false  // just closed a quoted field: only a separator may follow
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil

        func endField() {
            fields.append(String(field))
            field = String.UnicodeScalarView()
            afterQuote = false
        }
        func endRecord() {
            endField()
            if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(line: recordLine, fields: fields)) }
            fields = []
        }

        while let scalar = pending ?? scalars.next() {
            pending = nil
            if inQuotes {
                if scalar == "\"" {
                    let next = scalars.next()
                    if next == "\"" { field.append("\"") } else { inQuotes = false; afterQuote = true; pending = next }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.append(scalar)
                }
                continue
            }
            switch scalar {
            case ",": endField()
            case "\r":
                let next = scalars.next()
                if next != "\n" { pending = next }
                endRecord(); line += 1; recordLine = line
            case "\n":
                endRecord(); line += 1; recordLine = line
            case "\"" where field.isEmpty && !afterQuote:
                inQuotes = true
                quotedFieldLine = line
            default:
                if afterQuote {
                    throw SyntaxError(line: line, message: "text after a closing quote (a quote inside a field must be doubled: \"\")")
                }
                if scalar == "\"" {
                    throw SyntaxError(line: line, message: "a quote in the middle of an unquoted field (quote the whole field and double the quote)")
                }
                field.append(scalar)
            }
        }
        if inQuotes { throw SyntaxError(line: quotedFieldLine, message: "a quoted field is never closed") }
        if !field.isEmpty || !fields.isEmpty || afterQuote { endRecord() }
        return records
    }

    /// One field, quoted when it holds a separator, a quote or a line break.
    public static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) || text.hasPrefix(" ") || text.hasSuffix(" ") else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
