import ExpenseLogConfig
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

extension RegisterText {
    /// Says how the registration ended and prints what the server saved; returns the run's code: what stopped it,
    /// else 65 when rows were invalid, else 4 when rows were held for a person, else 0. The one place a `register`
    /// decides its exit code.
    func end(_ outcome: RegisterOutcome, config: AppConfig, review: HeldRowsText) async throws -> ExitCode {
        if let stop = outcome.failure, stop is CommandExit || stop is UsageError {
            // The person stopped it (Ctrl-C at a question) or answered what cannot be: said already, no record.
            printSaved(outcome, config)
            throw stop
        }
        guard let result = outcome.result else {
            // Whatever stopped the run (a 401 while comparing, an unreadable file), what the server saved first is
            // printed, then the error, and the report says how far it got.
            printSaved(outcome, config)
            progress.clear()
            context.io.stderr.write(context.errorLine(outcome.failure ?? CommandExit(code: .failure)))
            return outcome.failure.map(ExitCode.init(for:)) ?? .failure
        }
        let inputs = result.inputs
        let rowsCode: ExitCode = result.invalid ? .dataError : result.held.isEmpty ? .success : .held
        switch result.end {
        case .stoppedOnInvalid:
            let count = inputs.problems.count, rowsOnly = !inputs.problems.allSatisfy(\.ofWholeFile)
            context.io.stderr.write(
                context.say(
                    "Error: \(count) problem\(count == 1 ? "" : "s") found; nothing was sent. "
                        + "Fix what the lines above name and run the command again"
                        + (rowsOnly ? " (or pass --skip-invalid to send the valid rows)." : "."),
                    ja: "エラー: 問題が\(count)件あり、何も送信していません。上の行を直してもう一度実行してください"
                        + (rowsOnly ? " (有効な行だけ送るには --skip-invalid)。" : "。")) + "\n")
            return .dataError
        case .nothingValid:
            // A script reading the output gets an empty list, as from fetch and pending, rather than nothing at all.
            if options.format != .table { context.printItems([], options.format, config) }
            context.note(context.say("No items to register.", ja: "登録する項目はありません。"))
            // Under --on-invalid warn, a file of nothing but invalid rows (a bank changed its layout) is not a success.
            if !result.invalid, !inputs.problems.isEmpty, inputs.repeated.isEmpty {
                context.io.stderr.write(
                    context.say(
                        "Error: no row is valid, so nothing was sent; --on-invalid warn exits 0 only when valid rows "
                            + "are sent. Fix the lines above (or the profile) and run the command again.",
                        ja: "エラー: 有効な行がなく、何も送信していません。--on-invalid warn が0で終わるのは有効な行を送ったときだけです。"
                            + "上の行 (またはプロファイル) を直してもう一度実行してください。") + "\n")
                return .dataError
            }
            return rowsCode
        case .nothingNew:
            progress.clear()
            // `recurring post` with every occurrence already there (a partner posted it): nothing to say, for cron.
            if !options.posting.isEmpty, result.held.isEmpty { return rowsCode }
            explain(result.skipped, held: result.held, review: review)
            if options.format != .table { context.printItems([], options.format, config) }
            context.note(
                result.held.isEmpty
                    ? context.say(
                        "Nothing to send: every valid row is already there.", ja: "送るものはありません: 有効な行はすべて登録済みです。")
                    : context.say(
                        "Nothing else to send: every other valid row is already there.",
                        ja: "ほかに送るものはありません: ほかの有効な行はすべて登録済みです。"))
            return rowsCode
        case .dryRun(let items):
            progress.clear()
            explain(result.skipped, held: result.held, review: review)
            do {
                try dryRun(items, config)
            } catch {
                context.io.stderr.write(context.errorLine(error))
                return ExitCode(for: error)
            }
            return rowsCode
        case let .sent(sending, total):
            progress.clear()
            explain(result.skipped, held: result.held, review: review)
            let code = sent(sending, total: total, outcome, config: config)
            if result.waiting > 0 {
                context.note(
                    context.say(
                        "\(result.waiting) item\(result.waiting == 1 ? "" : "s") queued by earlier runs \(result.waiting == 1 ? "is" : "are") "
                            + "still waiting in the outbox; `expense-log sync` sends them.",
                        ja: "以前の実行の\(result.waiting)件が送信待ちです。`expense-log sync` で送ります。"))
            }
            if let ledger = try? context.ledger() { await context.flushWarnings(ledger) }
            return code != .success ? code : rowsCode
        }
    }

