import Foundation

extension Context {
    /// Whether a person can be asked: stdin and stderr are both terminals.
    var canAsk: Bool { io.stdinIsTerminal && io.stderrIsTerminal }

    /// Asks on stderr and returns the line typed (trimmed), `suggested` when it is empty; nil at the end of input
    /// (Ctrl-D). On a terminal the line can be edited, and Ctrl-C stops the command (exit 130) with the terminal as it
    /// was. The blocking read runs on a thread of its own, never on the cooperative pool.
    func ask(_ question: String, suggested: String? = nil, secret: Bool = false) async throws -> String? {
        let prompt = question + (suggested.map { " [\($0)]" } ?? "") + ": "
        let (editLine, readLine, stderr) = (io.editLine, io.readLine, io.stderr)
        let typed: TypedLine = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                if let editLine { return continuation.resume(returning: editLine(prompt, secret)) }
                stderr.write(prompt)
                let line = readLine()
                if line == nil { stderr.write("\n") }
                continuation.resume(returning: line.map(TypedLine.line) ?? .end)
            }
        }
        let line: String
        switch typed {
        case .line(let text): line = text
        case .end: return nil
        case .interrupted: throw CommandExit(code: .interrupted)
        }
        let answer = line.trimmingCharacters(in: .whitespaces)
        return answer.isEmpty ? suggested ?? "" : answer
    }

    /// Says why an answer was refused, and forgets what was typed ahead of the question asked again: it was meant for
    /// the next question (a token pasted after a URL), and must not be taken, or shown, as this one's answer.
    func refuseAnswer(_ why: String) {
        if io.editLine != nil { RawTerminal.shared.forgetTypedAhead() }
        io.stderr.write("  \(why)\n")
    }

    /// Asks a yes-or-no question; the answer is yes only when it starts with y (or is empty and `yesByDefault`).
    func confirm(_ question: String, yesByDefault: Bool) async throws -> Bool {
        guard let answer = try await ask(question + (yesByDefault ? " [Y/n]" : " [y/N]")) else { return false }
        // はい, ｙ and Ｙ too: a person typing in Japanese answers in Japanese or in full-width letters.
        let folded = answer.precomposedStringWithCompatibilityMapping.lowercased()
        return answer.isEmpty ? yesByDefault : folded.hasPrefix("y") || folded.hasPrefix("はい")
    }
}
