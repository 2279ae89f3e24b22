import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One request as the reference server logged it.
struct LoggedRequest: Decodable, Sendable {
    let method: String
    let path: String
    let query: String
    let headers: [String: String]
    let body: String?
    let status: Int?
    /// When the server received it (seconds since 1970).
    let time: Double
    /// When the server began its answer (seconds since 1970); nil when it sent none (a dropped connection).
    let answered: Double?
    /// The client's port: requests with the same one came on one connection.
    let peer: Int
    /// Whether it came over TLS (a server started with `--tls`).
    let tls: Bool
}

/// The project's reference server (Tests/ReferenceServer/server.py) on a free loopback port, for one test.
///
/// It is forked by the run's `ServerZygote`, and exits when the zygote does, so a crashed test run leaves no server behind.
struct ReferenceServer {
    let port: Int
    /// The name the tests reach it by: `localhost` for a server on ::1 (FoundationNetworking cannot reach `[::1]`).
    let host: String
    private let pid: pid_t

    /// The `/exec` URL the client is pointed at.
    var baseURL: URL { URL(string: "http://\(host):\(port)/exec")! }
    var base: String { baseURL.absoluteString }

    /// Starts a server with extra command-line options (`--redirect`, `--token T`…) and waits for its port.
    static func start(_ options: [String] = []) async throws -> ReferenceServer {
        let (port, pid) = try await ServerZygote.shared.spawn(options)
        return ReferenceServer(port: port, host: options.contains("::1") ? "localhost" : "127.0.0.1", pid: pid)
    }

    /// Stops the server without waiting for it to exit (the kernel reaps it: the zygote ignores SIGCHLD).
    func stop() {
        kill(pid, SIGTERM)
    }

    /// Queues faults for the next requests to /exec (see server.py for the forms).
    func addFaults(_ json: String) async throws {
        _ = try await control("POST", "/_control/faults", body: "{\"faults\": \(json)}")
    }

    /// Stops answering for good while keeping the port: every connection is refused from now on, and no other
    /// server can take the port, so a test can go on with the same base URL (and so the same cache) safely.
    func goDown() async throws {
        _ = try await control("POST", "/_control/down")
        // The server stops listening just after answering; wait until a new connection is refused (a kept-alive
        // one, as the control requests use, is still served).
        for _ in 0..<500 {
            if connectionRefused(port: port) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("the reference server did not go down")
    }

    /// Lets every request held by a `hold` fault go on.
    func release() async throws {
        _ = try await control("POST", "/_control/release")
    }

    /// Seeds items on the server.
    func seed(_ items: [Item]) async throws {
        _ = try await control("POST", "/_control/items", body: ItemJSON.array(items))
    }

    /// Rows typed into a month's sheet by hand (`month` is `yyyyMM`), answered exactly as given (a `--sheet` server).
    func addRows(month: String, _ rows: String) async throws {
        _ = try await control("POST", "/_control/rows", body: "{\"month\": \"\(month)\", \"rows\": \(rows)}")
    }

    /// Every item the server holds, in order.
    func items() async throws -> [Item] {
        try ItemCodec.items(try await control("GET", "/_control/items"))
    }

    /// Every request the server received at /exec and /echo.
    func requests() async throws -> [LoggedRequest] {
        try JSONDecoder().decode([LoggedRequest].self, from: try await control("GET", "/_control/requests"))
    }

    private func control(_ method: String, _ path: String, body: String? = nil) async throws -> Data {
        var request = URLRequest(url: URL(string: "http://\(host):\(port)\(path)")!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw TestFailure("control \(method) \(path) failed: \(String(decoding: data, as: UTF8.self))")
        }
        return data
    }
}

/// Runs a body with a fresh server, then takes the server down (connections refused, its port held), and returns the
/// body's result with the server, which the caller stops when its test ends: the test goes on with the same base URL,
/// so with the same cache, and no other server can answer there meanwhile.
func withServerGoingDown<T>(
    _ options: [String] = [], _ body: (ReferenceServer) async throws -> T
) async throws -> (T, ReferenceServer) {
    let server = try await ReferenceServer.start(options)
    do {
        let result = try await body(server)
        try await server.goDown()
        return (result, server)
    } catch {
        server.stop()
        throw error
    }
}

/// Runs a body with a fresh server and stops it afterwards, whatever happens.
func withServer<T>(_ options: [String] = [], _ body: (ReferenceServer) async throws -> T) async throws -> T {
    let server = try await ReferenceServer.start(options)
    do {
        let result = try await body(server)
        server.stop()
        return result
    } catch {
        server.stop()
        throw error
    }
}

/// Whether a new TCP connection to 127.0.0.1 at `port` is refused.
func connectionRefused(port: Int) -> Bool {
    #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let result = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    return result != 0 && errno == ECONNREFUSED
}