    /// Prints what the server saved (cached already by the ledger), once, before any error is explained, so the
    /// explanation is not scrolled away by the items.
    private func printSaved(_ outcome: RegisterOutcome, _ config: AppConfig) {
        progress.clear()
        if let kept = outcome.saved.kept, kept.count > 0 {
            context.printItems(kept, options.format, config, totals: .onTerminal)
        }
    }

    /// Prints what the server saved, then says how the sending ended: `.success`, or the code of what stopped it,
    /// after saying what is queued.
    private func sent(
        _ sending: RegisterSending.Outcome, total: Int, _ outcome: RegisterOutcome, config: AppConfig
    ) -> ExitCode {
        printSaved(outcome, config)
        let saved = outcome.saved
        if config.environment.value == .dummy, saved.count > 0 {
            context.note(
                context.say(
                    "The dummy environment answers every POST with its fixture (register.json): the \(saved.count) "
                        + "item\(saved.count == 1 ? "" : "s") above \(saved.count == 1 ? "is" : "are") that canned answer, "
                        + "not what was sent; no server stored anything (only the dummy environment's cache keeps them).",
                    ja: "dummy 環境はどの POST にもフィクスチャ (register.json) で答えます。上の\(saved.count)件はその決まった応答で、"
                        + "送ったものではありません。どのサーバーにも保存していません (dummy 環境のキャッシュにだけ残ります)。"))
        }
        let code =
            sending.stop.map {
                explain(
                    $0, confirmed: sending.confirmed, total: total, config: config, wait: outcome.resendWait,
                    report: outcome.record)
            } ?? .success
        guard let failure = outcome.cacheFailure else { return code }
        context.warn(saved.warning(for: failure, registered: sending.confirmed))
        return code == .success ? .ioError : code
    }

    /// Says what stopped the run, what was registered and what stays queued; returns the exit code (75 when the
    /// failure may pass).
    private func explain(
        _ stop: RegisterSending.Stop, confirmed: Int, total: Int, config: AppConfig, wait: ResendWait,
        report: ImportRecord
    ) -> ExitCode {
        let outbox = config.journalDirectory.path
        switch stop {
        case .outboxUnwritable(let error):
            context.io.stderr.write(
                context.errorLine(error) + "Nothing was sent: the outbox must be writable, so that no item can be "
                    + "lost or sent twice if the run is interrupted.\n")
            return .ioError
        case .outboxUnreadable(let error):
            context.io.stderr.write(
                context.errorLine(error) + "The items not sent yet stay in the outbox; `expense-log sync` sends them.\n"
            )
            return .ioError
        case .answerUnrecorded(let error):
            context.io.stderr.write(
                context.errorLine(error) + "The server answered, but the outbox could not record it; "
                    + "`expense-log sync` finds those items on the server and does not send them again.\n")
            return .ioError
        case let .failed(error, mayHaveBeenSaved, rows, batchesLeft):
            let location = report.location(ofRow: rows[0])
            lead(error, confirmed: confirmed, total: total)
            if mayHaveBeenSaved, options.adding == nil {
                let wait = Int(wait.seconds)
                context.io.stderr.write(
                    context.say(
                        "The batch from \(location) may have been saved before the answer was lost, or the server may "
                            + "still be saving it: `expense-log sync` checks the server by id before sending anything again, "
                            + (wait > 0
                                ? "and sends this batch again only \(wait) s after its POST, unless the server "
                                    + "shows it by then (`expense-log sync` says when)."
                                : "and sends what the server does not show."),
                        ja: "\(location) からのバッチは応答が失われる前に保存されたか、まだ保存中かもしれません。`expense-log sync` は"
                            + "送り直す前にサーバーを ID で確かめ、"
                            + (wait > 0
                                ? "サーバーに現れなければ POST の\(wait)秒後に送り直します (いつかは `expense-log sync` が言います)。"
                                : "サーバーにないものだけを送ります。")) + "\n")
            }
            queued(total - confirmed, from: location, batches: batchesLeft, error, outbox: outbox)
            return FailureText.isTransient(error) ? .temporaryFailure : ExitCode(for: error)
        case let .refused(error, file, rows, batchesLeft, nextRow):
            let location = report.location(ofRow: rows[0])
            lead(error, confirmed: confirmed, total: total)
            context.io.stderr.write(
                context.say(
                    "The server refused the \(rows.count) item\(rows.count == 1 ? "" : "s") from \(location) on; "
                        + "they were moved to \(file.path). Fix them there and register that file (it keeps their ids).",
                    ja: "サーバーが \(location) 以降の\(rows.count)件を拒否しました。\(file.path) に移したので、そこで直して"
                        + "そのファイルを登録してください (ID はそのままです)。") + "\n")
            queued(
                total - confirmed - rows.count, from: nextRow.map { report.location(ofRow: $0) } ?? location,
                batches: batchesLeft,
                error, outbox: outbox)
            return FailureText.isTransient(error) ? .temporaryFailure : ExitCode(for: error)
        }
    }

