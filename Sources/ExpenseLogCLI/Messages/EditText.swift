import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// How `edit` and `delete` hand their change to the pending writes, and what the server answered to each change says.
enum EditText {
    /// Queues a change, brings the cache in step with it, and sends what was queued up to it when the server can be
    /// asked (`reachable`) (`ChangeSubmission`); says what became of it. Exits 75 when it stays queued.
    static func submit(
        _ change: QueuedEdit.Change, reachable: Bool, link: ServerLink, _ context: Context,
        _ config: AppConfig
    ) async throws {
        let directory = config.journalDirectory.path
        let ledger = try context.ledger()
        let text = SyncText(
            context: context, config: config, ledger: ledger, link: link, format: .table, totals: .onTerminal)
        let report = try await ledger.submit(change, reachable: reachable, link: link, event: text.show)
        if let error = report.cacheFollowFailure {
            context.warn(
                context.say("the cache could not be updated: ", ja: "キャッシュを更新できません: ") + context.describe(error))
        }
        switch report.submitted {
        case nil:
            try await Self.ended(text.render(report.run, own: nil))
        case .waiting:
            context.io.stderr.write(
                context.say(
                    "The change waits in \(directory); `expense-log sync` sends it once the server can be reached.",
                    ja: "変更は \(directory) で送信を待っています。サーバーに届くようになったら `expense-log sync` で送ります。") + "\n")
            throw CommandExit(code: .temporaryFailure)
        case .busy:
            context.io.stderr.write(
                context.say(
                    "Another run (a sync, edit or delete) is sending this environment's queue and may send this "
                        + "change too; until then it waits in \(directory): `expense-log pending` shows "
                        + "whether it still does, and `expense-log sync` sends it.",
                    ja: "別の実行 (sync、edit、delete) がこの環境の送信待ちを送っていて、この変更も送るかもしれません。"
                        + "それまでは \(directory) で待ちます。`expense-log pending` でまだ待っているか確かめ、"
                        + "`expense-log sync` で送ってください。") + "\n")
            throw CommandExit(code: .temporaryFailure)
        case .sent(let own, _):
            try await Self.ended(text.render(report.run, own: own))
        }
    }

    /// Ends a change's command with what its run of the journal said: a code other than 0 stops it (an `edit` of
    /// several items stops at the first change that waits).
    private static func ended(_ code: ExitCode) throws {
        if code != .success { throw CommandExit(code: code) }
    }

    /// The changes waiting to be sent, for a fetch to make on the months it reads (none, with a warning, when the queue's
    /// folder cannot be listed; a file that cannot be read is left out, and `pending` and `sync` name it).
    static func waiting(_ context: Context, _ config: AppConfig) -> [QueuedEdit] {
        guard let ledger = try? context.ledger() else { return [] }
        let (changes, failure) = ledger.waitingChanges()
        if let failure { warnUnlisted(failure, context) }
        return changes
    }

    /// Says that the journal could not be listed, so the months read are shown without the changes waiting in it.
    static func warnUnlisted(_ failure: any Error, _ context: Context) {
        context.warn(
            context.describe(failure)
                + context.say(
                    "; the months read are shown without the changes waiting in it",
                    ja: "。読んだ月は待っている変更を反映せずに表示します"))
    }

    /// Says that months shown carry changes not sent yet.
    static func noteWaiting(_ edits: [QueuedEdit], in months: [YearMonth], _ context: Context) {
        let shown = Set(months)
        let touching = edits.filter { !shown.isDisjoint(with: $0.months) }
        guard !touching.isEmpty else { return }
        context.note(
            context.say(
                "\(touching.count) queued change\(touching.count == 1 ? " is" : "s are") shown made, not sent yet: "
                    + "`expense-log pending` lists \(touching.count == 1 ? "it" : "them"), `expense-log sync` sends \(touching.count == 1 ? "it" : "them").",
                ja: "まだ送っていない\(touching.count)件の変更を反映して表示しています。`expense-log pending` で一覧、`expense-log sync` で送ります。"))
    }

