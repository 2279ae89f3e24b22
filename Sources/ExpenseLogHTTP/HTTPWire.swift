import Foundation

/// HTTP/1.1 as bytes on a connection (RFC 9112), for the built-in client: a request's head and body, and the answer
/// read piece by piece as it arrives.
enum HTTPWire {
    /// The request as it goes on the wire: request line, `Host`, the request's fields, the body's length, the body.
    /// `close` asks the server to close the connection after answering (every request but a GET).
    static func request(_ request: HTTPRequest, close: Bool) -> [UInt8] {
        let parts = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        var target = parts?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = parts?.percentEncodedQuery { target += "?" + query }
        var host = SocketAddressing.host(of: request.url)
        if host.contains(":") { host = "[\(host)]" }
        if let port = request.url.port { host += ":\(port)" }
        var head = "\(request.method) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if let body = request.body { head += "Content-Length: \(body.count)\r\n" } else if request.method == "POST" { head += "Content-Length: 0\r\n" }
        if close { head += "Connection: close\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if let body = request.body { bytes.append(contentsOf: body) }
        return bytes
    }
}

/// A URL's host as a socket takes it: an IPv6 literal without its brackets.
enum SocketAddressing {
    static func host(of url: URL) -> String {
        let host = url.host ?? ""
        return host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}

/// A header line as both Linux transports read it (the built-in client's `ResponseReader`, libcurl's header callback).
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

/// What can be wrong with an answer's bytes.
enum WireError: Error, Equatable {
    /// The body would pass the request's size limit.
    case tooLarge
    /// The connection closed before the answer was whole.
    case cutShort
    /// The bytes are not HTTP/1.x.
    case malformed(String)
}

/// An answer read as its bytes arrive: the head, then the body as `Content-Length`, chunked transfer coding or the end
/// of the connection delimits it. `1xx` answers before the real one (`100 Continue`) are skipped.
struct ResponseReader {
    private enum Stage { case head, sized(Int), chunkSize, chunk(Int), chunkEnd, trailer, untilClose, done }

    /// The answer's status code, once its head is read.
    private(set) var status = 0
    /// Its header fields, names lowercased; a repeated field's values joined with ", ".
    private(set) var headers: [String: String] = [:]
    /// The body so far.
    private(set) var body = Data()
    /// Whether the connection may carry another request once the answer is whole.
    private(set) var keepsConnection = true
    /// Whether any byte of an answer arrived (a kept connection that died before one may be retried).
    private(set) var started = false
    private var stage = Stage.head
    private var line: [UInt8] = []
    /// Bytes of head and trailer lines so far: past 256 KiB (curl's limit is 300 KB) the answer is refused.
    private var headBytes = 0
    private let limit: Int
    private let hasBody: Bool

    /// A reader for the answer to a request made with `method`, refusing a body larger than `limit` bytes.
    init(method: String, limit: Int) {
        self.limit = limit
        hasBody = method != "HEAD"
    }

    /// Whether the whole answer has been read.
    var isComplete: Bool { if case .done = stage { return true } else { return false } }

    /// Takes the next bytes from the connection.
    mutating func take(_ bytes: UnsafeRawBufferPointer) throws(WireError) {
        if !bytes.isEmpty { started = true }
        var index = 0
        while index < bytes.count {
            switch stage {
            case .sized(let left), .chunk(let left):
                let count = min(left, bytes.count - index)
                try append(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]))
                index += count
                if case .sized = stage { stage = left == count ? .done : .sized(left - count) } else { stage = left == count ? .chunkEnd : .chunk(left - count) }
            case .untilClose:
                try append(UnsafeRawBufferPointer(rebasing: bytes[index...]))
                index = bytes.count
            case .done:
                // Bytes after a whole answer: nothing was asked for them, so the connection is not used again.
                keepsConnection = false
                return
            case .head, .chunkSize, .chunkEnd, .trailer:
                let newline = bytes[index...].firstIndex(of: 0x0A)
                headBytes += (newline ?? bytes.count) - index + 1
                guard headBytes <= 262_144 else { throw .malformed("header lines longer than 256 KiB in all") }
                guard let newline else {
                    line.append(contentsOf: bytes[index...])
                    return
                }
                line.append(contentsOf: bytes[index..<newline])
                index = newline + 1
                if line.last == 0x0D { line.removeLast() }
                try endOfLine()
                line.removeAll(keepingCapacity: true)
            }
        }
    }

    /// The connection closed: fine when the body runs to its end, otherwise the answer was cut short.
    mutating func finish() throws(WireError) {
        switch stage {
        case .untilClose: stage = .done
        case .done: break
        default: throw .cutShort
        }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) throws(WireError) {
        guard body.count + bytes.count <= limit else { throw .tooLarge }
        body.append(contentsOf: bytes)
    }

    private mutating func endOfLine() throws(WireError) {
        switch stage {
        case .head where status == 0: try statusLine()
        case .head where line.isEmpty: try startBody()
        case .head: try field()
        case .chunkSize:
            // Hex digits only (Int(_:radix:) would take a sign), spaces allowed before an extension; leading zeros dropped.
            let digits = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != 0x20 && $0 != 0x09 }.drop { $0 == UInt8(ascii: "0") }
            guard line.first.map(Self.isHexDigit) == true, digits.allSatisfy(Self.isHexDigit), digits.count <= 15,
                  let size = Int(String(decoding: digits.isEmpty ? [UInt8(ascii: "0")] : Array(digits), as: UTF8.self), radix: 16) else {
                throw .malformed("a chunk size that is not a hexadecimal number")
            }
            if size == 0 { stage = .trailer } else {
                guard body.count + size <= limit else { throw .tooLarge }
                stage = .chunk(size)
            }
        case .chunkEnd:
            guard line.isEmpty else { throw .malformed("a chunk longer than its size") }
            stage = .chunkSize
        case .trailer:
            if line.isEmpty { stage = .done }
        default: break
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private mutating func statusLine() throws(WireError) {
        let words = line.split(separator: 0x20, maxSplits: 2)
        guard words.count >= 2, words[0].starts(with: "HTTP/1.".utf8), words[1].count == 3,
              let code = Int(String(decoding: words[1], as: UTF8.self)) else {
            throw .malformed("not an HTTP/1.x answer")
        }
        status = code
        if words[0].elementsEqual("HTTP/1.0".utf8) { keepsConnection = false }
    }

    private mutating func field() throws(WireError) {
        guard HeaderLine.add(line, to: &headers) else { throw .malformed("a header line without a colon") }
    }

    private mutating func startBody() throws(WireError) {
        if (100..<200).contains(status) {
            // An interim answer: the real one follows on the same connection.
            (status, headers) = (0, [:])
            return
        }
        if headers["connection"]?.lowercased().contains("close") == true { keepsConnection = false }
        if !hasBody || status == 204 || status == 304 {
            stage = .done
        } else if let codings = headers["transfer-encoding"] {
            // Chunked only as the last coding; any other transfer coding runs to the connection's end (RFC 9112 6.3),
            // and a Content-Length beside it is ignored.
            if codings.split(separator: ",").last?.trimmingCharacters(in: .whitespaces).lowercased() == "chunked" {
                stage = .chunkSize
            } else {
                keepsConnection = false
                stage = .untilClose
            }
        } else if let text = headers["content-length"] {
            guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(text) else {
                throw .malformed("a Content-Length that is not a number")
            }
            guard length <= limit else { throw .tooLarge }
            body.reserveCapacity(length)
            stage = length == 0 ? .done : .sized(length)
        } else {
            keepsConnection = false
            stage = .untilClose
        }
    }
}
