import ExpenseLogKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
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
}

/// The project's reference server (Tests/ReferenceServer/server.py) on a free loopback port, for one test.
///
/// It exits when its stdin closes, so a crashed test run leaves no server behind.
struct ReferenceServer {
    let port: Int
    private let process: Process
    private let stdin: Pipe

    /// The `/exec` URL the client is pointed at.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/exec")! }
    var base: String { baseURL.absoluteString }

    /// Starts a server with extra command-line options (`--redirect`, `--token T`…) and waits for its port.
    init(_ options: [String] = []) throws {
        let script = CLI.packageRoot.appendingPathComponent("Tests/ReferenceServer/server.py")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--port", "0"] + options
        stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { throw TestFailure("the reference server exited before printing its port") }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let port = text.split(separator: "\n").first.flatMap({ Int($0.replacingOccurrences(of: "PORT ", with: "")) }) else {
            throw TestFailure("the reference server printed \(text)")
        }
        self.port = port
    }

    /// Stops the server.
    func stop() {
        try? stdin.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }

    /// Queues faults for the next requests to /exec (see server.py for the forms).
    func addFaults(_ json: String) async throws {
        _ = try await control("POST", "/_control/faults", body: "{\"faults\": \(json)}")
    }

    /// Seeds items on the server.
    func seed(_ items: [Item]) async throws {
        _ = try await control("POST", "/_control/items", body: ItemJSON.array(items))
    }

    /// Every item the server holds, in order.
    func items() async throws -> [Item] {
        try JSONDecoder().decode([Item].self, from: try await control("GET", "/_control/items"))
    }

    /// Every request the server received at /exec and /echo.
    func requests() async throws -> [LoggedRequest] {
        try JSONDecoder().decode([LoggedRequest].self, from: try await control("GET", "/_control/requests"))
    }

    private func control(_ method: String, _ path: String, body: String? = nil) async throws -> Data {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
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

/// Runs a body with a fresh server and stops it afterwards, whatever happens.
func withServer<T>(_ options: [String] = [], _ body: (ReferenceServer) async throws -> T) async throws -> T {
    let server = try ReferenceServer(options)
    do {
        let result = try await body(server)
        server.stop()
        return result
    } catch {
        server.stop()
        throw error
    }
}
