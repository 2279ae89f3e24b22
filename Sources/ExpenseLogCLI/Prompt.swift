import Foundation

extension Context {
    /// Whether a person can be asked: stdin and stderr are both terminals.
    var canAsk: Bool { io.stdinIsTerminal && io.stderrIsTerminal }

    /// Asks on stderr and returns the line typed (trimmed), `suggested` when it is empty; nil at the end of input
    /// (Ctrl-D). The blocking read runs on a thread of its own, never on the cooperative pool.
    func ask(_ question: String, suggested: String? = nil, secret: Bool = false) async -> String? {
        // The echo goes off before the question shows, so nothing typed after it can be echoed.
        if secret { io.setEcho(false) }
        defer { if secret { io.setEcho(true) } }
        io.stderr.write(question + (suggested.map { " [\($0)]" } ?? "") + ": ")
        let read = io.readLine
        let line: String? = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: read()) }
        }
        // No echo, so no line break was shown either.
        if line == nil || secret { io.stderr.write("\n") }
        guard let line else { return nil }
        let answer = line.trimmingCharacters(in: .whitespaces)
        return answer.isEmpty ? suggested ?? "" : answer
    }

    /// Asks a yes-or-no question; the answer is yes only when it starts with y (or is empty and `yesByDefault`).
    func confirm(_ question: String, yesByDefault: Bool) async -> Bool {
        guard let answer = await ask(question + (yesByDefault ? " [Y/n]" : " [y/N]")) else { return false }
        return answer.isEmpty ? yesByDefault : answer.lowercased().hasPrefix("y")
    }
}
