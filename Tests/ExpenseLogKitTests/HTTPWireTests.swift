@testable import ExpenseLogHTTP
import Foundation
import Testing

/// The built-in client's HTTP/1.1 bytes: the request it writes, and answers read whole however the network cuts them.
@Suite struct HTTPWireTests {
    /// Feeds `answer` to a reader in pieces of `piece` bytes, then ends the connection if the reader still waits.
    func read(_ answer: String, piece: Int, method: String = "GET", limit: Int = 1 << 20, past: Bool = false) throws(WireError) -> ResponseReader {
        var reader = ResponseReader(method: method, limit: limit)
        let bytes = Array(answer.utf8)
        var start = 0
        while start < bytes.count, past || !reader.isComplete {
            let end = min(start + piece, bytes.count)
            let piece = Array(bytes[start..<end])
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: piece.count, alignment: 1)
            defer { buffer.deallocate() }
            buffer.copyBytes(from: piece)
            try reader.take(UnsafeRawBufferPointer(buffer))
            start = end
        }
        if !reader.isComplete { try reader.finish() }
        return reader
    }

    static let answers: [(name: String, wire: String, body: String, keeps: Bool)] = [
        ("sized", "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 12\r\n\r\n[{\"a\":\"é\"}]", "[{\"a\":\"é\"}]", true),
        ("chunked, with an extension and a trailer", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\n[1,2,\r\nA\r\n3,4,5,6,7]\r\n0\r\nX-Trailer: y\r\n\r\n",
         "[1,2,3,4,5,6,7]", true),
        ("read to the end of the connection", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html>moved</html>", "<html>moved</html>", false),
        ("after a 100 Continue", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok", "ok", true),
        ("the server closes", "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n[]", "[]", false),
        ("HTTP/1.0", "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}", "{}", false),
        ("no body", "HTTP/1.1 204 No Content\r\n\r\n", "", true),
        ("lines ended by LF alone", "HTTP/1.1 200 OK\nContent-Length: 3\n\nabc", "abc", true),
    ]

    @Test("an answer is read whole and alike whether it comes at once, byte by byte or in pieces of 7", arguments: answers.indices)
    func answersInAnyPieces(index: Int) throws {
        let answer = Self.answers[index]
        for piece in [1, 7, 4096] {
            let reader = try read(answer.wire, piece: piece)
            #expect(String(decoding: reader.body, as: UTF8.self) == answer.body, "\(answer.name), pieces of \(piece)")
            #expect(reader.keepsConnection == answer.keeps, "\(answer.name)")
            #expect(reader.isComplete)
        }
    }

    @Test("header names are lowercased, values trimmed, a repeated field's values joined")
    func headerFields() throws {
        let reader = try read("HTTP/1.1 302 Moved Temporarily\r\nLocation:  https://x.example/echo?k=1 \r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\nContent-Length: 0\r\n\r\n", piece: 3)
        #expect(reader.status == 302)
        #expect(reader.headers["location"] == "https://x.example/echo?k=1")
        #expect(reader.headers["set-cookie"] == "a=1, b=2")
    }

    @Test("an answer cut short, past the size limit or not HTTP is an error, not a shorter body")
    func badAnswers() {
        #expect(throws: WireError.cutShort) { try read("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", piece: 100) }
        #expect(throws: WireError.cutShort) { try read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab", piece: 100) }
        #expect(throws: WireError.cutShort) { try read("HTTP/1.1 200 OK\r\nContent-Le", piece: 100) }
        #expect(throws: WireError.tooLarge) { try read("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n", piece: 100, limit: 10) }
        #expect(throws: WireError.tooLarge) { try read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\n", piece: 1, limit: 10) }
        #expect(throws: WireError.tooLarge) { try read("HTTP/1.1 200 OK\r\n\r\n" + String(repeating: "x", count: 11), piece: 4, limit: 10) }
        #expect(throws: WireError.malformed("not an HTTP/1.x answer")) { try read("SSH-2.0-OpenSSH_9.2\r\n\r\n", piece: 100) }
        #expect(throws: WireError.malformed("a chunk size that is not a hexadecimal number")) {
            try read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", piece: 100)
        }
        #expect(throws: WireError.malformed("a Content-Length that is not a number")) { try read("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", piece: 100) }
    }

    @Test("bytes after a whole answer, which nothing asked for, keep the connection from being used again")
    func bytesAfterTheAnswer() throws {
        let answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]", wire = answer + "HTTP/1.1 200 OK\r\n"
        #expect(try read(answer, piece: 100).keepsConnection == true)
        #expect(try read(wire, piece: 100, past: true).keepsConnection == false)
        #expect(try read(wire, piece: 1, past: true).keepsConnection == false)
    }

    @Test("only chunked as the last transfer coding is chunked; anything else runs to the connection's end")
    func transferCodings() throws {
        let chunked = try read("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\nContent-Length: 1\r\n\r\n2\r\nab\r\n0\r\n\r\n", piece: 5)
        #expect(String(decoding: chunked.body, as: UTF8.self) == "ab" && chunked.keepsConnection)
        let other = try read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n2\r\nab", piece: 5)
        #expect(String(decoding: other.body, as: UTF8.self) == "2\r\nab" && !other.keepsConnection)
    }

    @Test("a signed or spaced number is not a chunk size or a Content-Length, and endless header lines are refused")
    func numbersAndHeadSize() throws {
        for size in ["-1", "+1", " 1", "0x1"] {
            #expect(throws: WireError.malformed("a chunk size that is not a hexadecimal number"), "\(size)") {
                try read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\(size)\r\nab\r\n0\r\n\r\n", piece: 3)
            }
        }
        #expect(try read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0002 ; x\r\nab\r\n0\r\n\r\n", piece: 3).body == Data("ab".utf8))
        #expect(throws: WireError.malformed("a Content-Length that is not a number")) { try read("HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\n", piece: 100) }
        let endless = "HTTP/1.1 200 OK\r\n" + String(repeating: "X-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n", count: 5_000)
        #expect(throws: WireError.malformed("header lines longer than 256 KiB in all")) { try read(endless, piece: 4096) }
    }

    @Test("a HEAD answer has no body, whatever its Content-Length says")
    func headHasNoBody() throws {
        let reader = try read("HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n", piece: 100, method: "HEAD")
        #expect(reader.isComplete && reader.body.isEmpty)
    }

    @Test("a request: the URL's path and query as given, Host with a port that is not the scheme's, the body's length")
    func requestBytes() {
        let post = HTTPRequest(method: "POST", url: URL(string: "http://127.0.0.1:8080/macros/s/AB%2Fc/exec?x=%E5%AE%B6")!,
                               headers: ["Content-Type": "application/json"], body: Data("[1]".utf8), timeout: 1)
        #expect(String(decoding: HTTPWire.request(post, close: true), as: UTF8.self) ==
                "POST /macros/s/AB%2Fc/exec?x=%E5%AE%B6 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\n"
                + "Content-Length: 3\r\nConnection: close\r\n\r\n[1]")
        let get = HTTPRequest(method: "GET", url: URL(string: "https://script.google.com")!, headers: ["Accept": "application/json"], timeout: 1)
        #expect(String(decoding: HTTPWire.request(get, close: false), as: UTF8.self) ==
                "GET / HTTP/1.1\r\nHost: script.google.com\r\nAccept: application/json\r\n\r\n")
        let v6 = HTTPRequest(method: "GET", url: URL(string: "http://[::1]:9/exec")!, timeout: 1)
        #expect(String(decoding: HTTPWire.request(v6, close: false), as: UTF8.self).contains("\r\nHost: [::1]:9\r\n"))
    }
}
