#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Command-line arguments that are not valid UTF-8 (a file name from another system, `bad\xff.csv`), kept exactly.
///
/// Swift's `CommandLine.arguments` replaces such bytes with U+FFFD, so the file could not be opened again. Here each
/// byte that is not part of valid UTF-8 becomes a private-use scalar (U+10FF00 + byte, as Python's surrogateescape
/// does with lone surrogates, which a Swift String cannot hold), and turns back into that byte to open the file.
public enum ArgumentBytes {
    private static let base: UInt32 = 0x10_FF00

    /// The process's arguments after the program name, undecodable bytes kept as private-use scalars.
    public static func processArguments() -> [String] {
        (1..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map {
                decode(Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map(UInt8.init(bitPattern:)))
            }
        }
    }

    /// Bytes as a String, each byte that is not valid UTF-8 as U+10FF00 + byte.
    public static func decode(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            // The longest valid UTF-8 sequence at `index`, if any.
            let lead = bytes[index]
            let length =
                lead < 0x80
                ? 1
                : lead >= 0xC2 && lead < 0xE0
                    ? 2 : lead >= 0xE0 && lead < 0xF0 ? 3 : lead >= 0xF0 && lead < 0xF5 ? 4 : 0
            if length > 0, index + length <= bytes.count,
                let piece = String(validating: bytes[index..<index + length], as: UTF8.self)
            {
                scalars.append(contentsOf: piece.unicodeScalars)
                index += length
            } else {
                scalars.append(Unicode.Scalar(base + UInt32(lead)) ?? "\u{FFFD}")
                index += 1
            }
        }
        return String(scalars)
    }

    /// The bytes a String of `decode` came from: the path to give to the system.
    public static func encode(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            if isKeptByte(scalar) {
                bytes.append(UInt8(scalar.value - base))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Whether a scalar stands for a byte that was not valid UTF-8.
    private static func isKeptByte(_ scalar: Unicode.Scalar) -> Bool {
        (base + 0x80...base + 0xFF).contains(scalar.value)
    }

    /// The text to show: each kept byte as `\xFF`, so a message names the file the user can recognise and type.
    public static func display(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isKeptByte) else { return text }
        return text.unicodeScalars.map { scalar in
            isKeptByte(scalar)
                ? "\\x" + String(scalar.value - base, radix: 16, uppercase: true) : String(scalar)
        }.joined()
    }
}
