import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// What `register` says on stderr while it reads and compares, and what it prints for a dry run.
struct RegisterText {
    let options: RegisterOptions
    let context: Context
    let progress: ProgressLine
    /// ` (the outbox's folder)`, for what an interruption leaves; read once, not at every batch.
    let outbox: String

    /// The messages of a run.
    init(options: RegisterOptions, context: Context, progress: ProgressLine) {
        (self.options, self.context, self.progress) = (options, context, progress)
        outbox = (try? context.config().journalDirectory.path).map { " (\($0))" } ?? ""
    }

    /// Shows what a registration meets as it goes: rows read, the inputs' problems, the comparison, the batches sent.
    func show(_ event: Registration.Event) {
        switch event {
        case .read(let rows): progress.show("Read \(PriceText.format(rows)) row\(rows == 1 ? "" : "s")")
        case .checked(let inputs): show(inputs)
        case .comparing(let event): show(event)
        case let .sending(.sent(index, batches, confirmed, rate), total):
            // The first and the last batch are always drawn, so even a quick run shows that sending began and ended.
            progress.show(
                "Sent \(index + 1)/\(batches) batches, \(PriceText.format(confirmed)) of \(PriceText.format(total)) "
                    + "items, \(PriceText.format(rate)) items/s", force: index == 0 || index == batches - 1)
            sayWaiting(total - confirmed, of: total)
        case let .sending(.queued, total): sayWaiting(total, of: total)
        }
    }

    /// What an interruption now leaves: the items queued and not confirmed, and that `sync` sends them.
    private func sayWaiting(_ waiting: Int, of total: Int) {
        context.io.interruption?.say(
            waiting == 0
                ? nil
                : "\(PriceText.format(waiting)) of \(PriceText.format(total)) items wait in the outbox"
                    + "\(outbox), queued and not confirmed sent; `expense-log sync` sends them (sending one again is safe)."
        )
    }

    /// Shows the inputs' warnings and problems: as errors when they stop the run or make it end with 65, as warnings
    /// under `--on-invalid warn`.
    private func show(_ inputs: ImportInputs) {
        if !inputs.detected.isEmpty { progress.clear() }
        for (input, profile, description) in inputs.detected {
            // A note, not a warning: the layout was recognised, and cron mails nothing for it.
            let layout = description.prefix { $0 != "(" }.trimmingSpaces()
            context.note(
                context.say(
                    "Read \(input) as a \(layout) (the built-in profile \(profile); --profile sets another).",
                    ja: "\(input) を\(layout)として読みました (組み込みのプロファイル \(profile)。--profile で変えられます)。"))
        }
        if options.explain, !inputs.categoryOrigins.isEmpty {
            progress.clear()
            for (location, origin, japanese) in inputs.categoryOrigins {
                context.io.stderr.write("\(location): \(context.japanese ? japanese ?? origin : origin)\n")
            }
        }
        if options.explain, !inputs.excluded.isEmpty {
            progress.clear()
            for row in inputs.excluded {
                let what =
                    row.isTransfer
                    ? context.say(
                        "a transfer, not sent (--transfers keep imports it)", ja: "振替のため送信せず (--transfers keep で取り込めます)"
                    )
                    : context.say("left out by the profile", ja: "プロファイルで除外")
                context.io.stderr.write("\(row.location): \(what): \(context.reason(row))\n")
            }
        }
        listDefaulted(inputs)
        if !inputs.warnings.isEmpty { progress.clear() }
        for warning in inputs.warnings.prefix(3) { context.warn(warning.text(japanese: context.japanese)) }
        if inputs.warnings.count > 3 {
            context.warn(
                context.say(
                    "\(inputs.warnings.count - 3) more rows like these", ja: "同様の行がほかに\(inputs.warnings.count - 3)行"))
        }
        guard !inputs.problems.isEmpty else { return }
        progress.clear()
        let wholeFiles = inputs.problems.contains(where: \.ofWholeFile)
        if options.onInvalid == .warn, !wholeFiles {
            for problem in inputs.problems { context.warn(problem.text(japanese: context.japanese)) }
            return
        }
        for problem in inputs.problems { context.io.stderr.write(problem.text(japanese: context.japanese) + "\n") }
        if wholeFiles, options.onInvalid != .stop {
            let files = Set(inputs.problems.filter(\.ofWholeFile).map(\.location.file)).sorted()
            context.warn(
                context.say(
                    "\(files.joined(separator: ", ")) could not be read at all: none of \(files.count == 1 ? "its" : "their") rows "
                        + "is sent, and the run exits 65; the valid rows of the other inputs are sent",
                    ja: "\(files.joined(separator: "、")) をまったく読めません。その行は送らず終了コードは65です。ほかの入力の有効な行は送ります"))
        }
    }

