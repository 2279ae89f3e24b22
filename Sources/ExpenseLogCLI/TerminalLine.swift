import ExpenseLogRendering
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal on stdin in raw mode while a line is typed, and back to exactly its settings after: on return, and from
/// the handler of a terminating signal (`Interruption`), so no exit path leaves it without echo.
final class RawTerminal: Sendable {
    /// The process's terminal.
    static let shared = RawTerminal()
    private let saved = Mutex<(settings: termios?, closed: Bool)>((nil, false))
    /// What was typed after the last answer's Enter (a URL and a token pasted together), for the next question.
    let typedAhead = Mutex<[UInt8]>([])

    /// Raw mode: keys arrive one by one, unechoed, and Ctrl-C arrives as a key rather than SIGINT, so the prompt ends
    /// itself and restores the terminal first. Output keeps its processing (`\n` still starts a line). False when stdin
    /// is no terminal.
    func enter() -> Bool {
        saved.withLock { saved in
            var settings = termios()
            guard saved.settings == nil, !saved.closed, tcgetattr(0, &settings) == 0 else { return false }
            saved.settings = settings
            settings.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
            settings.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | ISTRIP)
            withUnsafeMutableBytes(of: &settings.c_cc) { characters in
                characters[Int(VMIN)] = 1
                characters[Int(VTIME)] = 0
            }
            // TCSANOW, not TCSAFLUSH: what was typed ahead of the question is kept, as a shell keeps it.
            return tcsetattr(0, TCSANOW, &settings) == 0
        }
    }

    /// The settings saved by `enter`, put back; nothing when none are saved.
    func restore() {
        saved.withLock { saved in
            guard var settings = saved.settings else { return }
            _ = tcsetattr(0, TCSANOW, &settings)
            saved.settings = nil
        }
    }

    /// Forgets what was typed ahead: the question it was meant for is not the one asked next.
    func forgetTypedAhead() {
        typedAhead.withLock { $0 = [] }
    }

    /// Puts the settings back for good, as the process ends on a signal: no prompt can enter raw mode after it.
    func close() {
        saved.withLock { saved in
            if var settings = saved.settings { _ = tcsetattr(0, TCSANOW, &settings) }
            saved = (nil, true)
        }
    }
}

/// Reads a line typed at a prompt on the process's terminal, with line editing (`LineEdit`): left and right, Home and
/// End, Backspace and Delete, Ctrl-W, Ctrl-U and Ctrl-K, as readline has them. Blocking: run it on a thread of its own.
enum TerminalLine {
    /// Draws the prompt on stderr and reads keys from stdin until the line ends.
    @Sendable static func read(prompt: String, secret: Bool) -> TypedLine {
        let stderr = FileDescriptorSink(descriptor: 2)
        // Raw before the question shows, so nothing typed once it shows is echoed (a secret) or waits for Enter.
        guard RawTerminal.shared.enter() else {
            stderr.write(prompt)
            return Swift.readLine(strippingNewline: true).map(TypedLine.line) ?? .end
        }
        defer { RawTerminal.shared.restore() }
        let columns = ConsoleIO.terminalColumns(of: 2) ?? 80
        // A question wider than the terminal (a long URL suggested) goes on lines of its own; the line is edited below it.
        let lastLine = prompt.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init) ?? prompt
        let editPrompt = TextWidth.of(lastLine) + 10 > columns ? "> " : lastLine
        stderr.write(editPrompt == lastLine ? prompt : prompt + "\n" + editPrompt)
        var decoder = KeyDecoder(), edit = LineEdit()
        decoder.append(
            RawTerminal.shared.typedAhead.withLock { typed in
                defer { typed = [] }; return typed
            })
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            var changed = false
            while let key = decoder.next() {
                if let answer = edit.apply(key) {
                    RawTerminal.shared.typedAhead.withLock { $0 = decoder.pending }
                    // The line as typed stays on screen (drawn whole again only when it was scrolled sideways); ^C shows
                    // what ended it, as a shell shows it.
                    let scrolled = TextWidth.of(editPrompt) + TextWidth.of(edit.text) >= columns - 1
                    stderr.write(
                        (changed || scrolled ? edit.drawing(after: editPrompt, secret: secret) : "")
                            + (answer == .interrupted ? "^C\n" : "\n"))
                    return answer
                }
                changed = true
            }
            if changed { stderr.write(edit.drawing(after: editPrompt, secret: secret, columns: columns)) }
            let count = buffer.withUnsafeMutableBytes { bytes in
                #if canImport(Glibc)
                Glibc.read(0, bytes.baseAddress, bytes.count)
                #else
                Darwin.read(0, bytes.baseAddress, bytes.count)
                #endif
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                stderr.write("\n")
                return .end
            }
            decoder.append(buffer[..<count])
        }
    }
}
