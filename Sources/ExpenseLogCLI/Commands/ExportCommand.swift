import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// `export`: a period's items as plain-text accounting (hledger, Ledger, Beancount) or a spreadsheet's CSV.
struct ExportCommand: ParsableCommand {
    @Opt(choice: "format", short: "f", "format", help: "hledger, ledger, beancount or csv (the default).")
    var format: ExportFormat?
    @Opt(CommonOptions.from) var from: String?
    @Opt(CommonOptions.to) var to: String?
    @Opt("output", short: "o", "file", .path, help: "The file to write (default: stdout; - too).") var output: String?
    @Flg("offline", help: "Read the cache only; never touch the network.") var offline: Bool
    @Flg("refresh", help: "Read the server only; fail instead of falling back to the cache.") var refresh: Bool
    @Flg("include-pending", help: "Add the items still waiting in the outbox, marked pending (!).") var includePending:
        Bool
    @Flg("no-bom", help: "CSV without the byte order mark Excel needs to read UTF-8.") var noBOM: Bool
    @Arg(CommonOptions.period) var period: String?

    static let about = CommandAbout(
        name: "export",
        abstract: "Write a period's items (this month by default) for hledger, Ledger, Beancount or a spreadsheet.",
        discussion: """
            One transaction per item: its day, its name, a posting to an expense account made from its category and \
            sub-category (hledger and Ledger: expenses:食費:飲料; Beancount, whose accounts are capitalised ASCII: \
            Expenses:Food:Drink, with the Japanese names in metadata), its yen as JPY, and a balancing posting to \
            assets:cash (assets:cash:NAME for what NAME paid). Each item's id and short id are in metadata, and the \
            items go by day then id, so exporting the same items again writes the same bytes and a diff of two \
            exports shows what changed. Refunds are negative expenses. Items still waiting in the outbox are left \
            out unless --include-pending (then marked !). CSV is UTF-8 with a byte order mark and CRLF, as Excel \
            opens it with Japanese intact (--no-bom leaves the mark out). docs/export.md shows each format.

            EXAMPLES:
              expense-log export 2026 --format hledger -o 2026.journal && hledger -f 2026.journal bal -M expenses
              expense-log export 2026 --format ledger -o 2026.ledger
              expense-log export 2026 --format beancount -o 2026.beancount && bean-check 2026.beancount
              expense-log export 先月 -o 先月.csv
            """)

    func run(_ context: Context) async throws -> ExitCode {
        let config = try context.config()
        let period =
            try CommonOptions.range(from: from, to: to, context, otherPeriod: self.period != nil, now: context.now)
            ?? CommonOptions.period(self.period, year: nil, month: nil, context, now: context.now)
        let format = format ?? .csv
        if offline, refresh {
            throw UsageError(path: context.invocation.path, message: "--offline and --refresh cannot be used together")
        }
        if noBOM, format != .csv {
            throw UsageError(path: context.invocation.path, message: "--no-bom is for --format csv")
        }
        // Who paid comes only from a script known to keep it: asked once (and remembered).
        if !offline { await context.learnWhoPaid() }
        let read = try await context.readMonths(
            period.months, policy: offline ? .offline : refresh ? .refresh : .preferServer, strict: false,
            withWaiting: includePending)
        let known = await (try? context.ledger())?.cachedItems().map(\.id) ?? []
        var text: String?
        // A month missing or rows left out still give the file of what was read; the exit code then says it is not whole.
        var stopped: (any Error)?
        do {
            try SummarySources.show(read.loaded, context, config, subject: "the export", verb: "written") {
                let bounds = context.span(of: period)
                let own = Set(read.loaded.flatMap(\.items).map(\.id))
                let waiting = includePending ? read.waiting.filter { !own.contains($0.id) } : []
                let items = (read.loaded.flatMap(\.items) + waiting).filter {
                    $0.date >= bounds.from && $0.date <= bounds.to
                }
                let ids = Set(items.map(\.id))
                var writer = ExportWriter(catalogue: config.catalogue.value)
                // The short ids `fetch --ids` shows: unique among all this machine knows, not only what is exported.
                writer.shortIDs = EditTargets.shortIDs(known + read.waiting.map(\.id)).filter { ids.contains($0.key) }
                writer.pendingIDs = Set(waiting.map(\.id))
                writer.bom = !noBOM
                writer.accounts = config.exportAccounts
                text = writer.render(items, as: format)
            }
        } catch {
            stopped = error
        }
        guard let text else { throw stopped ?? CommandExit(code: .unavailable) }
        if let output, output != "-" {
            let url = URL(fileURLWithPath: output)
            try DocumentFile.save(text, to: url)
            context.note(
                context.say("Wrote \(url.standardizedFileURL.path).", ja: "\(url.standardizedFileURL.path) に書きました。"))
        } else {
            context.io.stdout.write(text)
        }
        if let stopped { throw stopped }
        return .success
    }
}
