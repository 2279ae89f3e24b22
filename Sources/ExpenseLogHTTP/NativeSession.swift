// Linux only: macOS uses URLSessionSession (Transport.makeSession).
#if os(Linux)
import CTLS
import Foundation
import Synchronization

/// The live session on Linux: HTTP/1.1 over the C library's sockets, TLS by the system's OpenSSL (loaded by the first
/// https request), one transfer per request on a thread of `TransferThreads`.
///
/// libcurl loads some thirty libraries (GnuTLS, Kerberos, LDAP, SSH, RTMP, ...) that a request to Apps Script never
/// uses: 8 MB of the import's 27 MB peak. This client does what the app needs and no more: GET and POST, an answer
/// sized, chunked or read to its end, the size limit held piece by piece, one deadline for the whole transfer.
/// Redirects are followed by `Redirects`; proxies are curl's job (`Transport.makeSession` picks `CurlSession` when a
/// proxy variable is set). Like `CurlSession`, a GET reuses a connection a GET left open, and every other request has
/// one of its own, so a POST is never sent on a kept connection that may have died.
public struct NativeSession: Session {
    private let kept = KeptConnections()
    private let addresses = AddressCache()
    private let tls: TLSContext

    /// A session trusting the system's certificates (OpenSSL's default paths, which `SSL_CERT_FILE` and `SSL_CERT_DIR`
    /// override), or only those in `trustedCertificates` (a PEM file) when given.
    public init(trustedCertificates: String? = nil) {
        tls = TLSContext(file: trustedCertificates)
    }

    /// Sends the request and follows redirects before its deadline; failures come back as `TransportError`s.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await Redirects.follow(request, until: ContinuousClock.now + .seconds(request.timeout)) { hop, deadline in
            try await perform(hop, until: deadline)
        }
    }

    /// One hop, on a thread of `TransferThreads`: a blocking transfer must never hold a thread of the cooperative pool.
    func perform(_ request: HTTPRequest, until deadline: ContinuousClock.Instant) async throws -> HTTPResponse {
        let stop = StopFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                TransferThreads.shared.run { [kept, addresses, tls] in
                    let outcome = Result { () throws(TransportError) in
                        try Self.transfer(request, kept: kept, addresses: addresses, tls: tls, until: deadline, stop: stop)
                    }
                    return { continuation.resume(with: outcome) }
                }
            }
        } onCancel: {
            stop.set()
        }
    }

    /// The exchange, blocking: on a kept connection for a GET when one is idle (again on a new one if the server closed
    /// the kept one before a byte of the answer: a GET may be sent twice), else on a new connection.
    static func transfer(_ request: HTTPRequest, kept: KeptConnections, addresses: AddressCache, tls: TLSContext,
                         until deadline: ContinuousClock.Instant, stop: StopFlag) throws(TransportError) -> HTTPResponse {
        let reusable = request.method == "GET"
        let origin = SocketConnection.origin(of: request.url)
        do {
            if reusable, let connection = kept.take(origin) {
                do {
                    return try exchange(request, on: connection, reusable: true, kept: kept, until: deadline, stop: stop)
                } catch WireFailure.closedBeforeAnswer {
                    // The server let the idle connection go as the request went out.
                }
            }
            let connection = try SocketConnection.open(to: request.url, addresses: addresses, until: deadline, stop: stop) { () throws(NetworkFailure) in
                try tls.context()
            }
            return try exchange(request, on: connection, reusable: reusable, kept: kept, until: deadline, stop: stop)
        } catch let failure as NetworkFailure {
            throw .network(url: request.url, reason: failure)
        } catch WireError.tooLarge {
            throw .answerTooLarge(url: request.url, limit: request.maxAnswerBytes)
        } catch WireError.malformed(let detail) {
            throw .network(url: request.url, reason: .other("the server's answer is not HTTP: \(detail)"))
        } catch {
            // WireError.cutShort, or a new connection closed before any answer.
            throw .network(url: request.url, reason: .connectionLost)
        }
    }

    /// A connection that ended before a byte of the answer came.
    private enum WireFailure: Error { case closedBeforeAnswer }

    /// One request and its answer on `connection`, which is kept afterwards when the answer allows it.
    private static func exchange(_ request: HTTPRequest, on connection: SocketConnection, reusable: Bool, kept: KeptConnections,
                                 until deadline: ContinuousClock.Instant, stop: StopFlag) throws -> HTTPResponse {
        var reader = ResponseReader(method: request.method, limit: request.maxAnswerBytes)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 8)
        defer { buffer.deallocate() }
        do {
            try HTTPWire.request(request, close: !reusable).withUnsafeBytes { try connection.send($0, until: deadline, stop: stop) }
            while !reader.isComplete {
                let count = try connection.receive(into: buffer, until: deadline, stop: stop)
                if count == 0 {
                    try reader.finish()
                } else {
                    try reader.take(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                }
            }
        } catch NetworkFailure.connectionLost where !reader.started {
            throw WireFailure.closedBeforeAnswer
        } catch WireError.cutShort where !reader.started {
            throw WireFailure.closedBeforeAnswer
        }
        if reusable, reader.keepsConnection { kept.give(connection) }
        return HTTPResponse(status: reader.status, headers: reader.headers, body: reader.body, url: request.url)
    }
}

/// A session's idle connections, the most recently used last; at most eight, the oldest let go first.
final class KeptConnections: Sendable {
    private let idle = Mutex<[SocketConnection]>([])

    /// An idle connection to `origin` that the server has not closed, if any.
    func take(_ origin: String) -> SocketConnection? {
        while let connection = idle.withLock({ list in list.lastIndex { $0.origin == origin }.map { list.remove(at: $0) } }) {
            if connection.isQuiet { return connection }
        }
        return nil
    }

    /// Keeps a connection whose answer was read whole, for the next GET to the same place.
    func give(_ connection: SocketConnection) {
        idle.withLock { list in
            list.append(connection)
            if list.count > 8 { list.removeFirst() }
        }
    }
}

/// The session's OpenSSL context, made by its first https request (which loads libssl) and shared by its connections.
final class TLSContext: Sendable {
    private let file: String?
    /// The context's address once made, or why it could not be.
    private let made = Mutex<Result<UInt, NetworkFailure>?>(nil)

    init(file: String?) {
        self.file = file
    }

    /// The context, made on first use.
    func context() throws(NetworkFailure) -> UnsafeMutableRawPointer {
        let result = made.withLock { made -> Result<UInt, NetworkFailure> in
            if let made { return made }
            var reason = [CChar](repeating: 0, count: 512)
            let context = el_tls_context(file, &reason, reason.count)
            let result: Result<UInt, NetworkFailure> = context.map { .success(UInt(bitPattern: $0)) }
                ?? .failure(.tls(String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
            made = result
            return result
        }
        guard let context = UnsafeMutableRawPointer(bitPattern: try result.get()) else { throw .tls("no TLS context") }
        return context
    }

    deinit {
        if case .success(let address) = made.withLock({ $0 }), let context = UnsafeMutableRawPointer(bitPattern: address) {
            el_tls_context_free(context)
        }
    }
}
#endif
