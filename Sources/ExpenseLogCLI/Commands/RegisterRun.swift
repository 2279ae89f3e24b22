import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// A `register` (or `add`) run: the ledger's `register`, then what it did said (`RegisterText.end`) and the report.
extension RegisterCommand {
    /// Registers what `options` names (files, or the item `add` made); returns the run's exit code.
    static func run(_ options: RegisterOptions, _ context: Context) async throws -> ExitCode {
        let progress = ProgressLine(context)
        let ending = ImportRecordFile(
            file: options.recordFile, context: context, progress: progress, summarizes: options.adding == nil)
        let names = options.paths.map { RegisterOptions.name(of: $0.path) }
        let ledger: Ledger, request: RegisterRequest
        do {
            ledger = try context.ledger()
            request = RegisterRequest(
                input: try options.input(context), fileNames: names, onInvalid: options.onInvalid,
                matcher: options.allowDuplicates ? nil : StatementMatcher(window: options.matchDays),
                dryRun: options.dryRun, limit: options.limit, queuesUnreachable: options.adding != nil,
                today: Day.today())
            try await NewShopQuestions.ask(options, request, ledger, context, ledger.config)
        } catch let error where !(error is UsageError || error is CommandExit) {
            // An input that cannot be opened stops the run before it reads anything; the report still says so.
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
            link: { try context.link(orNoneFor: options.dryRun, queuesUnreachable: options.adding != nil) },
            deciding: review.source, decide: review.decide, event: messages.show)
        let code = try await messages.end(outcome, config: config, review: review)
        return ending.finish(outcome.record, code: code, of: outcome)
    }
}
