import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback port where every connection is refused for as long as the test process runs.
///
/// A TCP socket bound to 127.0.0.1 port 0 and never listened on: on Linux a connect to it is refused, and while it
/// stays bound no other socket (a reference server started by a parallel test, or another process) can take the port.
/// Darwin silently drops a connection to a bound socket that is not listening (xnu's tcp_input.c drops a segment for a
/// CLOSED socket it finds), so the client would wait out its timeout: there the socket is connected (to a listener of
/// its own), which holds the port just as well and matches no new connection, so the kernel answers with a reset.
/// It is bound once, on first use (a global's initialiser runs once, thread-safely), and deliberately never closed.
private let refusedPortResult: Result<Int, TestFailure> = {
    #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { return .failure(TestFailure("socket() for the refused port failed: errno \(errno)")) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0  // the kernel picks a free port
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian  // 127.0.0.1
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
        }
    }
    guard bound else { return .failure(TestFailure("binding the refused port on 127.0.0.1 failed: errno \(errno)")) }
    #if canImport(Darwin)
    guard connectToALoopbackListener(fd) else {
        return .failure(TestFailure("connecting the refused port's socket failed: errno \(errno)"))
    }
    #endif
    return .success(Int(UInt16(bigEndian: address.sin_port)))
}()

#if canImport(Darwin)
/// Connects `fd` to a listener on another loopback port and accepts it; all three sockets stay open for the run.
private func connectToALoopbackListener(_ fd: Int32) -> Bool {
    let listener = socket(AF_INET, SOCK_STREAM, 0)
    guard listener >= 0 else { return false }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let connected = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(listener, $0, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &length) == 0
                && connect(fd, $0, length) == 0
        }
    }
    return connected && accept(listener, nil, nil) >= 0
}
#endif

/// The port of `refusedPortResult`, for connection-refused tests.
func closedPort() throws -> Int {
    try refusedPortResult.get()
}

/// The refused port does what the offline tests rely on.
@Suite struct RefusedPortTests {
    /// A fresh IPv4 TCP socket and 127.0.0.1 at `port`, for `body`; the socket is closed afterwards.
    func withLoopbackSocket<T>(_ port: Int, _ body: (Int32, UnsafePointer<sockaddr>, socklen_t) -> T) throws -> T {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    @Test func aConnectIsRefusedAndNoOtherSocketCanTakeThePort() throws {
        let port = try closedPort()
        #expect(try closedPort() == port, "one port for the whole run")
        let connected = try withLoopbackSocket(port) { fd, address, length in
            connect(fd, address, length) == 0 ? 0 : errno
        }
        #expect(connected == ECONNREFUSED, "connect to 127.0.0.1:\(port) gave errno \(connected)")
        // What a reference server does before it listens: the port is taken, so it can never get this one.
        let rebound = try withLoopbackSocket(port) { fd, address, length in
            // Darwin lets SO_REUSEADDR bind beside a connected socket; a server binds port 0, which the kernel never
            // hands out while the port is held, and a bind without the option is refused on both systems.
            #if !canImport(Darwin)
            var on: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            #endif
            return bind(fd, address, length) == 0 ? 0 : errno
        }
        #expect(rebound == EADDRINUSE, "bind to 127.0.0.1:\(port) gave errno \(rebound)")
    }
}
