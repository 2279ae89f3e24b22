import ExpenseLogModel
import Foundation

/// The text encodings inputs may come in: UTF-8, or Shift_JIS (CP932) as Japanese banks and apps export.
public enum TextEncoding: String, Sendable, CaseIterable {
    /// UTF-8, with or without a byte order mark.
    case utf8 = "utf-8"
    /// Shift_JIS with Microsoft's extensions (CP932, Windows-31J), which is what "Shift_JIS" exports really are.
    case shiftJIS = "shift_jis"

    /// The encoding for a name as users write it (`utf8`, `sjis`, `cp932`, `windows-31j`…).
    public init?(name: String) {
        switch name.lowercased().replacingOccurrences(of: "_", with: "-") {
        case "utf-8", "utf8": self = .utf8
        case "shift-jis", "shiftjis", "sjis", "cp932", "windows-31j", "ms932": self = .shiftJIS
        default: return nil
        }
    }

    /// Every name `init(name:)` reads, for help and completion.
    public static let names = ["utf-8", "shift_jis", "cp932"]

    /// The input as UTF-8 without a byte order mark: decoded as declared, else detected (UTF-8 when valid, else Shift_JIS).
    public static func utf8Bytes(
        of bytes: [UInt8], declared: TextEncoding?, name: String
    )
        -> Result<(bytes: [UInt8], encoding: TextEncoding), ValidationProblem>
    {
        func problem(
            _ line: Int, _ message: String
        ) -> Result<(bytes: [UInt8], encoding: TextEncoding), ValidationProblem> {
            .failure(ValidationProblem(location: SourceLocation(file: name, line: line), field: nil, message: message))
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return problem(1, "the file is UTF-16 text; save it as CSV in UTF-8 (or Shift_JIS) and try again")
        }
        let hasBOM = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        let body = hasBOM ? Array(bytes.dropFirst(3)) : bytes
        switch declared {
        case .utf8:
            if isUTF8(body) { return .success((body, .utf8)) }
            return problem(
                firstBadLine(body, valid: isUTF8),
                "the text is not valid UTF-8 here; if the file is Shift_JIS, "
                    + "pass --encoding shift_jis")
        case .shiftJIS:
            if let decoded = decodeShiftJIS(bytes) { return .success((Array(decoded.utf8), .shiftJIS)) }
            return problem(
                firstBadLine(bytes, valid: { decodeShiftJIS($0) != nil }),
                "the text is not valid Shift_JIS here; if the file is UTF-8, pass --encoding utf-8")
        case nil:
            if isUTF8(body) { return .success((body, .utf8)) }
            // A byte order mark settles it: the file is UTF-8, and a bad byte in it is damage, not Shift_JIS.
            if hasBOM {
                return problem(
                    firstBadLine(body, valid: isUTF8),
                    "the text is not valid UTF-8 here, though the file starts "
                        + "with a UTF-8 byte order mark; the file may be damaged")
            }
            if let decoded = decodeShiftJIS(bytes) { return .success((Array(decoded.utf8), .shiftJIS)) }
            return problem(
                firstBadLine(body, valid: { isUTF8($0) || decodeShiftJIS($0) != nil }),
                "the text is neither UTF-8 nor Shift_JIS; convert it to UTF-8 (e.g. iconv -f EUC-JP -t UTF-8) "
                    + "or pass --encoding")
        }
    }

    private static func isUTF8(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer(UTF8Text.isValid) }

    /// Shift_JIS never uses the newline byte inside a character, so each line can be checked alone.
    private static func firstBadLine(_ bytes: [UInt8], valid: ([UInt8]) -> Bool) -> Int {
        var line = 0
        for raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            line += 1
            if !valid(Array(raw)) { return line }
        }
        return max(line, 1)
    }

    private static func decodeShiftJIS(_ bytes: [UInt8]) -> String? {
        #if canImport(Darwin)
        // Darwin's .shiftJIS lacks the NEC and IBM extensions (①, ⅰ, 髙) that CP932 files use.
        let cp932 = String.Encoding(
            rawValue: CFStringConvertEncodingToNSStringEncoding(
                CFStringEncoding(CFStringEncodings.dosJapanese.rawValue)))
        return String(bytes: bytes, encoding: cp932)
        #else
        return String(bytes: bytes, encoding: .shiftJIS)
        #endif
    }
}
