import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a server's answer to a POST is the body sent, read side by side with it. A server usually answers with the
/// items it was sent, written as they were sent; then the sent items are the answer, and none has to be made from it
/// (reading an `Item` from every answered row was the largest part of an import's reading after its own input).
public enum EchoedItems {
    /// Whether `answer` is `sent` (the JSON body POSTed) token for token: the same bytes but for the whitespace JSON
    /// allows between tokens (one server indents, another writes `", "`). Anything else — another key order, a value
    /// of another type, another escape — is false, and the answer takes the general reading.
    public static func match(_ answer: Data, sent: Data) -> Bool {
        answer.withUnsafeBytes { a in sent.withUnsafeBytes { s in sameTokens(a, s) } }
    }

    private static func sameTokens(_ a: UnsafeRawBufferPointer, _ s: UnsafeRawBufferPointer) -> Bool {
        guard let aBase = a.baseAddress, let sBase = s.baseAddress else { return a.count == s.count }
        var i = 0, j = 0
        while true {
            guard i < a.count, j < s.count else {
                _ = skip(a, &i)
                _ = skip(s, &j)
                return i == a.count && j == s.count
            }
            let byte = a[i]
            guard byte == s[j] else {
                // Whitespace on one side only: skipped on both, unless it splits a number or a literal in the answer
                // (the body sent, written by this tool, has none inside one).
                let start = i
                guard skip(a, &i) || skip(s, &j) else { return false }
                _ = skip(a, &i)
                _ = skip(s, &j)
                if i > start, start > 0, i < a.count, isWordByte(a[start - 1]), isWordByte(a[i]) { return false }
                continue
            }
            i += 1
            j += 1
            guard byte == UInt8(ascii: "\"") else { continue }
            // A string: its bytes up to the next quote or backslash are found in the answer and compared whole; an
            // escape's two bytes are compared as they are (an escaped quote does not close the string).
            while true {
                // memchr finds the quote; a run with a backslash is cut at it. A control character needs no check: the
                // body sent has none, so a run holding one is not the same bytes.
                guard let quote = memchr(aBase + i, Int32(UInt8(ascii: "\"")), a.count - i) else { return false }
                var end = UnsafeRawPointer(quote) - aBase
                if let backslash = memchr(aBase + i, Int32(UInt8(ascii: "\\")), end - i) {
                    end = UnsafeRawPointer(backslash) - aBase
                }
                let run = end - i
                guard end < a.count, j + run < s.count, memcmp(aBase + i, sBase + j, run + 1) == 0 else { return false }
                let stop = a[end]
                i = end + 1
                j += run + 1
                if stop == UInt8(ascii: "\"") { break }
                guard stop == UInt8(ascii: "\\"), i < a.count, j < s.count, a[i] == s[j] else { return false }
                i += 1
                j += 1
            }
        }
    }

    /// Skips JSON whitespace; whether any was there.
    private static func skip(_ bytes: UnsafeRawBufferPointer, _ index: inout Int) -> Bool {
        let start = index
        while index < bytes.count, JSONParser.isWhitespace(bytes[index]) { index += 1 }
        return index > start
    }

    /// A byte of a number or of `true`, `false`, `null`.
    private static func isWordByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
    }
}
