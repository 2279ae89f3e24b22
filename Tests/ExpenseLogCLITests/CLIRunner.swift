import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        #if canImport(Darwin)
        // On macOS the tests are a bundle (`….xctest`) loaded by Xcode's runner, whose own folder is not the build's:
        // the binary built with them sits beside the bundle (SwiftPM's .build/<config>, or Xcode's products folder).
        candidates.append(
            Bundle(for: BundleMarker.self).bundleURL.deletingLastPathComponent().appendingPathComponent("expense-log"))
        #endif
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
    ///
    /// The command runs in this process (`ExpenseLogCommand.main`, which is all `main.swift` calls) unless the run needs a
    /// process of its own: a working directory, a binary, stdout or stdin on a device, `spawned` (what reads the process
    /// environment, as libcurl and URLSession read a proxy), or `EXPENSE_LOG_TESTS_SPAWN=1` for the whole suite.
    static func run(
        _ arguments: [String], environment: [String: String], stdin: String? = nil,
        in directory: URL? = nil, binary: URL? = nil, stdoutTo device: String? = nil,
        stdinFrom source: String? = nil, spawned: Bool = false
    ) async throws -> CLIResult {
        if !spawned, directory == nil, binary == nil, device == nil, source == nil, !spawnsEverything {
            return await runInProcess(arguments, environment: environment, stdin: stdin)
        }
        return try await start(
            arguments, environment: environment, stdin: stdin, in: directory, binary: binary, stdoutTo: device,
            stdinFrom: source
        ).wait()
    }

    /// Whether every run spawns the binary: when asked (`EXPENSE_LOG_TESTS_SPAWN=1`), and when this process has a proxy
    /// set, which libcurl and URLSession would read in-process where the spawned binary, given only the test's
    /// environment, does not.
    static let spawnsEverything: Bool = {
        let environment = ProcessInfo.processInfo.environment
        let proxies = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
        return environment["EXPENSE_LOG_TESTS_SPAWN"] == "1" || proxies.contains { !(environment[$0] ?? "").isEmpty }
    }()

    /// Runs the binary under `peak_rss.py`, which reads its peak resident memory from the kernel (wait4) once it has
    /// exited; returns the result and that peak in MiB. Memory is measured from outside, never by timing.
    static func runMeasured(
        _ arguments: [String], environment: [String: String], stdinFrom source: String? = nil
    )
        async throws -> (CLIResult, Int)
    {
        let (result, usage) = try await runWithUsage(arguments, environment: environment, stdinFrom: source)
        return (result, usage.peakMiB)
    }

    /// What the kernel counted for a finished run.
    struct Usage {
        /// The peak resident memory in MiB.
        let peakMiB: Int
        /// User and system CPU time in seconds.
        let cpuSeconds: Double
    }

    /// Runs the binary under `peak_rss.py`, which reads its peak memory and CPU time from the kernel (wait4).
    static func runWithUsage(
        _ arguments: [String], environment: [String: String], stdinFrom source: String? = nil
    )
        async throws -> (CLIResult, Usage)
    {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let script = packageRoot.appendingPathComponent("Tests/ReferenceServer/peak_rss.py").path
        let report = scratch.url.appendingPathComponent("peak").path
        let result = try await run(
            ["python3", script, report, try binary().path] + arguments, environment: environment,
            binary: URL(fileURLWithPath: "/usr/bin/env"), stdinFrom: source)
        let fields = try String(contentsOfFile: report, encoding: .utf8).split(separator: " ")
        guard fields.count == 2, let kib = Int(fields[0]), let cpu = Double(fields[1]) else {
            throw TestFailure("no usage reported")
        }
        return (result, Usage(peakMiB: kib / 1024, cpuSeconds: cpu))
    }

    /// Starts the binary without waiting for it, so a test can kill it mid-way.
    /// `stdoutTo` sends stdout to a file of the test's choosing (`/dev/full`) instead of one the result reads.
    /// `stdinFrom` reads stdin from a file of the test's choosing (`/dev/zero`) instead of `stdin`'s text.
    static func start(
        _ arguments: [String], environment: [String: String], stdin: String? = nil,
        in directory: URL? = nil, binary: URL? = nil, stdoutTo device: String? = nil,
        stdinFrom source: String? = nil
    ) throws -> RunningCLI {
        let scratch = try TemporaryDirectory()
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8"]
        env.merge(environment) { _, new in new }
        // Files, not pipes: a large output can never fill a pipe and deadlock the test.
        let inURL = scratch.url.appendingPathComponent("stdin")
        _ = FileManager.default.createFile(atPath: inURL.path, contents: Data((stdin ?? "").utf8))
        let child = try ChildProcess(
            (try binary ?? self.binary()).path, arguments, environment: env, directory: directory?.path,
            stdin: .file(source ?? inURL.path),
            stdout: .file(device ?? scratch.url.appendingPathComponent("stdout").path),
            stderr: .file(scratch.url.appendingPathComponent("stderr").path))
        if device != nil {
            _ = FileManager.default.createFile(atPath: scratch.url.appendingPathComponent("stdout").path, contents: nil)
        }
        return RunningCLI(child: child, scratch: scratch)
    }
}

/// A started run of the binary.
struct RunningCLI: Sendable {
    let child: ChildProcess
    let scratch: TemporaryDirectory

    /// Sends SIGKILL (kill -9): no handler, no cleanup, exactly like a crash or a power cut.
    func kill() {
        child.signal(SIGKILL)
    }

    /// Waits for the end and returns what it printed.
    func wait() async throws -> CLIResult {
        let status = await child.wait()
        defer { scratch.remove() }
        func read(_ name: String) throws -> String {
            String(decoding: try Data(contentsOf: scratch.url.appendingPathComponent(name)), as: UTF8.self)
        }
        return CLIResult(status: status, stdout: try read("stdout"), stderr: try read("stderr"))
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

    /// Writes bytes inside the folder and returns the file's path.
    @discardableResult
    func write(_ name: String, bytes: Data) throws -> String {
        let file = url.appendingPathComponent(name)
        try bytes.write(to: file)
        return file.path
    }
}

/// A failure of the test harness itself (not of the code under test).
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

#if canImport(Darwin)
/// A class of the test bundle's own, by which `Bundle(for:)` finds the bundle on macOS.
private final class BundleMarker {}
#endif
