import ExpenseLogCLI
import Synchronization

/// A text sink that keeps what is written, for running commands in-process.
actor CapturedOutput: TextSink {
    private nonisolated let buffer = Mutex("")

    nonisolated func write(_ text: String) {
        buffer.withLock { $0 += text }
    }

    /// Everything written so far.
    nonisolated var text: String {
        buffer.withLock { $0 }
    }
}
