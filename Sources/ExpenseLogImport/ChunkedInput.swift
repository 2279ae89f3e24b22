import ExpenseLogFormats
import ExpenseLogModel

/// An input read a chunk at a time from its start, as often as asked: each call returns a next-chunk function.
public typealias ChunkedInput = () throws -> () throws -> [UInt8]?

extension InputReader {
    /// As `read(_:name:format:encoding:profile:detect:each:)`, over an input read a chunk at a time; rethrows its errors.
    public static func read(
        _ input: ChunkedInput, name: String, format: InputFormat?, encoding: TextEncoding? = nil,
        profile given: ImportProfile = .native, detect: Bool = false, each: (ItemDraft) -> Void
    ) throws -> ReadOutcome {
        var profile = given
        // CSV in UTF-8, which is what large imports are, is checked in a first pass and parsed in a second, so it is
        // never held whole. Anything else (Shift_JIS, JSON, UTF-16, invalid UTF-8 to explain) is read whole.
        func whole() throws -> ReadOutcome {
            var bytes: [UInt8] = []
            let next = try input()
            // The first chunk is taken as it is: an input held whole (a pipe) is then not copied.
            while let chunk = try next() {
                if bytes.isEmpty { bytes = chunk } else { bytes.append(contentsOf: chunk) }
                if bytes.count > InputLimits.wholeBytes {
                    return ReadOutcome(
                        problems: [
                            ValidationProblem(
                                location: SourceLocation(file: name, line: 1), field: nil,
                                message: InputLimits.wholeMessage)
                        ], refusedWhole: true)
                }
            }
            return read(
                bytes, name: name, format: format, encoding: encoding, profile: profile, detect: detect, each: each)
        }
        if (encoding ?? profile.encoding) == .shiftJIS || (format != nil && format != .csv) { return try whole() }
        var scan = UTF8Scan()
        let first = try input()
        while let chunk = try first() { scan.add(chunk) }
        guard scan.isValid, (format ?? (scan.startsLikeJSON ? .json : .csv)) == .csv else { return try whole() }
        // The layout is recognised from the first 64 KiB (whole lines), before the file is read a piece at a time.
        var detected: (name: String, profile: ImportProfile)?
        if detect {
            var prefix: [UInt8] = []
            let peek = try input()
            while prefix.count < 1 << 16, let chunk = try peek() { prefix += chunk.prefix((1 << 16) - prefix.count) }
            if let end = prefix.lastIndex(of: 0x0A) { prefix.removeSubrange((end + 1)...) }
            if scan.hasByteOrderMark { prefix.removeFirst(min(3, prefix.count)) }
            let reading = profile.reading(prefix, file: name)
            if let refusal = reading.refusal { return refusal }
            (profile, detected) = (reading.profile, reading.detected)
        }

        // The second pass is checked too: a file that changed in between is refused, never read half old, half new.
        var again = UTF8Scan(), drained = false
        let next = try input()
        var reader = CSV.Reader(
            chunks: {
                guard let chunk = try next() else {
                    drained = true
                    return nil
                }
                again.add(chunk)
                return chunk
            }, skipping: scan.hasByteOrderMark ? 3 : 0)
        var outcome = try profile.readCSV(&reader, name: name, each: each)
        outcome.detected = detected
        guard drained, again.count != scan.count || again.digest != scan.digest else { return outcome }
        return ReadOutcome(
            problems: [
                ValidationProblem(
                    location: SourceLocation(file: name, line: 1), field: nil,
                    message: "the file changed while it was read; register it again "
                        + "once nothing is writing to it")
            ], refusedWhole: true)
    }
}

/// Checks chunks of bytes as one UTF-8 text (a character may be split between chunks) and notes how the text begins.
struct UTF8Scan {
    /// The first three bytes: a byte order mark, or the start of the text.
    private var start: [UInt8] = []
    /// The first byte after them that is not blank, once seen.
    private var firstAfterStart: UInt8?
    /// The start of a character cut off at the end of the last chunk.
    private var pending: [UInt8] = []
    private var invalid = false
    /// How many bytes were added.
    private(set) var count = 0
    private var hasher = Hasher()

    /// Adds the next chunk.
    mutating func add(_ chunk: [UInt8]) {
        var offset = 0
        while start.count < 3, offset < chunk.count {
            start.append(chunk[offset])
            offset += 1
        }
        if firstAfterStart == nil, start.count == 3 {
            firstAfterStart = chunk[offset...].first { !JSONParser.isWhitespace($0) }
        }
        count += chunk.count
        chunk.withUnsafeBytes { hasher.combine(bytes: $0) }
        // A window at a time, so that a large chunk (a whole pipe) is never copied whole.
        var from = 0
        while !invalid, from < chunk.count {
            let to = min(from + (1 << 16), chunk.count)
            pending.append(contentsOf: chunk[from..<to])
            let cut = Self.completeLength(pending)
            invalid = !pending.withUnsafeBufferPointer { UTF8Text.isValid(UnsafeBufferPointer(rebasing: $0[..<cut])) }
            pending.removeSubrange(..<cut)
            from = to
        }
    }

    /// Whether everything added is UTF-8, not UTF-16 with its byte order mark.
    var isValid: Bool {
        !invalid && pending.isEmpty && !start.starts(with: [0xFF, 0xFE]) && !start.starts(with: [0xFE, 0xFF])
    }

    /// A hash of the bytes added, to tell whether a second read gave the same (within this process).
    var digest: Int { hasher.finalize() }

    /// Whether the text starts with a UTF-8 byte order mark.
    var hasByteOrderMark: Bool { start == [0xEF, 0xBB, 0xBF] }

    /// Whether the first byte that is not blank opens a JSON array or object.
    var startsLikeJSON: Bool {
        let first = JSONParser.firstSignificantByte(of: start) ?? firstAfterStart
        return first == UInt8(ascii: "[") || first == UInt8(ascii: "{")
    }

    /// How many bytes from the start end on a whole character: all of them, unless the last character is cut off.
    static func completeLength(_ bytes: [UInt8]) -> Int {
        for back in 1...3 where back <= bytes.count {
            let byte = bytes[bytes.count - back]
            if byte & 0xC0 == 0x80 { continue }  // a continuation byte: its lead is further back
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            return length > back ? bytes.count - back : bytes.count
        }
        return bytes.count
    }
}
