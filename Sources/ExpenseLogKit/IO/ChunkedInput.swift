/// An input that can be read from its start a chunk at a time, as often as asked (a regular file): each call starts a
/// new read and returns the function that gives its next chunk, nil at the end.
public typealias ChunkedInput = () throws -> () throws -> [UInt8]?

extension InputReader {
    /// As `read(_:name:format:encoding:profile:each:)`, over an input read a chunk at a time. CSV in UTF-8, which is
    /// what large imports are, is checked in a first pass and parsed in a second, so it is never held whole; anything
    /// else (Shift_JIS, JSON, UTF-16, invalid UTF-8 to explain) is read whole. Rethrows what reading the input throws.
    public static func read(_ input: ChunkedInput, name: String, format: InputFormat?, encoding: TextEncoding? = nil,
                            profile: ImportProfile = .native, each: (ItemDraft) -> Void) throws -> ReadOutcome {
        var scan = UTF8Scan()
        let first = try input()
        while let chunk = try first() { scan.add(chunk) }
        guard (encoding ?? profile.encoding) != .shiftJIS, scan.isValid,
              (format ?? (scan.startsLikeJSON ? .json : .csv)) == .csv else {
            var whole: [UInt8] = []
            whole.reserveCapacity(scan.count)
            let again = try input()
            while let chunk = try again() { whole.append(contentsOf: chunk) }
            return read(whole, name: name, format: format, encoding: encoding, profile: profile, each: each)
        }
        let next = try input()
        var byteOrderMark = scan.hasByteOrderMark ? 3 : 0
        var reader = CSV.Reader(chunks: {
            guard var chunk = try next() else { return nil }
            let dropped = min(byteOrderMark, chunk.count)
            chunk.removeFirst(dropped)
            byteOrderMark -= dropped
            return chunk
        })
        return try profile.readCSV(&reader, name: name, each: each)
    }
}

/// Checks chunks of bytes as one UTF-8 text (a character may be split between chunks) and notes how the text begins.
struct UTF8Scan {
    /// The bytes up to the first that is not blank (after a byte order mark), and at least the first three.
    private var head: [UInt8] = []
    private var headIsDone = false
    /// The start of a character cut off at the end of the last chunk.
    private var pending: [UInt8] = []
    private var invalid = false
    /// How many bytes were added.
    private(set) var count = 0

    /// Adds the next chunk.
    mutating func add(_ chunk: [UInt8]) {
        count += chunk.count
        if !headIsDone {
            head.append(contentsOf: chunk)
            headIsDone = head.count >= 3 && JSONParser.firstSignificantByte(of: head) != nil
        }
        guard !invalid else { return }
        pending.append(contentsOf: chunk)
        let cut = Self.completeLength(pending)
        invalid = String(validating: pending[..<cut], as: UTF8.self) == nil
        pending.removeSubrange(..<cut)
    }

    /// Whether everything added is UTF-8, not UTF-16 with its byte order mark.
    var isValid: Bool {
        !invalid && pending.isEmpty && !head.starts(with: [0xFF, 0xFE]) && !head.starts(with: [0xFE, 0xFF])
    }

    /// Whether the text starts with a UTF-8 byte order mark.
    var hasByteOrderMark: Bool { head.starts(with: [0xEF, 0xBB, 0xBF]) }

    /// Whether the first byte that is not blank opens a JSON array or object.
    var startsLikeJSON: Bool {
        let first = JSONParser.firstSignificantByte(of: head)
        return first == UInt8(ascii: "[") || first == UInt8(ascii: "{")
    }

    /// How many bytes from the start end on a whole character: all of them, unless the last character is cut off.
    static func completeLength(_ bytes: [UInt8]) -> Int {
        for back in 1...min(3, max(bytes.count, 1)) where back <= bytes.count {
            let byte = bytes[bytes.count - back]
            if byte & 0xC0 == 0x80 { continue }  // a continuation byte: its lead is further back
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            return length > back ? bytes.count - back : bytes.count
        }
        return bytes.count
    }
}
