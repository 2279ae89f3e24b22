import ExpenseLogStore
import ExpenseLogUseCases
import Foundation

extension SyncCommand {
    /// Says how a run that went to its end ended, and throws its exit code when it is not 0 (refused batches, unreadable
    /// entries, entries held elsewhere, batches that may still be running).
    static func report(_ outcome: SyncOutcome, problems: [String], wait: ResendWait, _ context: Context) throws {
        for refused in outcome.refused {
            context.io.stderr.write("Error: \(refused.error)\nThe refused items were moved to \(refused.file.path); fix them there and "
                                    + "register that file.\n")
        }
        for batch in outcome.unsafe {
            context.warn("the batch \(batch.key) (\(batch.count) item\(batch.count == 1 ? "" : "s")) was sent at \(Self.time(batch.sentAt)) "
                         + "and its answer never came: the server may still be running it (up to \(Int(wait.seconds)) s), so it is "
                         + "sent again only from \(Self.time(batch.safeFrom)), unless the server shows it by then. Run sync again "
                         + "then; --force sends it now, at the risk of registering it twice.")
        }
        let unsafe = outcome.unsafe, busy = outcome.busy
        let left = !unsafe.isEmpty ? "\(unsafe.reduce(0) { $0 + $1.count }) item\(unsafe.count == 1 && unsafe[0].count == 1 ? " waits" : "s wait") until the server cannot still be running them."
            : busy > 0 ? "\(busy) item\(busy == 1 ? " was" : "s were") not sent now: a register run is sending \(busy == 1 ? "it" : "them"), "
                + "or \(busy == 1 ? "its" : "their") outbox entry changed while this sync ran; run sync again."
            : problems.isEmpty ? "The outbox is empty." : "Unreadable outbox entries remain (see the warnings above)."
        context.note("Sent \(outcome.sent) item\(outcome.sent == 1 ? "" : "s") in \(outcome.posts) request\(outcome.posts == 1 ? "" : "s"); "
                     + "skipped \(outcome.skipped) the server already had. " + left)
        if let first = outcome.refused.first { throw CommandExit(code: ExitCode(for: first.error)) }
        // An unreadable entry needs a person, not another try: 74, as pending gives.
        if !problems.isEmpty { throw CommandExit(code: .ioError) }
        if busy > 0 || !unsafe.isEmpty { throw CommandExit(code: .temporaryFailure) }
    }

    /// `2026-11-23T11:52:08Z`: when a batch was sent, or becomes safe to send again.
    static func time(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }
}
