import Foundation

/// What one run of the built binary did.
struct CLIResult: Sendable {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs the built `expense-log` as a user would: argv, stdin, environment, working directory.
enum CLI {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The binary `make test` built next to the test bundle (or `EXPENSE_LOG_BIN`).
    static func binary() throws -> URL {
        var candidates: [URL] = []
        if let explicit = ProcessInfo.processInfo.environment["EXPENSE_LOG_BIN"] {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        if let testBinary = Bundle.main.executableURL {
            candidates.append(testBinary.deletingLastPathComponent().appendingPathComponent("expense-log"))
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/expense-log"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw TestFailure("expense-log is not built; run `make test` (it builds before testing)")
        }
        return found
    }

    /// Runs the binary with only the given environment (plus PATH), so the developer's own settings never leak in.
    static func run(_ arguments: [String], environment: [String: String], stdin: String? = nil,
                    in directory: URL? = nil, binary: URL? = nil) async throws -> CLIResult {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let process = Process()
        process.executableURL = try binary ?? self.binary()
        process.arguments = arguments
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8"]
        env.merge(environment) { _, new in new }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }

        let outURL = scratch.url.appendingPathComponent("stdout")
        let errURL = scratch.url.appendingPathComponent("stderr")
        let inURL = scratch.url.appendingPathComponent("stdin")
        // Files, not pipes: a large output can never fill a pipe and deadlock the test.
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        FileManager.default.createFile(atPath: inURL.path, contents: Data((stdin ?? "").utf8))
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let input = try FileHandle(forReadingFrom: inURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input

        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        try? out.close()
        try? err.close()
        try? input.close()
        return CLIResult(status: status,
                         stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                         stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

/// A fresh folder for one test, removed by `remove()`.
struct TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("expense-log-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes a file inside the folder and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }
}

/// A failure of the test harness itself (not of the code under test).
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
