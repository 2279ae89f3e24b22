import ExpenseLogConfig
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// What a run of the pending writes (`sync`, or an `edit`/`delete` sending the queue) says, and the exit code it ends
/// with: the items the server saved, why items or changes stay queued, and what the server answered to each change.
struct SyncText {
    let context: Context
    let config: AppConfig
    /// The ledger whose journal was sent.
    let ledger: Ledger
    /// The client it was sent over (whose URL a refusal names).
    let link: ServerLink
    /// The format the saved items are printed in.
    let format: OutputFormat
    /// Where many saved items are totalled per month (`sync`: always; an `edit` or `delete` sending the queue, which
    /// has no `--format` to ask for every row: on a terminal only).
    var totals: Context.MonthTotalsWhere = .always

    /// Shows what happens during the run at once.
    func show(_ event: SyncEvent) {
        switch event {
        case let .rows(rows, month): context.warnRows(rows, of: month)
        case .cacheFailure(let failure):
            context.warn(
                context.say("the cache could not be updated: ", ja: "キャッシュを更新できません: ") + context.describe(failure))
        case let .forced(key, sentAt):
            context.warn(
                context.say(
                    "sending the batch \(key) again although its POST at \(Self.time(sentAt)) may still be "
                        + "running on the server (--force); if it is, its items will be registered twice",
                    ja: "\(Self.time(sentAt)) の POST がまだサーバーで動いているかもしれないバッチ \(key) を送り直します (--force)。"
                        + "動いていれば、その項目は二重に登録されます"))
        case .resendsAtOnce:
            context.note(
                context.say(
                    "The server is expense-log's web app, which saves an id only once: a batch whose answer was lost is sent again at once.",
                    ja: "サーバーは expense-log のウェブアプリで、同じ ID は一度しか保存しません。応答が失われたバッチはすぐに送り直します。"))
        case .unreadableEntry(let problem):
            context.warn(context.describeNotice(problem))
        }
    }

    /// Prints what the server saved (the ledger cached it); says when it could not all be kept or cached, and returns
    /// whether so. `printEmpty` prints an empty list too (`[]` for json), for a command whose output a script reads.
    @discardableResult
    func printSaved(_ saved: SavedItems, _ failure: (any Error)?, printEmpty: Bool = false) -> Bool {
        if let kept = saved.kept, kept.count > 0 || printEmpty {
            context.printItems(kept, format, config, totals: totals)
        }
        guard let failure else { return false }
        context.warn(saved.warning(for: failure, registered: saved.registered))
        return true
    }

    /// Says how the run went, the items' part first; throws the exit code when it is not 0. `own` is the change an
    /// `edit` or `delete` queued (nil for `sync`).
    func render(_ report: SyncOutcome, own: QueuedEdit?) async throws -> ExitCode {
        guard let result = report.result else {
            // What was saved before the failure is printed first, so the error is not scrolled away by it.
            printSaved(report.saved, report.cacheFailure)
            throw report.failure ?? CommandExit(code: .failure)
        }
        var itemsExit: ExitCode?
        if let outcome = result.items {
            itemsExit = await items(outcome, result, report, own: own)
        } else if own == nil, format != .table {
            context.printItems([], format, config)
        }
        do {
            try edits(result.edits, own: own)
        } catch let exit as CommandExit {
            throw CommandExit(code: itemsExit ?? exit.code)
        }
        return itemsExit ?? .success
    }

    /// The items' part: what was saved (printed before an error is explained), why items stay; the exit code if not 0.
    private func items(
        _ outcome: ItemSendingOutcome, _ result: JournalSendingOutcome, _ report: SyncOutcome, own: QueuedEdit?
    ) async -> ExitCode? {
        let remaining = "\(outcome.remaining) item\(outcome.remaining == 1 ? " remains" : "s remain") in the outbox"
        switch outcome.stop {
        case .some(.monthUnreadable(let month, let failure)):
            context.io.stderr.write(
                context.errorLine(failure) + "Nothing was sent: \(month) must be read from the server first, "
                    + "so that no item is registered twice. \(remaining); run sync again "
                    + (failure.isTransient ? "later.\n" : "once the cause is fixed.\n"))
            return failure.isTransient ? .temporaryFailure : ExitCode(for: failure)
        case .some(.batchFailed(let key, let entry, let error)):
            printSaved(report.saved, report.cacheFailure)
            context.io.stderr.write(
                context.errorLine(error) + "The batch \(key) of \(entry.path) was not confirmed; \(remaining). "
                    + "Run sync again later" + (FailureText.isTransient(error) ? ".\n" : " once the cause is fixed.\n"))
            return FailureText.isTransient(error) ? .temporaryFailure : ExitCode(for: error)
        case .none:
            let keepFailed = printSaved(report.saved, report.cacheFailure, printEmpty: format != .table)
            await context.flushWarnings(ledger)
            let changesWait = if case .none = result.edits { false } else { true }
            return itemsSummary(
                outcome, problems: result.problems, wait: result.wait, own: own, changesWait: changesWait)
                ?? (keepFailed ? .ioError : nil)
        }
    }

