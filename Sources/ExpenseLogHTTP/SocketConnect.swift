// Linux only: the built-in client's sockets (NativeSession); macOS uses URLSession.
#if os(Linux)
import Foundation
import Glibc

extension SocketConnection {
    /// A connected, non-blocking TCP socket to `host`: each address the name resolves to is tried in turn, until one
    /// accepts or the deadline passes. Failures are curl's: the name unknown, the connection refused, the time out.
    static func connect(host: String, port: Int, addresses cache: AddressCache, until deadline: ContinuousClock.Instant,
                        stop: StopFlag) throws(NetworkFailure) -> Int32 {
        let addresses = try cache.addresses(of: host, port: port, until: deadline, stop: stop)
        var failure = NetworkFailure.refused
        for (index, address) in addresses.enumerated() {
            // An address that does not answer (IPv6 routed nowhere) has two seconds before the next one is tried; the
            // last has what is left of the deadline.
            let attempt = index == addresses.count - 1 ? deadline : min(deadline, ContinuousClock.now + .seconds(2))
            let fd = socket(address.family, address.type | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), address.proto)
            guard fd >= 0 else {
                failure = .other("could not open a socket (\(String(cString: strerror(errno))))")
                continue
            }
            var on: Int32 = 1
            // The request goes out in one write; no waiting for an acknowledgement before a small one.
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            do {
                try connect(fd, to: address, until: attempt, stop: stop)
                return fd
            } catch {
                close(fd)
                if stop.isSet || ContinuousClock.now >= deadline { throw error }
                failure = error
            }
        }
        throw failure
    }

    private static func connect(_ fd: Int32, to address: SocketAddress, until deadline: ContinuousClock.Instant, stop: StopFlag) throws(NetworkFailure) {
        let (started, code) = address.bytes.withUnsafeBytes { bytes in
            var storage = sockaddr_storage()
            let length = min(bytes.count, MemoryLayout<sockaddr_storage>.size)
            withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[..<length])) }
            let result = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(length)) }
            }
            return (result, errno)
        }
        if started == 0 { return }
        guard code == EINPROGRESS || code == EINTR else { throw failure(code) }
        try wait(fd, POLLOUT, until: deadline, stop: stop)
        var problem: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &problem, &length)
        if problem != 0 { throw failure(problem) }
    }

    private static func failure(_ code: Int32) -> NetworkFailure {
        switch code {
        case ECONNREFUSED: return .refused
        case ETIMEDOUT: return .timedOut
        case ENETUNREACH, EHOSTUNREACH: return .offline
        default: return .other("could not connect (\(String(cString: strerror(code))))")
        }
    }
}
#endif
