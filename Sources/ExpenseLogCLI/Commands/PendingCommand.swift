import ExpenseLogConfig
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// `pending`: the writes waiting for the server (`PendingListing`); `pending drop|clear` removes them (`DroppedWrites`).
struct PendingCommand: ParsableCommand {
    static var subcommands: [any Command.Type] { [Drop.self, Clear.self] }

    static let yes = Flag("yes", short: "y", help: "Remove without asking (needed when stdin is not a terminal).")

    @Opt(CommonOptions.format) var format: OutputFormat?

    static let about = CommandAbout(
        name: "pending",
        abstract: "List the items waiting in the outbox for `sync` (drop or clear removes them).",
        discussion: """
            Items land in the outbox when register cannot confirm them (the server is down, or the \
            answer was lost). The table starts with each item's short id, which pending drop takes; the json, \
            ndjson and csv output can be fed back to register. An outbox entry that cannot be read is named \
            on stderr and the exit status is 74: the list is incomplete. Edits and deletions waiting to be \
            sent are listed on stderr, one a line; drop and clear remove them too (by the item's id).

            EXAMPLES:
              expense-log pending
              expense-log pending drop 7F3A…-ID
              expense-log pending clear --yes
            """,
        runsAlone: true)

    func run(_ context: Context) async throws -> ExitCode {
        let config = try context.config()
        let listing = try context.ledger().pending()
        let text = PendingText(context: context, config: config)
        for problem in listing.problems { context.warn(context.describeNotice(problem)) }
        text.edits(listing.edits, in: config.journalDirectory.path)
        let format = format ?? .table
        // An entry that cannot be read still waits: the listing is then incomplete, and says so with 74.
        let problems = listing.problems.count
        let unreadable =
            problems == 0
            ? ""
            : " \(problems) journal entr\(problems == 1 ? "y" : "ies") cannot be read "
                + "(see above) and \(problems == 1 ? "is" : "are") not listed; fix or move \(problems == 1 ? "it" : "them") away."
        if let oldest = listing.oldest {
            context.printItems(listing.items, format, config, showingIDs: true)
            let count = listing.itemCount, batches = listing.batches
            context.note(
                context.say(
                    "\(count) item\(count == 1 ? "" : "s") in \(batches) batch\(batches == 1 ? "" : "es") "
                        + "\(count == 1 ? "waits" : "wait") in \(config.journalDirectory.path), the oldest queued "
                        + "\(SyncText.time(oldest)). Run `expense-log sync` to send them.",
                    ja: "\(count)件 (\(batches)バッチ) が \(config.journalDirectory.path) で送信を待っています (最も古いものは "
                        + "\(SyncText.time(oldest)))。`expense-log sync` で送ります。") + unreadable)
        } else {
            if format != .table { context.printItems([], format, config) }
            context.note(
                problems > 0
                    ? "No readable item waits in \(config.journalDirectory.path)." + unreadable
                    : listing.edits.isEmpty
                        ? "The outbox of the \(config.environment.value.rawValue) environment is empty."
                        : "No item to register waits in the outbox.")
        }
        if problems > 0 { throw CommandExit(code: .ioError) }
        return .success
    }
}
