import Foundation
import TestSupport

extension CLI {
    /// Runs the command in this process, as the binary would with these arguments, environment (plus PATH and a UTF-8
    /// LANG, as `start` gives the binary) and stdin: for a test that needs no process of its own.
    static func runInProcess(
        _ arguments: [String], environment: [String: String], stdin: String?,
        sleep: (@Sendable (Double) async throws -> Void)? = nil
    ) async -> CLIResult {
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8"]
        env.merge(environment) { _, new in new }
        let (code, stdout, stderr) = await TestSupport.runInProcess(
            arguments, environment: env, stdin: stdin ?? "", sleep: sleep)
        return CLIResult(status: code, stdout: stdout, stderr: stderr)
    }
}
