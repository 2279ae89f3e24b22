import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Somewhere text goes: the process's stdout or stderr, or a buffer in tests.
public protocol TextSink: Sendable {
    /// Writes the text as is (callers add newlines).
    func write(_ text: String)
    /// Writes UTF-8 text given as bytes (a table made as bytes), as `write(_:)` writes a String.
    func write(bytes: UnsafeBufferPointer<UInt8>)
}

extension TextSink {
    /// Writes the bytes as a String, for sinks that keep Strings.
    public func write(bytes: UnsafeBufferPointer<UInt8>) { write(String(decoding: bytes, as: UTF8.self)) }
}

/// The first error a sink met, kept so the run can end by saying its output was lost instead of exiting 0.
public final class WriteErrors: Sendable {
    private let first = Atomic<Int32>(0)

    /// An empty record.
    public init() {}

    /// Keeps `code` unless an error was kept already.
    func record(_ code: Int32) {
        _ = first.compareExchange(expected: 0, desired: code, ordering: .relaxed)
    }

    /// The errno of the first failed write, nil when every write succeeded.
    public var errno: Int32? {
        let code = first.load(ordering: .relaxed)
        return code == 0 ? nil : code
    }
}

/// Writes straight to a file descriptor with `write(2)`; no buffering to lose at exit.
public struct FileDescriptorSink: TextSink {
    /// The descriptor, 1 for stdout, 2 for stderr.
    public let descriptor: Int32
    /// Failed writes, for the end of the run.
    public let errors = WriteErrors()

    /// A sink over a descriptor.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes all of the text, retrying short writes.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: $0) }
    }

    /// Writes all of the bytes, retrying short writes.
    public func write(bytes buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            #if canImport(Glibc)
            let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
            #else
            let written = Darwin.write(descriptor, base + offset, buffer.count - offset)
            #endif
            if written < 0 {
                if errno == EINTR { continue }
                // The rest of the run goes on (records and caches must still be written); main reports it.
                errors.record(errno)
                return
            }
            offset += written
        }
    }
}

/// The process's standard streams, injected so tests can run commands in-process.
public struct ConsoleIO: Sendable {
    /// Where data goes.
    public let stdout: any TextSink
    /// Where diagnostics go.
    public let stderr: any TextSink
    /// Reads standard input to its end, or to one byte past the limit given (so the caller can tell it was too long).
    public let readStdin: @Sendable (Int) throws -> Data
    /// Whether stderr is a terminal, where progress may be drawn.
    public let stderrIsTerminal: Bool
    /// Whether stdout is a terminal, where a table is fitted to the width.
    public let stdoutIsTerminal: Bool
    /// The width in columns that stdout's terminal reports; nil when it reports none.
    public let stdoutColumns: Int?
    /// Whether stdin is a terminal, where a person can answer a question.
    public let stdinIsTerminal: Bool
    /// Reads one line of standard input (without its line break), blocking; nil at the end of input.
    public let readLine: @Sendable () -> String?
    /// Draws a prompt and reads the line typed at it with line editing, where stdin and stderr are the process's
    /// terminal (`TerminalLine`); nil elsewhere, where the prompt is written and `readLine` reads the answer.
    public let editLine: (@Sendable (_ prompt: String, _ secret: Bool) -> TypedLine)?
    /// What a signal that stops the process does and says (the process's own); nil in-process, where none is handled.
    public let interruption: Interruption?

    /// Streams from parts.
    public init(
        stdout: any TextSink, stderr: any TextSink, readStdin: @escaping @Sendable (Int) throws -> Data,
        stderrIsTerminal: Bool = false, stdoutIsTerminal: Bool = false, stdoutColumns: Int? = nil,
        stdinIsTerminal: Bool = false, readLine: @escaping @Sendable () -> String? = { nil },
        editLine: (@Sendable (_ prompt: String, _ secret: Bool) -> TypedLine)? = nil, interruption: Interruption? = nil
    ) {
        self.stdout = stdout
        self.stderr = stderr
        self.readStdin = readStdin
        self.stderrIsTerminal = stderrIsTerminal
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stdoutColumns = stdoutColumns
        self.stdinIsTerminal = stdinIsTerminal
        self.readLine = readLine
        self.editLine = editLine
        self.interruption = interruption
    }

    /// The real process streams.
    public static var process: ConsoleIO {
        ConsoleIO(
            stdout: FileDescriptorSink(descriptor: 1), stderr: FileDescriptorSink(descriptor: 2),
            readStdin: { limit in try FileHandle.standardInput.read(upToCount: limit + 1) ?? Data() },
            stderrIsTerminal: isatty(2) == 1,
            stdoutIsTerminal: isatty(1) == 1, stdoutColumns: terminalColumns(of: 1),
            stdinIsTerminal: isatty(0) == 1, readLine: { Swift.readLine(strippingNewline: true) },
            editLine: isatty(0) == 1 && isatty(2) == 1 ? TerminalLine.read : nil, interruption: Interruption())
    }

    /// The columns of the terminal on a descriptor, from TIOCGWINSZ; nil for no terminal, or one never given a size
    /// (a pty that `script` opens without a terminal of its own reports 0).
    static func terminalColumns(of descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
