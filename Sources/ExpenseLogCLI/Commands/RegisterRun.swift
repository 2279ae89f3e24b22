import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// A `register` (or `add`) run: the ledger's `register`, then what it did said (`RegisterText.end`), and its ending.
extension RegisterCommand {
    /// Registers what `options` names (files, or the item `add` made); returns the run's exit code.
    static func run(_ options: RegisterOptions, _ context: Context) async throws -> ExitCode {
        let progress = ProgressLine(context)
        let ending = RegisterEnding(
            file: options.recordFile, context: context, progress: progress, summarizes: options.hasExplain)
        let names = options.paths.map { RegisterOptions.name(of: $0.path) }
        let ledger: Ledger
        var request: RegisterRequest
        do {
            ledger = try context.ledger()
            request = RegisterRequest(
                input: try options.input(context), fileNames: names, onInvalid: options.onInvalid,
                matcher: options.allowDuplicates ? nil : StatementMatcher(window: options.matchDays),
                dryRun: options.dryRun, limit: options.limit, queuesUnreachable: options.queuesUnreachable,
                today: Day.today())
            // A typed purchase meets no fixed cost; a run of files reads them when it has statement rows to compare.
            request.rules = options.adding != nil ? [] : options.rules
            try await NewShopQuestions.ask(options, request, ledger, context, ledger.config)
        } catch let error where !(error is UsageError || error is CommandExit) {
            // An input that cannot be opened stops the run before it reads anything; the record still says so.
            progress.clear()
            context.io.stderr.write(context.errorLine(error))
            return ending.finish(ImportRecord(files: names), code: ExitCode(for: error))
        }
        let config = ledger.config
        let messages = RegisterText(options: options, context: context, progress: progress)
        let review = try HeldRowsText(options: options, context: context, progress: progress)
        // Until the journal holds the items, stopping loses nothing: nothing was queued or sent.
        context.io.interruption?.say(options.dryRun ? nil : "Nothing was queued or sent.")
        defer { context.io.interruption?.say(nil) }
        let outcome = try await ledger.register(
            request,
            link: { try context.link(orNoneFor: options.dryRun, queuesUnreachable: options.queuesUnreachable) },
            deciding: review.source, decide: review.decide, event: messages.show)
        let code = try await messages.end(outcome, config: config, review: review)
        return ending.finish(outcome.record, code: code, of: outcome)
    }
}

/// How every `register` run ends: the rows' summary on stderr, the record file (`--record`), then the exit code.
struct RegisterEnding {
    /// `--record FILE`.
    let file: String?
    let context: Context
    let progress: ProgressLine
    /// Whether the rows' one-line summary is said (not for `add`'s one item, whose fate was just said in words).
    let summarizes: Bool

    /// The ending of a run writing its record to `file` (none when nil).
    init(file: String?, context: Context, progress: ProgressLine, summarizes: Bool = true) {
        (self.file, self.context, self.progress, self.summarizes) = (file, context, progress, summarizes)
    }

    /// Says the rows' summary and writes the record file; returns the run's code (74 when the file could not be
    /// written and the run had succeeded).
    func finish(_ report: ImportRecord, code: ExitCode, of outcome: RegisterOutcome? = nil) -> ExitCode {
        progress.clear()
        let summary =
            !summarizes || report.isEmpty && code != .success
            ? nil
            : context.say("Rows: \(report.summary).", ja: "結果: \(report.japaneseSummary)。")
        if let path = file {
            do {
                // A document at a path the person chose (as a report page is): the usual mode, not the store's.
                try DocumentFile.save(to: URL(fileURLWithPath: path)) { emit in
                    try report.write(exitCode: code.rawValue, spool: outcome?.items, to: emit)
                }
            } catch {
                context.io.stderr.write(
                    context.say("Error: the record could not be written to \(path): ", ja: "エラー: 結果を \(path) に書けません: ")
                        + context.describe(error) + "\n")
                if let summary { context.note(summary) }
                return code == .success ? .ioError : code
            }
        }
        if let summary { context.note(summary + (file.map { " Every row is in \($0)." } ?? "")) }
        return code
    }
}
