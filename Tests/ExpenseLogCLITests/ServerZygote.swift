import Foundation
import Synchronization
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One `server.py --zygote` for the whole test run, which forks each test's reference server: Python's start-up and
/// imports (about 0.2 s of CPU) are paid once, not once per test.
final class ServerZygote: Sendable {
    /// The run's zygote, started on first use.
    static let shared = ServerZygote()

    private struct State {
        var process: ChildProcess?
        var nextID = 1
        var waiting: [Int: CheckedContinuation<(port: Int, pid: pid_t), any Error>] = [:]
    }
    private let state = Mutex(State())

    /// Forks a server with `options` and returns its port and process id once it listens.
    func spawn(_ options: [String]) async throws -> (port: Int, pid: pid_t) {
        try await withCheckedThrowingContinuation { continuation in
            let request: (ChildProcess, Data)? = state.withLock { state in
                let process: ChildProcess
                if let running = state.process {
                    process = running
                } else {
                    do {
                        process = try Self.startZygote(reader: self)
                    } catch {
                        continuation.resume(throwing: error)
                        return nil
                    }
                    state.process = process
                }
                let id = state.nextID
                state.nextID += 1
                state.waiting[id] = continuation
                let argv = (["--port", "0"] + options).map {
                    "\"\($0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\""
                }
                return (process, Data("{\"id\": \(id), \"argv\": [\(argv.joined(separator: ", "))]}\n".utf8))
            }
            // Written outside the lock: a request is a short line, and the zygote always reads on.
            if let (process, line) = request { process.input?.write(line) }
        }
    }

    private static func startZygote(reader: ServerZygote) throws -> ChildProcess {
        let script = CLI.packageRoot.appendingPathComponent("Tests/ReferenceServer/server.py")
        let process = try ChildProcess(
            "/usr/bin/env", ["python3", "-S", script.path, "--zygote"], stdin: .pipe, stdout: .pipe)
        // Its answers are read on a thread of their own: a blocking read must not hold a thread of the cooperative pool.
        Thread.detachNewThread { reader.readAnswers(from: process) }
        return process
    }

    /// Hands each answer line to the test waiting for it; when the zygote is gone, every waiting test fails.
    private func readAnswers(from process: ChildProcess) {
        var pending = Data()
        while let output = process.output, case let chunk = output.availableData, !chunk.isEmpty {
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                answer(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
        }
        let orphans = state.withLock { state in
            defer { (state.waiting, state.process) = ([:], nil) }
            return Array(state.waiting.values)
        }
        for waiter in orphans { waiter.resume(throwing: TestFailure("the reference server's zygote exited")) }
    }

    /// `ID PORT n PID p` or `ID ERROR message`.
    private func answer(_ line: String) {
        let words = line.split(separator: " ", maxSplits: 1)
        guard let id = words.first.flatMap({ Int($0) }), words.count == 2 else { return }
        guard let waiter = state.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
        let fields = words[1].split(separator: " ")
        if fields.count == 4, fields[0] == "PORT", fields[2] == "PID", let port = Int(fields[1]),
            let pid = pid_t(fields[3])
        {
            waiter.resume(returning: (port, pid))
        } else {
            waiter.resume(throwing: TestFailure("the reference server did not start: \(words[1])"))
        }
    }
}
