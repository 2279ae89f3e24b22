import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// What `fetch` prints and says about the months it read, and the exit code they make.
struct FetchText {
    let context: Context
    let config: AppConfig
    /// `--ids`: each cached item's short id, shown first in the table (nil: no ids).
    var shortIDs: [String: String]?
    /// Whether the items still waiting in the outbox are shown with the month's (not with `--sent-only`).
    var showsWaiting = true
    /// The items of the months read still waiting to be registered, the changes queued for them laid over them.
    var waiting: [Item] = []
    /// The period asked for, named above the table on a terminal.
    var period: Period?
    /// The fixed costs the months read still expect (`recurring`), shown marked in a table (not in JSON, CSV or
    /// NDJSON, which `register` reads back: they are no items yet).
    var expected: [Item] = []

    /// The items, then those of `months` still waiting in the outbox (in date order), marked; prints them, then says how
    /// many wait. An item the cache shows (a queued edit of it is shown made) that still waits is marked too; one the
    /// server's answer (`fromServer`) has is the server's, even if its confirmation was lost.
    private func print(
        _ items: [Item], months: [YearMonth], fromServer: Bool, _ query: ItemQuery, _ format: OutputFormat
    ) {
        let shownMonths = Set(months)
        let outbox = waiting.filter { shownMonths.contains($0.date.yearMonth) }
        let answered = Set(items.map(\.id))
        let waitingIDs = Set(outbox.map(\.id)).subtracting(fromServer ? answered : [])
        let shown =
            showsWaiting
            ? items + outbox.filter { !answered.contains($0.id) }.sorted { $0.date < $1.date }
            : items.filter { !waitingIDs.contains($0.id) }
        let ids = shortIDs.map { known in
            outbox.isEmpty ? known : EditTargets.shortIDs(Array(known.keys) + outbox.map(\.id))
        }
        let expecting =
            showsWaiting && format == .table
            ? expected.filter { shownMonths.contains($0.date.yearMonth) } : []
        let printed = query.apply(expecting.isEmpty ? shown : (shown + expecting).sorted { $0.date < $1.date })
        if let period { context.title(period, format) }
        context.printItems(
            printed, format, config, shortIDs: ids, waiting: showsWaiting ? waitingIDs : [],
            expected: Set(expecting.map(\.id)))
        let expectedCount = printed.filter { item in expecting.contains { $0.id == item.id } }.count
        if expectedCount > 0 {
            context.note(
                context.say(
                    "\(expectedCount) fixed cost\(expectedCount == 1 ? "" : "s") shown as expected \(expectedCount == 1 ? "is" : "are") "
                        + "not yet registered; `expense-log recurring post` registers \(expectedCount == 1 ? "it" : "them") when due "
                        + "(--sent-only leaves them out).",
                    ja: "予定と表示した固定費\(expectedCount)件はまだ登録されていません。`expense-log recurring post` で期日に登録します "
                        + "(--sent-only で除けます)。"))
        }
        let count = showsWaiting ? printed.filter { waitingIDs.contains($0.id) }.count : 0
        if count > 0 {
            context.note(
                context.say(
                    "\(count) item\(count == 1 ? "" : "s") shown as waiting \(count == 1 ? "is" : "are") in the outbox, not yet on "
                        + "the server; `expense-log sync` sends \(count == 1 ? "it" : "them") (--sent-only leaves them out).",
                    ja: "未送信と表示した\(count)件はまだサーバーにありません。`expense-log sync` で送ります (--sent-only で除けます)。"))
        }
    }

    /// For a month neither the server nor the cache could give: the items of it still waiting in the outbox (added
    /// here while the server was away), said to be all that is known; nothing when none waits.
    private func printWaitingAlone(_ month: YearMonth, _ query: ItemQuery, _ format: OutputFormat) {
        guard showsWaiting, waiting.contains(where: { $0.date.yearMonth == month }) else { return }
        context.warn(
            context.say(
                "the server's items of \(month) are not known here; only the items waiting in the outbox are shown",
                ja: "\(month) のサーバー上の項目はここではわかりません。送信待ちの項目だけを表示します"))
        print([], months: [month], fromServer: false, query, format)
    }

