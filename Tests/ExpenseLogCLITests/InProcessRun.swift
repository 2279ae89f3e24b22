import ExpenseLogCLI
import Foundation
import Synchronization

/// Text written by a command run in-process.
final class CapturedText: TextSink {
    private let buffer = Mutex("")

    func write(_ text: String) {
        buffer.withLock { $0 += text }
    }

    /// Everything written.
    var text: String { buffer.withLock { $0 } }
}

extension CLI {
    /// Runs the command in this process (`ExpenseLogCommand.main`), as the binary would with these arguments,
    /// environment and stdin: for a test that needs no process of its own.
    static func runInProcess(_ arguments: [String], environment: [String: String], stdin: String?) async -> CLIResult {
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8"]
        env.merge(environment) { _, new in new }
        let input = Data((stdin ?? "").utf8)
        let lines = Mutex(String(decoding: input, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        let (stdout, stderr) = (CapturedText(), CapturedText())
        let io = ConsoleIO(stdout: stdout, stderr: stderr, readStdin: { limit in input.prefix(limit + 1) },
                           readLine: { lines.withLock { $0.isEmpty ? nil : $0.removeFirst() } })
        let code = await ExpenseLogCommand.main(arguments: arguments, environment: env, io: io)
        return CLIResult(status: code, stdout: stdout.text, stderr: stderr.text)
    }
}
