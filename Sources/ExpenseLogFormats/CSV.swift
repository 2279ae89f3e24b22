import Foundation

/// An RFC 4180 CSV reader and writer: quoted fields, doubled quotes, newlines inside quotes, CRLF or LF.
public enum CSV {
    /// One record with the line it starts on.
    public struct Record: Sendable, Equatable {
        /// The 1-based line of the record's first byte.
        public let line: Int
        /// The fields, unquoted.
        public let fields: [String]

        /// A record at a line (a profile's own header for a header-less layout).
        public init(line: Int, fields: [String]) {
            (self.line, self.fields) = (line, fields)
        }

        /// Whether every field is empty or spaces (a blank line, or `,,,,` a spreadsheet saved).
        public var isBlank: Bool { fields.allSatisfy { $0.isBlank } }  // a closure: a key path is looked up at run time
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
        var reader = Reader(Array(text.utf8))
        var records: [Record] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    /// Reads records one at a time from UTF-8 bytes, so a large file is never held as records.
    ///
    /// It works on bytes, not characters: every byte that matters (quote, comma, CR, LF) is ASCII, and UTF-8 never
    /// uses an ASCII byte inside a character; a field becomes a String only once it is complete.
    public struct Reader {
        private var bytes: [UInt8]
        private var index = 0
        private var line = 1
        /// How many fields the last record had.
        private var lastWidth = 8
        /// A field with doubled quotes, unquoted; reused so that such fields cost no allocation each.
        private var scratch: [UInt8] = []
        /// Gives the input's next bytes (nil at its end), when it is read a chunk at a time.
        private let more: (() throws -> [UInt8]?)?
        private var isComplete: Bool
        /// Bytes at the start still to skip (a byte order mark).
        private var toSkip = 0

        /// A reader over text that is already valid UTF-8 (without a byte order mark).
        public init(_ bytes: [UInt8]) {
            self.bytes = bytes
            more = nil
            isComplete = true
        }

        /// A reader over valid UTF-8 handed over by `more` a chunk at a time (nil at the end), less its first `skipping` bytes.
        public init(chunks more: @escaping () throws -> [UInt8]?, skipping: Int = 0) {
            // A chunk may end anywhere, even inside a character; only about a chunk is held at once.
            bytes = []
            self.more = more
            isComplete = false
            toSkip = skipping
        }

        /// Thrown where the bytes held run out before the input does: the record is read again with more bytes.
        private struct NeedMore: Error {}

        /// A record past `InputLimits.recordBytes`: a binary file given by mistake, `/dev/zero`, or an unclosed quote.
        static func tooLong(line: Int) -> SyntaxError {
            SyntaxError(
                line: line,
                message: "a record longer than \(InputLimits.recordBytes >> 20) MiB; is this a CSV file "
                    + "of items? (an unclosed quote also makes one record of the rest)")
        }

        /// The next record that is not blank, or nil at the end; rethrows what `more` throws.
        public mutating func next() throws -> Record? {
            while true {
                let (start, startLine) = (index, line)
                do {
                    guard let record = try nextLine() else { return nil }
                    // Held whole or read in chunks, a record past the limit is refused alike.
                    if index - start > InputLimits.recordBytes { throw Self.tooLong(line: startLine) }
                    if record.fields.count == 1 && record.fields[0].isEmpty { continue }  // a blank line
                    return record
                } catch is NeedMore {
                    (index, line) = (start, startLine)
                    try readMore()
                }
            }
        }

        /// Drops the bytes already read and adds a chunk, or as many bytes as are left if that is more (so a record
        /// longer than a chunk is read again a few times, not once per chunk), or marks the end.
        private mutating func readMore() throws {
            guard let more else { return }
            bytes.removeSubrange(..<index)
            index = 0
            // What is held now is one record: past the limit, this is no CSV of expenses (a binary file, /dev/zero).
            if bytes.count > InputLimits.recordBytes { throw Self.tooLong(line: line) }
            let wanted = bytes.count + max(bytes.count, 1)
            while bytes.count < wanted {
                guard let chunk = try more() else {
                    isComplete = true
                    return
                }
                // A first chunk is taken as it is: a whole input handed over at once is then not copied.
                if bytes.isEmpty { bytes = chunk } else { bytes.append(contentsOf: chunk) }
                let skipped = min(toSkip, bytes.count - index)
                index += skipped
                toSkip -= skipped
            }
        }

        /// Whether a byte is held at `position`: false at the input's end, NeedMore where only the bytes held end.
        @inline(__always)
        private func has(_ position: Int) throws -> Bool {
            if position < bytes.count { return true }
            if isComplete { return false }
            throw NeedMore()
        }

        /// The record (perhaps a blank line) at `index`, or nil at the end.
        private mutating func nextLine() throws -> Record? {
            guard try has(index) else { return nil }
            let recordLine = line
            // As many fields as the last record had, reserved at once: grown one by one, the array was reallocated
            // three times a row.
            var fields: [String] = []
            fields.reserveCapacity(lastWidth)
            defer { lastWidth = max(fields.count, 1) }
            var ended = false
            while !ended {
                fields.append(try field())
                // `field()` stops at a separator, a line break or the end.
                if try !has(index) {
                    ended = true
                } else {
                    let byte = bytes[index]
                    index += 1
                    if byte == UInt8(ascii: "\r") {
                        if try has(index), bytes[index] == UInt8(ascii: "\n") { index += 1 }
                        line += 1
                        ended = true
                    } else if byte == UInt8(ascii: "\n") {
                        line += 1
                        ended = true
                    }
                }
            }
            return Record(line: recordLine, fields: fields)
        }

        /// One field, leaving `index` on the byte after it (a comma, CR, LF) or at the end.
        private mutating func field() throws -> String {
            let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
            let start = index
            guard try has(index), bytes[index] == quote else {
                while try has(index) {
                    let byte = bytes[index]
                    if byte == comma || byte == cr || byte == lf { break }
                    if byte == quote {
                        throw SyntaxError(
                            line: line,
                            message:
                                "a quote in the middle of an unquoted field (quote the whole field and double the quote)"
                        )
                    }
                    index += 1
                }
                return String(decoding: bytes[start..<index], as: UTF8.self)
            }
            let openedOn = line
            index += 1
            var segment = index
            var doubled = false
            while true {
                guard try has(index) else {
                    throw SyntaxError(line: openedOn, message: "a quoted field is never closed")
                }
                let byte = bytes[index]
                if byte == lf {
                    line += 1
                } else if byte == quote {
                    if try has(index + 1), bytes[index + 1] == quote {
                        // `""` is one quote: keep the text so far with it, and go on after the pair.
                        if !doubled { scratch.removeAll(keepingCapacity: true) }
                        doubled = true
                        scratch.append(contentsOf: bytes[segment...index])
                        index += 2
                        segment = index
                        continue
                    }
                    break
                }
                index += 1
            }
            let text: String
            if doubled {
                scratch.append(contentsOf: bytes[segment..<index])
                text = String(decoding: scratch, as: UTF8.self)
            } else {
                text = String(decoding: bytes[segment..<index], as: UTF8.self)
            }
            index += 1  // the closing quote
            if try has(index), bytes[index] != comma, bytes[index] != cr, bytes[index] != lf {
                throw SyntaxError(
                    line: line, message: "text after a closing quote (a quote inside a field must be doubled: \"\")")
            }
            return text
        }
    }

    /// One field, quoted when it holds a separator, a quote or a line break.
    public static func field(_ text: String) -> String {
        guard
            text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) || text.hasPrefix(" ")
                || text.hasSuffix(" ")
        else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
