import ExpenseLogCLI
import ExpenseLogHTTP
import Foundation
import Synchronization

/// Text a command run in-process wrote to one of its streams.
public final class CapturedText: TextSink {
    private let buffer = Mutex("")

    /// An empty capture.
    public init() {}

    /// Keeps what the command wrote.
    public func write(_ text: String) {
        buffer.withLock { $0 += text }
    }

    /// Everything written.
    public var text: String { buffer.withLock { $0 } }
}

/// Runs the tool in this process (`ExpenseLogCommand.main`, all `main.swift` calls) with these arguments, environment
/// and stdin (also read a line at a time, as a person's answers), the live environments reaching the server through
/// `makeLiveSession` when given, waiting between attempts with `sleep` when given; its exit code and what it wrote.
public func runInProcess(
    _ arguments: [String], environment: [String: String], stdin: String = "",
    makeLiveSession: (@Sendable () -> any Session)? = nil,
    sleep: (@Sendable (Double) async throws -> Void)? = nil
) async -> (code: Int32, stdout: String, stderr: String) {
    let input = Data(stdin.utf8)
    let lines = Mutex(stdin.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    let (stdout, stderr) = (CapturedText(), CapturedText())
    let io = ConsoleIO(
        stdout: stdout, stderr: stderr, readStdin: { limit in input.prefix(limit + 1) },
        readLine: { lines.withLock { $0.isEmpty ? nil : $0.removeFirst() } })
    let code =
        if let sleep {
            await ExpenseLogCommand.main(
                arguments: arguments, environment: environment, io: io, makeLiveSession: makeLiveSession, sleep: sleep)
        } else {
            await ExpenseLogCommand.main(
                arguments: arguments, environment: environment, io: io, makeLiveSession: makeLiveSession)
        }
    return (code, stdout.text, stderr.text)
}
