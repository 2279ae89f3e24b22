import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// A `register` (or `add`) run: the registration (`Registration`), its record, and its end (`RegisterText.end`).
extension RegisterCommand {
    /// Registers what `options` names (files, or the item `add` made), and ends with the report and the exit code.
    static func run(_ options: RegisterOptions, _ context: Context) async throws {
        let progress = ProgressLine(context)
        // The valid items wait on disk, not in memory, from reading to sending; the report reads them back from it.
        let ending: ImportRecordFile
        do {
            ending = try ImportRecordFile(
                file: options.reportFile, context: context, progress: progress, summarizes: options.adding == nil)
        } catch {
            context.io.stderr.write(context.errorLine(error))
            throw CommandExit(code: ExitCode(for: error))
        }
        var report = ImportRecord(files: options.paths.map { RegisterOptions.name(of: $0.path) })
        do {
            let messages = RegisterText(options: options, context: context, progress: progress)
            try await register(options, context, messages: messages, ending: ending, report: &report)
        } catch let exit as CommandExit {
            throw exit
        } catch let usage as UsageError {
            throw usage
        } catch {
            // Whatever stops the run (a 401 while comparing, an unreadable file), the report says how far it got.
            progress.clear()
            context.io.stderr.write(context.errorLine(error))
            try ending.finish(report, code: ExitCode(for: error))
        }
    }

    /// The run itself (`Registration`): read, compare, send; it always ends through `RegisterText.end`, which writes the
    /// report and throws the exit code.
    static func register(
        _ options: RegisterOptions, _ context: Context, messages: RegisterText, ending: ImportRecordFile,
        report: inout ImportRecord
    ) async throws {
        let config = try context.config()
        let repository = try context.ledger().repository
        let registration = Registration(
            client: { try context.client(orNoneFor: options.dryRun, queuesUnreachable: options.adding != nil) },
            repository: repository,
            journal: try context.ledger().journal, queuedEdits: { EditText.waiting(context, config) },
            catalogue: config.catalogue.value, onInvalid: options.onInvalid,
            matcher: options.allowDuplicates ? nil : StatementMatcher(window: options.matchDays),
            decisions: try context.ledger().decisions, shopRules: try context.ledger().shopRules.store,
            dryRun: options.dryRun, limit: options.limit,
            verifyAnswers: config.environment.value != .dummy)
        try await NewShopQuestions.ask(options, registration, context, config)
        let review = try HeldRowsText(options: options, context: context, progress: messages.progress)
        var saved = try SavedItems()
        let result: RegistrationResult
        // Until the outbox holds the items, stopping loses nothing: nothing was queued or sent.
        context.io.interruption?.say(options.dryRun ? nil : "Nothing was queued or sent.")
        defer { context.io.interruption?.say(nil) }
        do {
            result = try await registration.run(
                options.input(context), into: ending.spool, record: &report, saved: &saved,
                today: Day.today(), deciding: review.source, decide: review.decide, event: messages.show)
        } catch {
            // what the server saved before the failure is still cached
            await messages.finish(&saved, repository, config)
            throw error
        }
        try await messages.end(
            result, saved: &saved, ending: ending, report: report, repository: repository, config: config,
            review: review)
    }
}