    /// The shops whose rows took the profile's default category, since no rule or history names theirs: a new shop
    /// (東京電力, ENEOS) silently counted as food would make the month's budget wrong.
    private func listDefaulted(_ inputs: ImportInputs) {
        guard let first = inputs.defaultedShops.first else { return }
        progress.clear()
        let catalogue = (try? context.config().catalogue.value) ?? .standard
        let name = catalogue.name(of: first.item.category, japanese: context.japanese)
        let rows = inputs.defaultedRows, shops = inputs.defaultedShops.count
        var text =
            context.say(
                "\(rows) row\(rows == 1 ? "" : "s") of \(shops) shop\(shops == 1 ? "" : "s") took the default category \(name), "
                    + "as no rule or history gives \(shops == 1 ? "the shop" : "these shops") one:",
                ja: "\(shops)店の\(rows)行が既定の項目「\(name)」になりました (規則も履歴もない店です):") + "\n"
        for shop in inputs.defaultedShops.prefix(20) {
            text +=
                "  \(shop.first): \(PrintableText.of(shop.shop)) \(PriceText.yen(shop.item.price))"
                + (shop.rows > 1
                    ? context.say(
                        " (and \(shop.rows - 1) more row\(shop.rows == 2 ? "" : "s"))", ja: " (ほか\(shop.rows - 1)行)")
                    : "") + "\n"
        }
        if shops > 20 { text += context.say("  … and \(shops - 20) more shops", ja: "  … ほか\(shops - 20)店") + "\n" }
        context.io.stderr.write(
            text
                + context.say(
                    "`expense-log rule add SHOP CATEGORY` gives a shop its category in every later import "
                        + "(`expense-log rule add SHOP transfer` leaves its rows out); `expense-log edit` changes items already sent.",
                    ja: "`expense-log rule add 店 項目` で以後の取り込みでの店の項目を決められます (`expense-log rule add 店 transfer` "
                        + "で振替として除外)。送信済みの項目は `expense-log edit` で変更します。") + "\n")
    }

    /// Shows what the duplicate check meets as it goes: progress while the months are read, then warnings.
    private func show(_ event: DuplicateCheckEvent) {
        switch event {
        case .comparing(let months):
            progress.show("Comparing with \(months) month\(months == 1 ? "" : "s") on the server", force: true)
        case .compared: progress.clear()
        case let .rows(rows, month): context.warnRows(rows, of: month)
        case let .notCompared(month, failure):
            let why =
                failure.map(context.describe)
                ?? context.say("it is not cached, and the server is not used", ja: "キャッシュになく、サーバーも使いません")
            context.warn(
                context.say(
                    "could not compare with \(month) on the server (\(why)), nor with a cached copy; its rows were "
                        + "compared with the outbox only (sync still skips ids the server has)",
                    ja: "サーバーの \(month) とも、そのキャッシュとも比べられません (\(why))。その行は送信待ちとだけ比べました "
                        + "(sync はサーバーにある ID を送りません)"))
        case let .comparedWithCache(month, failure):
            context.warn(
                context.say(
                    "compared with the cached copy of \(month), because the server failed: ",
                    ja: "サーバーが失敗したため、\(month) のキャッシュと比べました: ") + context.describe(failure))
        case .cacheFailure(let failure):
            context.warn(
                context.say("the cache could not be updated: ", ja: "キャッシュを更新できません: ") + context.describe(failure))
        case .outboxProblem(let problem): context.warn(context.describeNotice(problem))
        }
    }

    /// `--explain`: each skipped row and the item it matched; without it, one line saying how to see them. Then the
    /// rows held back for a person, always.
    func explain(_ skipped: [ImportRecord.Row], held: [ImportRecord.Row], review: HeldRowsText) {
        defer { review.list(held) }
        guard !skipped.isEmpty else { return }
        guard options.explain else {
            let matched = skipped.filter { $0.status == .matched }.count,
                decided = skipped.filter { $0.status == .skipped }.count
            let there = skipped.count - decided
            let english =
                (there == 0
                    ? ""
                    : "Skipped \(there) row\(there == 1 ? "" : "s") already there"
                        + (matched == 0 ? "" : " (\(matched) matched to items entered another way)"))
                + (decided == 0
                    ? ""
                    : (there == 0 ? "Left out" : ", and left out")
                        + " \(decided) row\(decided == 1 ? "" : "s") as decided before")
                + (options.hasExplain ? "; --explain says what each matched." : ".")
            let japanese =
                (there == 0 ? "" : "登録済みの\(there)行を飛ばしました" + (matched == 0 ? "" : " (うち\(matched)行は別に入力された項目と一致)"))
                + (decided == 0 ? "" : (there == 0 ? "" : "。") + "決定どおり\(decided)行を除外しました")
                + (options.hasExplain ? "。--explain でそれぞれの理由を表示します。" : "。")
            context.note(context.say(english, ja: japanese))
            return
        }
        for row in skipped {
            let what =
                switch row.status {
                case .matched: context.say("matched, not sent", ja: "一致したため送信せず")
                case .skipped: context.say("skipped as decided", ja: "決定どおり除外")
                default: context.say("skipped, already there", ja: "登録済みのため送信せず")
                }
            let reasons = context.japanese && !row.japaneseReasons.isEmpty ? row.japaneseReasons : row.reasons
            context.io.stderr.write(
                "\(row.location): \(what): \(reasons.joined(separator: context.say("; ", ja: "。")))\n")
        }
    }

    /// A dry run: prints what it would send, and in how many batches.
    func dryRun(_ items: some ItemRecords, _ config: AppConfig) throws {
        let batches = try options.limit.batchCount(items)
        context.printItems(items, options.format, config)
        context.note(
            context.say(
                "Dry run: \(items.count) item\(items.count == 1 ? "" : "s") would be sent in \(batches) "
                    + "batch\(batches == 1 ? "" : "es") to the \(config.environment.value.rawValue) environment; nothing was sent.",
                ja: "試行: \(items.count)件を\(batches)バッチで \(config.environment.value.rawValue) 環境に送るところです。何も送信していません。"))
    }
}
