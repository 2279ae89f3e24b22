import Foundation
import Synchronization

/// One line of progress redrawn in place on stderr, at most ten times a second, only when stderr is a terminal.
///
/// A pipe or a log file gets nothing: progress is for the person watching, and would only clutter a captured log.
final class ProgressLine: Sendable {
    private let sink: any TextSink
    private let enabled: Bool
    private let state = Mutex<(lastDraw: Date?, shown: Bool)>((nil, false))

    /// Progress on the context's stderr, when it is a terminal and `--quiet` is not given.
    init(_ context: Context) {
        sink = context.io.stderr
        enabled = context.io.stderrIsTerminal && !context.quiet
    }

    /// Redraws the line, unless it was drawn less than a tenth of a second ago (`force` draws anyway).
    func show(_ text: @autoclosure () -> String, force: Bool = false) {
        guard enabled else { return }
        let now = Date()
        let draw = state.withLock { state in
            if !force, let last = state.lastDraw, now.timeIntervalSince(last) < 0.1 { return false }
            state = (now, true)
            return true
        }
        if draw { sink.write("\r\u{1B}[K" + text()) }
    }

    /// Clears the line, so the messages that follow start at the left margin.
    func clear() {
        guard enabled,
            state.withLock({ state in
                defer { state.shown = false }; return state.shown
            })
        else { return }
        sink.write("\r\u{1B}[K")
    }
}
