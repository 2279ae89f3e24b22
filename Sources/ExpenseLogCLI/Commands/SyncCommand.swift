import ExpenseLogConfig
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// `sync`: sends the pending writes, the items first, then the changes in order (`Ledger.sync`), and says how it went (`SyncText`).
struct SyncCommand: ParsableCommand {
    @Opt(CommonOptions.format) var format: OutputFormat?
    @Flg(
        "force",
        help: "Send batches whose last POST may still be running on the server now (they may be registered twice).")
    var force: Bool
    @Opt(
        choice: "ambiguous", "decision",
        help: "What a queued statement row that may be an item entered while it waited becomes: "
            + "new (send it), same (do not send it) or skip; without it such rows wait on, listed, and sync exits 4.")
    var ambiguous: QueuedRowMatching.HeldChoiceAtSync?

    static let about = CommandAbout(
        name: "sync",
        abstract: "Send the items waiting in the outbox, skipping those the server already has.",
        discussion: """
            First the months the waiting items fall in are fetched, and every item whose id the \
            server already has is dropped (a POST whose answer was lost may have been saved). The \
            rest is sent batch by batch, each with the Idempotency-Key it was queued with, and a \
            batch leaves the outbox only once the server's answer has been read. Exit status 0 when \
            the outbox is empty afterwards, 75 when items remain that a later run can send, 74 when an \
            outbox entry cannot be read (fix or move it away). Running it twice sends nothing twice.

            A statement's row that waited (imported while the server was away) is matched again against \
            what the server holds now, by register's rule and the decisions kept: a purchase your partner \
            typed in the app meanwhile is not sent twice. A row that may be such an item waits on in the \
            outbox, listed, and sync exits 4; --ambiguous new|same|skip decides them all.

            Then the edits and deletions queued by edit and delete are sent, one at a time in the order \
            they were made (each is safe to send again); a change of an item still waiting in the outbox \
            (added offline) waits behind it, and goes out once the item is registered. An edit of an item the server no longer has is \
            dropped with its cached copy and said so (exit 65); a server without the bundled script's \
            extensions keeps them queued (exit 69).

            A batch whose POST got no answer (a timeout, a lost connection) may still be running on the \
            server: an Apps Script execution lasts up to 6 minutes, and the script cannot see the \
            Idempotency-Key. Unless the server already shows its items, such a batch is sent again only \
            once that time has passed since its POST (serverMaxExecutionSeconds in the config file); until \
            then sync says when it becomes safe and exits 75. --force sends it at once. The bundled web app \
            (expense-log server script) saves an id only once, so to it such a batch is sent again at once.
            """)

    func run(_ context: Context) async throws -> ExitCode {
        let config = try context.config()
        let format = format ?? .table
        let ledger = try context.ledger()
        guard try !ledger.nothingWaits() else {
            if format != .table { context.printItems([], format, config) }
            // Quiet: cron mails every line a job prints, and "nothing happened" is no news. --verbose says it.
            if context.verbose {
                context.note(
                    context.say(
                        "The outbox of the \(config.environment.value.rawValue) environment is empty; nothing to send.",
                        ja: "\(config.environment.value.rawValue) 環境の送信待ちは空です。送るものはありません。"))
            }
            return .success
        }
        let link = try context.link()
        let text = SyncText(context: context, config: config, ledger: ledger, link: link, format: format)
        guard let report = try await ledger.sync(force: force, ambiguous: ambiguous, link: link, event: text.show)
        else {
            context.io.stderr.write(
                context.say(
                    "Error: another run (a sync, or an edit or delete sending its queue) is sending this environment's outbox (it holds "
                        + "\(ledger.lockFile.path)). Let it finish, then run `expense-log pending` to see what is left.",
                    ja: "エラー: 別の実行 (sync か、変更を送る edit や delete) がこの環境の送信待ちを送っています (\(ledger.lockFile.path) を保持)。"
                        + "終わってから `expense-log pending` で残りを確かめてください。") + "\n")
            throw CommandExit(code: .temporaryFailure)
        }
        return try await text.render(report, own: nil)
    }
}