    /// The error, and how many items were registered before it. For `add`, a server that cannot be reached is only a
    /// warning: the purchase is kept, and the next line says where (or, when nothing answers at all, that line alone).
    private func lead(_ error: any Error, confirmed: Int, total: Int) {
        if options.adding != nil, FailureText.isUnreachable(error) { return }
        if options.adding != nil, FailureText.isTransient(error) { return context.warn(context.describe(error)) }
        context.io.stderr.write(context.errorLine(error))
        if confirmed > 0 {
            context.warn(
                context.say(
                    "\(confirmed) of \(total) items were registered before this error",
                    ja: "このエラーの前に\(total)件中\(confirmed)件を登録しました"))
        }
    }

    /// Where the `rest` of the items wait, and how to send them.
    private func queued(_ rest: Int, from first: SourceLocation, batches: Int, _ error: any Error, outbox: String) {
        guard rest > 0 else { return }
        if let added = options.adding, case .text(let name) = added.name {
            let price =
                if case .text(let text) = added.price { PriceText.parse(text).map(PriceText.yen) ?? text } else { "" }
            if FailureText.isUnreachable(error) {
                return context.io.stderr.write(
                    context.say(
                        "\(PrintableText.of(name)) \(price) is queued (\(error)); `expense-log sync` sends it once "
                            + "the server can be reached.",
                        ja: "\(PrintableText.of(name)) \(price) は送信待ちです (\(context.describe(error)))。サーバーに届くようになったら "
                            + "`expense-log sync` で送ります。") + "\n")
            }
            return context.io.stderr.write(
                context.say(
                    "\(PrintableText.of(name)) \(price) waits in the outbox (\(outbox)): `expense-log sync` sends it "
                        + "\(FailureText.isTransient(error) ? "once the server can be reached" : "once the cause is fixed"); "
                        + "`expense-log fetch` shows it, marked as waiting.",
                    ja: "\(PrintableText.of(name)) \(price) は送信待ちです (\(outbox))。"
                        + (FailureText.isTransient(error) ? "サーバーに届くようになったら" : "原因を直したら")
                        + " `expense-log sync` で送ります。`expense-log fetch` では未送信として表示します。") + "\n")
        }
        context.io.stderr.write(
            context.say(
                "Queued the \(rest) item\(rest == 1 ? "" : "s") from \(first) on, in \(batches) "
                    + "batch\(batches == 1 ? "" : "es"), in the outbox (\(outbox)). "
                    + "Run `expense-log sync` to send them\(FailureText.isTransient(error) ? "" : " once the cause is fixed"); "
                    + "`expense-log pending` lists them (registering the same input again skips them).",
                ja: "\(first) 以降の\(rest)件を\(batches)バッチで送信待ち (\(outbox)) にしました。"
                    + (FailureText.isTransient(error) ? "" : "原因を直してから") + "`expense-log sync` で送ってください。"
                    + "`expense-log pending` で一覧できます (同じ入力をもう一度登録しても二重にはなりません)。") + "\n")
    }
}
