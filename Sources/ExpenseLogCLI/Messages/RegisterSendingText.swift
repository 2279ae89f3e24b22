import ExpenseLogClient
import ExpenseLogConfig
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import ExpenseLogUseCases
import Foundation

extension RegisterText {
    /// Runs the registration with its progress, then prints and caches what the server saved and says how the run
    /// ended: `.success`, or the code of what stopped it, after saying what is queued.
    func send(_ registration: BatchRegistration, waiting: Int, repository: LocalRepository, config: AppConfig,
              report: inout ImportRecord) async throws -> ExitCode {
        defer {
            if waiting > 0 {
                context.note("\(waiting) item\(waiting == 1 ? "" : "s") queued by earlier runs \(waiting == 1 ? "is" : "are") still "
                             + "waiting in the outbox; `expense-log sync` sends them.")
            }
        }
        let total = registration.items.count
        var saved = try SavedItems()
        let outcome: BatchRegistration.Outcome
        do {
            outcome = try await registration.run(saved: &saved, report: &report) { event in
                guard case let .sent(index, batches, confirmed, rate) = event else { return }
                // The first and the last batch are always drawn, so even a quick run shows that sending began and ended.
                progress.show("Sent \(index + 1)/\(batches) batches, \(PriceText.format(confirmed)) of \(PriceText.format(total)) "
                              + "items, \(PriceText.format(rate)) items/s", force: index == 0 || index == batches - 1)
            }
        } catch {
            await finish(&saved, repository, config)
            throw error
        }
        // What the server saved is printed before an error is explained, so the explanation is not scrolled away.
        let failure = await finish(&saved, repository, config)
        if config.environment.value == .dummy, saved.count > 0 {
            context.note("The dummy environment answers every POST with its fixture (register.json): the \(saved.count) "
                         + "item\(saved.count == 1 ? "" : "s") above \(saved.count == 1 ? "is" : "are") that canned answer, "
                         + "not what was sent; no server stored anything (only the dummy environment's cache keeps them).")
        }
        let wait = context.resendPolicy(config).wait(info: await repository.serverInfo())
        let code = outcome.stop.map { explain($0, confirmed: outcome.confirmed, total: total, config: config, wait: wait, report: report) } ?? .success
        guard let failure else { return code }
        context.warn(saved.warning(for: failure, registered: outcome.confirmed))
        return code == .success ? .ioError : code
    }

    /// Caches and prints what the server saved; returns why it could not all be kept or cached.
    @discardableResult
    private func finish(_ saved: inout SavedItems, _ repository: LocalRepository, _ config: AppConfig) async -> StoreError? {
        progress.clear()
        return await saved.finish(in: repository) { context.printItems($0, options.format, config) }
    }

    /// Says what stopped the run, what was registered and what stays queued; returns the exit code (75 when the
    /// failure may pass).
    private func explain(_ stop: BatchRegistration.Stop, confirmed: Int, total: Int, config: AppConfig, wait: ResendWait,
                         report: ImportRecord) -> ExitCode {
        let outbox = context.outbox(config).directory.path
        switch stop {
        case .outboxUnwritable(let error):
            context.io.stderr.write("Error: \(error)\nNothing was sent: the outbox must be writable, so that no item can be "
                                    + "lost or sent twice if the run is interrupted.\n")
            return .ioError
        case .outboxUnreadable(let error):
            context.io.stderr.write("Error: \(error)\nThe items not sent yet stay in the outbox; `expense-log sync` sends them.\n")
            return .ioError
        case .answerUnrecorded(let error):
            context.io.stderr.write("Error: \(error)\nThe server answered, but the outbox could not record it; "
                                    + "`expense-log sync` finds those items on the server and does not send them again.\n")
            return .ioError
        case let .failed(error, mayHaveBeenSaved, rows, batchesLeft):
            let location = report.location(ofRow: rows[0])
            lead(error, confirmed: confirmed, total: total)
            if mayHaveBeenSaved {
                let wait = Int(wait.seconds)
                context.io.stderr.write("The batch from \(location) may have been saved before the answer was lost, or the server may "
                                        + "still be saving it: `expense-log sync` checks the server by id before sending anything again, "
                                        + (wait > 0 ? "and sends this batch again only \(wait) s after its POST, unless the server "
                                           + "shows it by then (`expense-log sync` says when).\n"
                                           : "and sends what the server does not show.\n"))
            }
            queued(total - confirmed, from: location, batches: batchesLeft, error, outbox: outbox)
            return error.isTransient ? .temporaryFailure : ExitCode(for: error)
        case let .refused(error, file, rows, batchesLeft, nextRow):
            let location = report.location(ofRow: rows[0])
            lead(error, confirmed: confirmed, total: total)
            context.io.stderr.write("The server refused the \(rows.count) item\(rows.count == 1 ? "" : "s") from \(location) on; "
                                    + "they were moved to \(file.path). Fix them there and register that file (it keeps their ids).\n")
            queued(total - confirmed - rows.count, from: nextRow.map { report.location(ofRow: $0) } ?? location, batches: batchesLeft,
                   error, outbox: outbox)
            return error.isTransient ? .temporaryFailure : ExitCode(for: error)
        }
    }

    /// The error, and how many items were registered before it.
    private func lead(_ error: APIError, confirmed: Int, total: Int) {
        context.io.stderr.write("Error: \(error)\n")
        if confirmed > 0 { context.warn("\(confirmed) of \(total) items were registered before this error") }
    }

    /// Where the `rest` of the items wait, and how to send them.
    private func queued(_ rest: Int, from first: SourceLocation, batches: Int, _ error: APIError, outbox: String) {
        guard rest > 0 else { return }
        context.io.stderr.write("Queued the \(rest) item\(rest == 1 ? "" : "s") from \(first) on, in \(batches) "
                                + "batch\(batches == 1 ? "" : "es"), in the outbox (\(outbox)). "
                                + "Run `expense-log sync` to send them\(error.isTransient ? "" : " once the cause is fixed"); "
                                + "`expense-log pending` lists them (registering the same input again skips them).\n")
    }
}