    /// Says how an items' run that went to its end ended; its exit code when not 0 (refused batches, unreadable entries,
    /// entries held elsewhere, batches that may still be running).
    private func itemsSummary(
        _ outcome: ItemSendingOutcome, problems: [String], wait: ResendWait, own: QueuedEdit?, changesWait: Bool
    ) -> ExitCode? {
        for refused in outcome.refused {
            context.io.stderr.write(
                context.errorLine(refused.error)
                    + context.say(
                        "The refused items were moved to \(refused.file.path); fix them there and register that file.",
                        ja: "拒否された項目は \(refused.file.path) に移しました。そこで直して、そのファイルを登録してください。") + "\n")
        }
        for batch in outcome.unsafe {
            context.warn(
                context.say(
                    "the batch \(batch.key) (\(batch.count) item\(batch.count == 1 ? "" : "s")) was sent at \(Self.time(batch.sentAt)) "
                        + "and its answer never came: the server may still be running it (up to \(Int(wait.seconds)) s), so it is "
                        + "sent again only from \(Self.time(batch.safeFrom)), unless the server shows it by then. Run sync again "
                        + "then; --force sends it now, at the risk of registering it twice.",
                    ja: "バッチ \(batch.key) (\(batch.count)件) は \(Self.time(batch.sentAt)) に送りましたが応答がありません。サーバーが"
                        + "まだ処理しているかもしれないため (最長\(Int(wait.seconds))秒)、その前にサーバーに現れなければ "
                        + "\(Self.time(batch.safeFrom)) 以降に送り直します。そのときに sync を実行してください。--force ですぐ送れますが、"
                        + "二重に登録されるおそれがあります。"))
        }
        if !outcome.matched.isEmpty {
            context.note(
                context.say(
                    "Did not send \(outcome.matched.count) statement row\(outcome.matched.count == 1 ? "" : "s") that waited in the outbox, "
                        + (outcome.matched.count == 1
                            ? "as it is an item already there:\n" : "as they are items already there:\n"),
                    ja: "送信待ちだった明細の\(outcome.matched.count)行は登録済みの項目なので送りませんでした:\n")
                    + outcome.matched.map {
                        "  \(QueuedRowMatching.describe($0.item)): \(context.japanese ? $0.japanese : $0.reason)"
                    }
                    .joined(separator: "\n"))
        }
        if !outcome.held.isEmpty {
            if context.japanese {
                context.io.stderr.write(
                    "入力された項目かもしれない明細の\(outcome.held.count)行を保留しました。送信待ちのままです:\n"
                        + outcome.held.map { row in
                            "  \(QueuedRowMatching.describe(row.item)) は "
                                + row.candidates.map { QueuedRowMatching.describe($0.item) }.joined(separator: "、または ")
                                + " かもしれません"
                        }.joined(separator: "\n")
                        + "\n`expense-log sync --ambiguous new` (送る)、`same` (送らない)、`skip` で決めてください。\n")
            } else {
                context.io.stderr.write(
                    "Held \(outcome.held.count) statement row\(outcome.held.count == 1 ? "" : "s") that may be items entered while "
                        + "\(outcome.held.count == 1 ? "it" : "they") waited; not sent, \(outcome.held.count == 1 ? "it waits" : "they wait") "
                        + "in the outbox:\n"
                        + outcome.held.map { row in
                            "  \(QueuedRowMatching.describe(row.item)) may be "
                                + row.candidates.map { QueuedRowMatching.describe($0.item) }.joined(separator: ", or ")
                        }.joined(separator: "\n")
                        + "\nDecide with `expense-log sync --ambiguous new` (send), `same` (do not send) or `skip`.\n")
            }
        }
        let unsafe = outcome.unsafe, busy = outcome.busy
        let left =
            !unsafe.isEmpty
            ? "\(unsafe.reduce(0) { $0 + $1.count }) item\(unsafe.count == 1 && unsafe[0].count == 1 ? " waits" : "s wait") until the server cannot still be running them."
            : busy > 0
                ? "\(busy) item\(busy == 1 ? " was" : "s were") not sent now: a register run is sending \(busy == 1 ? "it" : "them"), "
                    + "or \(busy == 1 ? "its" : "their") outbox entry changed while this sync ran; run sync again."
                : own != nil
                    ? "The change waited for \(outcome.sent == 1 ? "it" : "them")."
                    : !outcome.held.isEmpty
                        ? "\(outcome.remaining) item\(outcome.remaining == 1 ? " waits" : "s wait") in the outbox."
                        : !problems.isEmpty
                            ? "Unreadable outbox entries remain (see the warnings above)."
                            // The changes are said next: the outbox is empty only when none waits either.
                            : changesWait ? "No item waits to be registered." : "The outbox is empty."
        let japaneseLeft =
            left == "The outbox is empty."
            ? "送信待ちはありません。" : left == "No item waits to be registered." ? "登録を待つ項目はありません。" : left
        // Nothing sent or found: only what is left says anything (the rows matched or held were said above).
        if outcome.posts == 0, outcome.skipped == 0, !outcome.matched.isEmpty || !outcome.held.isEmpty {
            if !outcome.held.isEmpty || !["The outbox is empty.", "No item waits to be registered."].contains(left) {
                context.note(context.say(left, ja: japaneseLeft))
            }
        } else {
            context.note(
                context.say(
                    "Sent \(outcome.sent) item\(outcome.sent == 1 ? "" : "s") in \(outcome.posts) request\(outcome.posts == 1 ? "" : "s"); "
                        + "skipped \(outcome.skipped) the server already had. " + left,
                    ja: "\(outcome.sent)件を送信しました (リクエスト\(outcome.posts)回、サーバーに既にあった\(outcome.skipped)件は送らず)。"
                        + japaneseLeft))
        }
        if let first = outcome.refused.first { return ExitCode(for: first.error) }
        // An unreadable entry needs a person, not another try: 74, as pending gives.
        if !problems.isEmpty { return .ioError }
        if busy > 0 || !unsafe.isEmpty { return .temporaryFailure }
        return outcome.held.isEmpty ? nil : .held
    }

