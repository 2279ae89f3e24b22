import Dispatch
import ExpenseLogStore
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What happens when the process is told to stop (Ctrl-C, SIGTERM, SIGHUP): the terminal is put back, the temporary
/// files being written are removed, the progress line is cleared, the run says what it leaves queued, and the process
/// exits 128 plus the signal's number, as a shell reports it. Only the executable installs it; in-process runs never do.
public final class Interruption: Sendable {
    private let note = Mutex<String?>(nil)

    /// Nothing said yet, no handler installed.
    public init() {}

    /// What the run would leave behind if stopped now (`15,760 items wait in …; sync sends them`); nil for nothing.
    func say(_ text: String?) {
        note.withLock { $0 = text }
    }

    /// Handles SIGINT, SIGTERM and SIGHUP from now on, on a dispatch queue (never inside the signal itself), for as long
    /// as the sources returned are kept.
    public func handleSignals() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in stop(number) }
            source.resume()
            return source
        }
    }

    private func stop(_ number: Int32) {
        RawTerminal.shared.restore()
        TemporaryFiles.process.removeAll()
        let names: [Int32: String] = [SIGINT: "Interrupted", SIGTERM: "Terminated", SIGHUP: "Hung up"]
        let said = note.withLock { $0 }.map { " " + $0 } ?? ""
        FileDescriptorSink(descriptor: 2).write((isatty(2) == 1 ? "\r\u{1B}[K" : "") + "\(names[number] ?? "Stopped").\(said)\n")
        // _exit, not exit: other threads may be mid-write, and nothing buffered needs flushing (writes go straight out).
        _exit(128 + number)
    }
}
