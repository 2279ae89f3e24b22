// Linux only: the built-in client's sockets and OpenSSL (NativeSession); macOS uses URLSession.
#if os(Linux)
import CTLS
import Foundation
import Glibc

/// One TCP connection to a server, with TLS for https, used by one transfer at a time. The socket does not block:
/// every wait is a poll(2) that ends at the transfer's deadline, or within a fifth of a second of a cancellation.
final class SocketConnection: Sendable {
    /// `scheme://host:port`: a kept connection serves only requests to the same place.
    let origin: String
    private let fd: Int32
    /// The OpenSSL connection's address, or 0 over plain http.
    private let tls: UInt

    private init(origin: String, fd: Int32, tls: UInt) {
        (self.origin, self.fd, self.tls) = (origin, fd, tls)
    }

    deinit {
        if let tls = UnsafeMutableRawPointer(bitPattern: tls) { el_tls_free(tls) }
        close(fd)
    }

    /// The place a URL's requests go to.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(url.port ?? Redirects.defaultPort(url) ?? 0)"
    }

    /// Connects to the URL's host (each address it resolves to in turn), with the TLS handshake for https.
    static func open(to url: URL, addresses: AddressCache, until deadline: ContinuousClock.Instant, stop: StopFlag,
                     tls makeContext: () throws(NetworkFailure) -> UnsafeMutableRawPointer) throws(NetworkFailure) -> SocketConnection {
        let scheme = url.scheme?.lowercased()
        let host = SocketAddressing.host(of: url)
        guard scheme == "http" || scheme == "https", !host.isEmpty, let port = url.port ?? Redirects.defaultPort(url) else {
            throw .redirect("not an http(s) URL")
        }
        let fd = try connect(host: host, port: port, addresses: addresses, until: deadline, stop: stop)
        guard scheme == "https" else { return SocketConnection(origin: origin(of: url), fd: fd, tls: 0) }
        let context: UnsafeMutableRawPointer
        do throws(NetworkFailure) { context = try makeContext() } catch {
            close(fd)
            throw error
        }
        let isAddress = host.contains(":") || host.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber }
        guard let tls = el_tls_new(context, fd, host, isAddress ? 1 : 0) else {
            close(fd)
            throw .tls("OpenSSL could not start a connection to \(host)")
        }
        let connection = SocketConnection(origin: origin(of: url), fd: fd, tls: UInt(bitPattern: tls))
        guard try connection.retry(.handshake, until: deadline, stop: stop, { el_tls_handshake(tls) }) > 0 else {
            throw .tls("the server closed the connection during the TLS handshake")
        }
        return connection
    }

    /// Sends all of `bytes`.
    func send(_ bytes: UnsafeRawBufferPointer, until deadline: ContinuousClock.Instant, stop: StopFlag) throws(NetworkFailure) {
        var sent = 0
        while sent < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[sent...])
            if let tls = UnsafeMutableRawPointer(bitPattern: tls) {
                let count = try retry(.data, until: deadline, stop: stop) { el_tls_write(tls, rest.baseAddress, Int32(min(rest.count, Int(Int32.max)))) }
                if count == 0 { throw .connectionLost }
                sent += count
            } else {
                sent += try plain(.output, until: deadline, stop: stop) { Glibc.send(fd, rest.baseAddress, rest.count, Int32(MSG_NOSIGNAL)) }
            }
        }
    }

    /// Reads what has arrived into `buffer` (waiting for something); 0 when the server closed the connection.
    func receive(into buffer: UnsafeMutableRawBufferPointer, until deadline: ContinuousClock.Instant, stop: StopFlag) throws(NetworkFailure) -> Int {
        if let tls = UnsafeMutableRawPointer(bitPattern: tls) {
            return try retry(.data, until: deadline, stop: stop) { el_tls_read(tls, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max)))) }
        }
        return try plain(.input, until: deadline, stop: stop) { recv(fd, buffer.baseAddress, buffer.count, 0) }
    }

    /// Whether a kept connection can take another request: nothing arrived on it while it was idle (a server that closed
    /// it makes it readable, at its end).
    var isQuiet: Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 0
    }

    private enum Direction { case input, output }

    /// Runs a plain socket call until it does something, waiting while the socket is not ready.
    private func plain(_ direction: Direction, until deadline: ContinuousClock.Instant, stop: StopFlag,
                       _ call: () -> Int) throws(NetworkFailure) -> Int {
        while true {
            let result = call()
            if result >= 0 { return result }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: try Self.wait(fd, direction == .input ? POLLIN : POLLOUT, until: deadline, stop: stop)
            case ECONNRESET, EPIPE: throw .connectionLost
            default: throw .other("the connection failed (\(String(cString: strerror(errno))))")
            }
        }
    }

    /// Runs an OpenSSL call until it does something, waiting for the socket as OpenSSL asks; 0 at a clean close (with
    /// TLS's close notice: a connection that just ends is lost, since anyone on the path could end it).
    /// Whether a TLS call sets the connection up (its failure is `.tls`: nothing was sent) or carries a request or its
    /// answer (its failure may come after the server had the request, so it never reads as "not sent").
    private enum Phase { case handshake, data }

    private func retry(_ phase: Phase, until deadline: ContinuousClock.Instant, stop: StopFlag, _ call: () -> Int32) throws(NetworkFailure) -> Int {
        guard let tls = UnsafeMutableRawPointer(bitPattern: tls) else { return 0 }
        while true {
            let result = call()
            if result > 0 { return Int(result) }
            switch el_tls_error(tls, result) {
            case Int32(EL_TLS_WANT_READ): try Self.wait(fd, POLLIN, until: deadline, stop: stop)
            case Int32(EL_TLS_WANT_WRITE): try Self.wait(fd, POLLOUT, until: deadline, stop: stop)
            case Int32(EL_TLS_CLOSED): return 0
            case Int32(EL_TLS_CUT): throw .connectionLost
            case Int32(EL_TLS_SYSCALL) where errno == EINTR: continue
            case Int32(EL_TLS_SYSCALL) where errno == 0 || errno == ECONNRESET || errno == EPIPE: throw .connectionLost
            default:
                var reason = [CChar](repeating: 0, count: 256)
                el_tls_describe(tls, &reason, reason.count)
                let detail = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw phase == .handshake ? .tls(detail) : .other("the secure connection broke off: \(detail)")
            }
        }
    }

    /// Waits until the socket is ready, the deadline passes or the transfer is cancelled.
    static func wait(_ fd: Int32, _ events: Int32, until deadline: ContinuousClock.Instant, stop: StopFlag) throws(NetworkFailure) {
        while true {
            if stop.isSet { throw .other("the request was cancelled") }
            guard ContinuousClock.now < deadline else { throw .timedOut }
            var entry = pollfd(fd: fd, events: Int16(events), revents: 0)
            let ready = poll(&entry, 1, Int32(min(200, Redirects.milliseconds(until: deadline))))
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw .other("poll failed (\(String(cString: strerror(errno))))") }
        }
    }
}
#endif
