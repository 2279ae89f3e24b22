import ExpenseLogClient
import ExpenseLogStore
import Foundation

/// What the command line says of the library without reaching into its lower layers: the version, the defaults help
/// names, the system's words for an errno, and the clean-up a signal needs.
public enum ToolFacts {
    /// This tool's version, for `--version` and the User-Agent.
    public static let version = ExpenseLogAPI.version
    /// The default timeout, as help says it.
    public static let defaultTimeoutText = ExpenseLogAPI.defaultTimeoutText
    /// The timeout of a register POST when none is given.
    public static let registerTimeout = ExpenseLogAPI.registerTimeout
    /// The most retries `--retries` takes.
    public static let maximumRetries = RetryPolicy.maximumRetries
    /// The retries made when none are given.
    public static let defaultRetries = RetryPolicy.defaultRetries

    /// The system's words for an errno, with its name (`no space left on device (ENOSPC)`).
    public static func posix(_ code: Int32) -> String { StoreError.posix(code) }

    /// The system's words for a failure to read or write a file.
    public static func reason(of error: any Error) -> String { StoreError.reason(of: error) }

    /// Removes the temporary files this process made (a spool, a half-written file), then calls `end` (which exits):
    /// what a signal handler does.
    public static func removeTemporaryFiles(then end: () -> Never) -> Never {
        TemporaryFiles.process.removeAll(then: end)
    }

    /// Makes a folder the tool keeps its data in readable by its owner alone, with everything in it but `leaving`;
    /// returns how many were tightened and what could not be.
    public static func keepPrivate(
        _ root: URL, leaving: Set<String>
    ) throws -> (count: Int, failures: [(path: String, reason: String)]) {
        let result = try PrivateFiles.tighten(root, leaving: leaving)
        return (result.count, result.failures)
    }
}