    /// Says what the server answered to each change, and why the rest stay queued; throws the exit code: 65 when a
    /// change (the caller's `own`, or any for `sync`) can never apply, 74 when the queue could not be read or kept up,
    /// else the stopping error's.
    static func say(
        _ outcome: ChangeSendingOutcome, own: QueuedEdit?, directory: String, _ context: Context, _ config: AppConfig,
        blocked: String?
    ) throws {
        var vanished = false
        // First, so that what follows (an id "missing" from a spreadsheet no longer used) reads in its light.
        for notice in outcome.notices { context.warn(context.say("the web app says: ", ja: "ウェブアプリからの知らせ: ") + notice) }
        for delivered in outcome.delivered {
            switch delivered {
            case let .deleted(edit, deleted, missing):
                guard case .delete(let items) = edit.change else { continue }
                for item in items where deleted.contains(item.id) {
                    context.note(
                        context.say("Deleted: ", ja: "削除しました: ") + ServerEdits.describe(item, config, context)
                            + context.say(".", ja: "。"))
                }
                if !missing.isEmpty {
                    let ids = missing.map(PrintableText.of).joined(separator: ", ")
                    context.warn(
                        context.say(
                            "the server had no item \(ids) (deleted already: elsewhere, or by an earlier try whose answer was lost); "
                                + "it is gone from the cache too",
                            ja: "サーバーに項目 \(ids) はありませんでした (別の場所か、応答が失われた前の試みで削除済み)。キャッシュからも消しました"))
                }
            case let .changed(edit, saved):
                guard case .update(let item, _, _) = edit.change else { continue }
                context.note(
                    context.say(
                        "Changed: \(ServerEdits.describe(saved, config, context)) (was \(ServerEdits.describe(item, config, context))).",
                        ja:
                            "変更しました: \(ServerEdits.describe(saved, config, context)) (元: \(ServerEdits.describe(item, config, context)))。"
                    ))
            case let .vanished(edit, error):
                guard case .update(let item, _, _) = edit.change else { continue }
                // an earlier run's change is reported, not this run's failure
                let mine = own == nil || edit.file == own?.file
                vanished = vanished || mine
                let why =
                    FailureText.isConflict(error)
                    ? context.say(
                        "The item was changed on the server since its month was last fetched here, and the edit must not undo that",
                        ja: "この月を最後に取得してから項目がサーバーで変更されており、編集でそれを取り消してはいけません")
                    : context.say(
                        "The server no longer has \(PrintableText.of(item.id)) in \(item.date.yearMonth) (changed elsewhere?)",
                        ja: "サーバーの \(item.date.yearMonth) にはもう \(PrintableText.of(item.id)) がありません (別の場所で変更?)")
                let wanted =
                    if case let .update(_, changed, _) = edit.change {
                        ServerEdits.describe(changed, config, context)
                    } else { "" }
                let text =
                    context.describe(error) + "\n"
                    + context.say(
                        "\(why), so the change (to \(wanted)) was dropped, and the cached copy too: run `expense-log fetch "
                            + "\(item.date.yearMonth)` to see the month\(FailureText.isConflict(error) ? ", then edit again if the change is still wanted" : "").",
                        ja:
                            "\(why)。そのため変更 (\(wanted) へ) とキャッシュの写しは取り消しました。`expense-log fetch \(item.date.yearMonth)` で月を確かめて"
                            + (FailureText.isConflict(error) ? "、まだ必要ならもう一度編集してください。" : "ください。"))
                if mine {
                    context.io.stderr.write(context.say("Error", ja: "エラー") + ": \(text)\n")
                } else {
                    context.warn(text)
                }
            }
        }
        for failure in outcome.cacheFailures {
            context.warn(
                context.say("the cache could not follow the server's answer: ", ja: "キャッシュをサーバーの応答に合わせられません: ")
                    + context.describe(failure))
        }
        let waiting = "\(outcome.remaining) change\(outcome.remaining == 1 ? " waits" : "s wait") in \(directory)"
        let ownWaits =
            own.map { own in !outcome.delivered.contains { $0.edit.file == own.file } } == true
            ? " (this one among them)" : ""
        if let (answer, error) = outcome.unrecorded {
            let answered =
                if case .vanished = answer { "The server refused the change as one that can never apply" } else {
                    "The server made the change"
                }
            context.io.stderr.write(
                context.errorLine(error)
                    + "\(answered), but it could not be taken off the queue, so sending stopped there: "
                    + "\(waiting)\(ownWaits). Fix the cause and run `expense-log sync`, which sends "
                    + "\(PrintableText.of(answer.edit.file.lastPathComponent)) again (that is safe) before the rest.\n")
            throw CommandExit(code: .ioError)
        }
        if let (edit, error) = outcome.stop {
            let ids = edit.ids.map(PrintableText.of).joined(separator: " ")
            context.io.stderr.write(
                context.errorLine(error) + "\(waiting)\(ownWaits), the first one not confirmed; "
                    + (FailureText.isUnreachable(error)
                        ? "the server could not be reached, so it has not got it: `expense-log sync` "
                            + "sends them when it can.\n"
                        : FailureText.isTransient(error)
                            ? "it may have reached the server all the same, and sending it again is safe: "
                                + "`expense-log sync` sends them.\n"
                            : "fix the cause and run `expense-log sync`, or remove it with `expense-log pending drop \(ids)`.\n")
            )
            throw CommandExit(code: FailureText.isTransient(error) ? .temporaryFailure : ExitCode(for: error))
        }
        if let blocked {
            context.io.stderr.write(
                context.say("Error", ja: "エラー") + ": \(context.describeNotice(blocked)).\n"
                    + (own == nil ? "" : context.say("This change waits behind it.", ja: "この変更はその後ろで待ちます。") + "\n"))
            throw CommandExit(code: .ioError)
        }
        if vanished { throw CommandExit(code: .dataError) }
        if !outcome.cacheFailures.isEmpty { throw CommandExit(code: .ioError) }
    }
}
