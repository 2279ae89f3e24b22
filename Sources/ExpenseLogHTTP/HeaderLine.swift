// Linux only: URLSession parses its own headers.
#if os(Linux)
import Foundation

/// A header line as libcurl's header callback hands it over.
enum HeaderLine {
    /// Adds `Name: value` to `headers`: the name lowercased, the spaces, tabs and line end around name and value left
    /// out, a repeated field's values joined with ", ". False when the line has no colon.
    static func add<Line: BidirectionalCollection<UInt8>>(_ line: Line, to headers: inout [String: String]) -> Bool {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let name = String(decoding: trimmed(line[..<colon]), as: UTF8.self).lowercased()
        let value = String(decoding: trimmed(line[line.index(after: colon)...]), as: UTF8.self)
        headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        return true
    }

    /// Bytes without the spaces, tabs and line ending around them (bytes: this runs for every header line).
    private static func trimmed<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> Bytes.SubSequence {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, isSpace(bytes[start]) { bytes.formIndex(after: &start) }
        while end > start, isSpace(bytes[bytes.index(before: end)]) { bytes.formIndex(before: &end) }
        return bytes[start..<end]
    }
}
#endif
