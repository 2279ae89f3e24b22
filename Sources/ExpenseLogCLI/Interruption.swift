import Dispatch
import ExpenseLogUseCases
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
    /// as the sources returned are kept. A signal the process started with ignored stays ignored, as `nohup` and a
    /// shell's background job (`&`, whose SIGINT is ignored) expect.
    public func handleSignals() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM, SIGHUP].compactMap { number in
            let previous = signal(number, SIG_IGN)
            guard unsafeBitCast(previous, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self) else { return nil }
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in stop(number) }
            source.resume()
            return source
        }
    }

    private func stop(_ number: Int32) -> Never {
        RawTerminal.shared.close()
        let names: [Int32: String] = [SIGINT: "Interrupted", SIGTERM: "Terminated", SIGHUP: "Hung up"]
        let said = note.withLock { $0 }.map { " " + $0 } ?? ""
        FileDescriptorSink(descriptor: 2).write(
            (isatty(2) == 1 ? "\r\u{1B}[K" : "") + "\(names[number] ?? "Stopped").\(said)\n")
        // _exit, not exit: other threads may be mid-write, and nothing buffered needs flushing (writes go straight out).
        // It runs with the temporary files' lock held, so none is made between their removal and the end.
        ToolFacts.removeTemporaryFiles { _exit(128 + number) }
    }
}