    /// The changes' part; throws the exit code when it is not 0.
    private func edits(_ step: ChangesOutcome, own: QueuedEdit?) throws {
        let directory = config.journalDirectory.path
        func behind(_ count: Int) -> String {
            context.say(
                "\(count) change\(count == 1 ? " waits" : "s wait") behind an item still waiting to be registered (or a journal entry "
                    + "that cannot be read, which may hold one)"
                    + (own == nil ? "" : " (this one among them)")
                    + ": `expense-log sync` sends \(count == 1 ? "it" : "them") once those are sent.",
                ja: "\(count)件の変更が、まだ登録を待っている項目 (またはそれを含むかもしれない読めない送信待ち) の後ろで待っています"
                    + (own == nil ? "" : " (この変更も)") + "。それらが送られたら `expense-log sync` で送ります。") + "\n"
        }
        switch step {
        case .none:
            return
        case .stoppedWithItems:
            context.note(
                context.say(
                    "The queued edits and deletions wait too (`expense-log pending` lists them).",
                    ja: "待っている変更と削除もそのままです (`expense-log pending` で一覧できます)。"))
            throw CommandExit(code: .temporaryFailure)
        case .behindItems(let count):
            context.io.stderr.write(behind(count))
            throw CommandExit(code: .temporaryFailure)
        case .blocked(let blocker):
            context.io.stderr.write(
                context.say("Error", ja: "エラー") + ": \(context.describeNotice(blocker)).\n"
                    + (own == nil ? "" : context.say("This change waits behind it.", ja: "この変更はその後ろで待ちます。") + "\n"))
            throw CommandExit(code: .ioError)
        case .actionAbsent(let action):
            context.io.stderr.write(ServerEdits.absent(action, link.baseURL))
            // Queued while the server could not be asked: this server can never take them, so say how to let them go.
            context.io.stderr.write(
                context.say(
                    "The changes queued in \(directory) cannot be sent to it: deploy the bundled script, or remove them "
                        + "with `expense-log pending drop ID` (`expense-log pending` lists them; `expense-log fetch --refresh` "
                        + "then shows the months as the server has them).",
                    ja: "\(directory) で待っている変更はこのサーバーには送れません。同梱のスクリプトを公開するか、"
                        + "`expense-log pending drop ID` で取り除いてください (`expense-log pending` で一覧、その後 "
                        + "`expense-log fetch --refresh` でサーバーの月を表示します)。") + "\n")
            throw CommandExit(code: .unavailable)
        case let .actionUnknown(error, waiting):
            context.warn(String(context.describe(error).prefix { $0 != "\n" }))
            context.io.stderr.write(
                context.say(
                    "\(waiting) change\(waiting == 1 ? " waits" : "s wait") in \(directory); "
                        + "run sync again once the server can be reached.",
                    ja: "\(waiting)件の変更が \(directory) で待っています。サーバーに届くようになったら sync を実行してください。") + "\n")
            throw CommandExit(code: .temporaryFailure)
        case let .sent(outcome, blocker, waitingBehind):
            do {
                try EditText.say(outcome, own: own, directory: directory, context, config, blocked: blocker)
            } catch {
                if waitingBehind > 0 { context.io.stderr.write(behind(waitingBehind)) }
                throw error
            }
            if waitingBehind > 0 {
                context.io.stderr.write(behind(waitingBehind))
                throw CommandExit(code: .temporaryFailure)
            }
            if own == nil { context.note(context.say("No edit or deletion waits.", ja: "待っている変更はありません。")) }
        }
    }

    /// `2026-11-23 20:52:08+09:00`: when a batch was sent, or becomes safe to send again, in local time.
    static func time(_ date: Date) -> String {
        LocalTime.text(date)
    }
}