    /// One month: its items as the query keeps them, and where they came from. Exits 69 when it is neither on the
    /// server nor cached (offline), 65 when rows were left out, 74 when it could not be cached; a failure the cache
    /// cannot stand in for is thrown.
    func month(
        _ loaded: LoadedMonth, _ query: ItemQuery, _ format: OutputFormat, edits: [QueuedEdit], offline: Bool
    ) throws {
        let month = loaded.month
        switch loaded.source {
        case .missing(.notCached) where offline:
            printWaitingAlone(month, query, format)
            context.io.stderr.write(
                context.say(
                    "Error: \(month) is not cached for the \(config.environment.value.rawValue) environment "
                        + "(\(config.cacheDirectory.path)). Run without --offline to fetch it.",
                    ja:
                        "エラー: \(month) は \(config.environment.value.rawValue) 環境のキャッシュ (\(config.cacheDirectory.path)) に"
                        + "ありません。--offline なしで実行すると取得します。") + "\n")
            throw CommandExit(code: .unavailable)
        case .missing(let failure):
            if let cacheFailure = loaded.cacheFailure {
                context.warn(
                    context.say("the cache cannot serve \(month) either: ", ja: "キャッシュも \(month) を出せません: ")
                        + context.describe(cacheFailure))
            }
            printWaitingAlone(month, query, format)
            throw failure
        case .cache(let fetchedAt, let complete):
            if let fallback = loaded.fallback {
                let when =
                    fetchedAt.map { "as fetched \(Age.text(of: $0)) (\(LocalTime.text($0)))" } ?? "from the cache"
                context.warn(
                    context.describe(fallback) + "\n"
                        + context.say(
                            "Showing \(month) \(when); run again when the server is back (or use --refresh to never fall back)",
                            ja: "\(month) をキャッシュから表示しています (\(fetchedAt.map { LocalTime.text($0) } ?? "取得日時不明") に取得)。"
                                + "サーバーが戻ったらもう一度実行してください (--refresh でキャッシュを使わない)"))
            }
            if !complete {
                context.warn(
                    context.say(
                        "\(month) was never fetched whole; only the items registered from here are shown",
                        ja: "\(month) は一度も全体を取得していません。ここから登録した項目だけを表示します"))
            }
            EditText.noteWaiting(edits, in: [month], context)
            print(loaded.items, months: [month], fromServer: false, query, format)
        case .server:
            if let rows = loaded.rows {
                context.warnRows(rows, of: month)
                context.reportLeftOut(rows.unreadable.count)
            }
            let answered = loaded.items + loaded.outside
            if loaded.emptied > 0 {
                context.warn(
                    context.say(
                        "the server answered no items for \(month), where the cache held \(loaded.emptied); if nobody deleted "
                            + "them, the year's spreadsheet may be in Drive's trash: `expense-log server check` tells",
                        ja: "キャッシュには\(loaded.emptied)件あった \(month) に、サーバーは項目を返しませんでした。誰も削除していなければ、"
                            + "その年のスプレッドシートがドライブのゴミ箱にあるかもしれません: `expense-log server check` で確かめられます"))
            }
            if !loaded.outside.isEmpty {
                context.warn(
                    context.say(
                        "\(loaded.outside.count) of the \(answered.count) items the server returned are dated outside "
                            + "\(month); they are printed but not cached (the cache of \(month) keeps only its own items)",
                        ja: "サーバーが返した\(answered.count)件のうち\(loaded.outside.count)件は \(month) の外の日付です。表示しますが"
                            + "キャッシュしません (\(month) のキャッシュにはその月の項目だけを置きます)"))
            }
            // The server's answer is printed whatever happens to the cache: a disk problem must not hide the data.
            EditText.noteWaiting(edits, in: [month], context)
            print(answered, months: [month], fromServer: true, query, format)
            if let cacheFailure = loaded.cacheFailure {
                context.warn(
                    context.say(
                        "\(month) was fetched and printed, but not cached: ", ja: "\(month) は取得して表示しましたがキャッシュできません: ")
                        + context.describe(cacheFailure)
                        + context.say(
                            " (exit status 74; --offline will not have it)", ja: " (終了コード74。--offline では使えません)"))
            }
            if !loaded.unreadable.isEmpty { throw CommandExit(code: .dataError) }
            if loaded.cacheFailure != nil { throw CommandExit(code: .ioError) }
        }
    }

    /// Several months (a year, a range): prints what the query keeps of every month that could be read, then says where
    /// they came from. Exits 69 when a month is missing, 65 when rows were left out, 74 when the cache could not be
    /// written; an error waiting cannot fix (401, 404, a page instead of JSON) stops it before printing.
    func months(_ loaded: [LoadedMonth], _ query: ItemQuery, _ format: OutputFormat) throws {
        try SummarySources.show(loaded, context, config, subject: "the output", verb: "printed") {
            print(loaded.flatMap(\.items), months: loaded.map(\.month), fromServer: false, query, format)
        }
    }
}
