import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// What `pending` says about the queued changes, and what `pending drop|clear` says it removed.
struct PendingText {
    let context: Context
    let config: AppConfig

    /// Lists the queued edits and deletions on stderr, one line each, oldest first.
    func edits(_ edits: [QueuedEdit], in directory: String) {
        guard !edits.isEmpty else { return }
        context.note(
            context.say(
                "\(edits.count) change\(edits.count == 1 ? "" : "s") to items \(edits.count == 1 ? "waits" : "wait") in \(directory), "
                    + "sent in this order by `expense-log sync` (a change of an item still in the outbox after it):",
                ja: "\(edits.count)件の変更が \(directory) で待っています。`expense-log sync` がこの順に送ります "
                    + "(送信待ちの項目の変更はその項目の後):"))
        for edit in edits {
            switch edit.change {
            case .delete(let items):
                for item in items {
                    context.note(
                        "  " + context.say("delete", ja: "削除") + " \(PrintableText.of(item.id)): \(describe(item))")
                }
            case let .update(item, changed, _):
                context.note(
                    "  " + context.say("edit", ja: "変更")
                        + " \(PrintableText.of(item.id)): \(describe(item)) → \(describe(changed))")
            }
        }
    }

    /// Says what was removed, what another run kept from removal, and what the server may have all the same.
    func dropped(_ dropped: DroppedWrites, all: Bool) {
        if dropped.edits == nil {
            context.warn(
                context.say(
                    "nothing was removed: another run (a sync, edit or delete) is sending the outbox; run pending again once it ends",
                    ja: "何も取り除いていません: 別の実行 (sync、edit、delete) が送信待ちと変更を送っています。終わったら pending をもう一度実行してください"))
        }
        for edit in dropped.edits ?? [] {
            let what: String, japaneseWhat: String
            switch edit.change {
            case .delete(let items):
                let listed = items.map { "\(PrintableText.of($0.id)) (\(describe($0)))" }.joined(separator: ", ")
                (what, japaneseWhat) = ("deletion of " + listed, listed + " の削除")
            case let .update(item, changed, _):
                (what, japaneseWhat) = (
                    "edit of \(PrintableText.of(item.id)) (to \(describe(changed)))",
                    "\(PrintableText.of(item.id)) の変更 (\(describe(changed)) へ)"
                )
            }
            let refresh = edit.months.map { "`expense-log fetch --refresh \($0)`" }
            context.note(
                context.say(
                    "Removed the queued \(what); the cache still shows it made, until "
                        + refresh.joined(separator: " and ")
                        + ", which shows what the server has (it made the change if an earlier send of it lost its answer).",
                    ja: "待っていた\(japaneseWhat)を取り除きました。キャッシュには変更後の姿が残ります。" + refresh.joined(separator: " と ")
                        + " でサーバーにあるものを表示します (以前の送信の応答が失われていれば、変更は行われています)。"))
        }
        for item in dropped.items {
            context.note(
                context.say("Removed ", ja: "取り除きました ")
                    + "\(PrintableText.of(item.id)): \(item.date) \(PrintableText.of(item.name)) \(PriceText.format(item.price))"
            )
        }
        let count = dropped.items.count
        if count > 0 || (all && dropped.edits?.isEmpty != false) {
            context.note(
                context.say(
                    "Removed \(count) item\(count == 1 ? "" : "s") from the outbox.", ja: "送信待ちから\(count)件を取り除きました。"))
        }
        let maybe = dropped.maybeOnServer
        if maybe > 0 {
            context.warn(
                context.say(
                    "\(maybe) of them \(maybe == 1 ? "was" : "were") in a batch whose POST got no "
                        + "answer: the server may have saved \(maybe == 1 ? "it" : "them") anyway; `expense-log fetch` shows what it has",
                    ja: "うち\(maybe)件は応答のなかった POST のバッチにあり、サーバーが保存しているかもしれません。`expense-log fetch` で確かめてください"))
        }
        let busy = dropped.busyEntries
        if busy > 0 {
            context.warn(
                context.say(
                    "\(busy) outbox entr\(busy == 1 ? "y was" : "ies were") left alone: another run is sending "
                        + "\(busy == 1 ? "it" : "them") (or sent \(busy == 1 ? "it" : "them") meanwhile); run pending again once it ends",
                    ja: "送信待ちの\(busy)件の記録はそのままです: 別の実行が送っています (またはその間に送りました)。終わったら pending をもう一度実行してください"))
        }
    }

    private func describe(_ item: Item) -> String {
        ServerEdits.describe(item, config, context)
    }
}

extension PendingText {
    /// The waiting ids the texts given to `pending drop` name: each whole id, or the one id a prefix of 4 or more
    /// characters names; a prefix of several is an error listing them (65, nothing removed). A text naming nothing is
    /// kept as given, for the removal to report.
    static func ids(named texts: [String], _ context: Context) throws -> [String] {
        let named = try context.ledger().waitingIDs(named: texts)
        return try texts.map { text in
            let ids = named[text] ?? []
            guard ids.count > 1 else { return ids.first ?? text }
            context.io.stderr.write(
                context.say(
                    "Error: \(ids.count) waiting ids start with \(PrintableText.of(text)); nothing was removed. Give more of the id:",
                    ja: "エラー: \(PrintableText.of(text)) で始まる送信待ちの ID が\(ids.count)件あります。何も取り除いていません。ID をもっと長く指定してください:")
                    + "\n" + ids.map { "  \(PrintableText.of($0))\n" }.joined())
            throw CommandExit(code: .dataError)
        }
    }
}
