import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// `settle [PERIOD]`: who owes whom for the shared items of a period, and (`--record`) the settlement kept.
struct SettleCommand: ParsableCommand {
    @Opt(CommonOptions.from) var from: String?
    @Opt(CommonOptions.to) var to: String?
    @Opt(
        "ratio", "A:B",
        help: "How the shared items are split, the two people in the order of their names (default: the config's "
            + "ratio, else 50:50).")
    var ratio: String?
    @Opt("with", "name", help: "The other person, when only one of you paid shared items in the period.") var with:
        String?
    @Opt(CommonOptions.listingFormat) var format: ListingFormat?
    @Flg("record", help: "Keep the settlement on the server, so that settling the period again says ¥0.") var record:
        Bool
    @Arg(CommonOptions.period) var period: String?

    static let about = CommandAbout(
        name: "settle",
        abstract: "Say what each partner paid for shared items, what each should have paid, and who owes whom.",
        discussion: """
            An item is shared unless it is one person's own (add --personal); it counts for whoever paid it \
            (add --payer, or the config's payer). Items with no payer (the household's account, or the app's) are \
            left out. Each share is the shared total times its part of the split, rounded to the yen, half away from \
            zero; the second share is the rest, so the two add up to the total. Settlements recorded for the period \
            (--record, kept by the bundled script in the spreadsheet 家計簿_精算, never an item) count as paid, so \
            settling again says ¥0. Needs the bundled script (version 5): who paid is kept in its sheet. \
            docs/settle.md has a worked month.

            EXAMPLES:
              expense-log settle                      # this month
              expense-log settle 先月 --ratio 60:40
              expense-log settle 2027-01 --record     # keep it: settling January again says ¥0
              expense-log settle 2027 --format json
            """)

    func run(_ context: Context) async throws -> ExitCode {
        let config = try context.config()
        let period =
            try CommonOptions.range(
                from: from, to: to, context, otherPeriod: self.period != nil, now: context.now)
            ?? CommonOptions.period(self.period, year: nil, month: nil, context, now: context.now)
        let split = try Self.split(ratio, config, context)
        let ledger = try context.ledger()
        let link = try context.link()
        switch try await ledger.availability(of: "settle", link: link) {
        case .offered: break
        case .absent:
            context.io.stderr.write(
                context.say(
                    "Error: \(link.baseURL.host ?? "the server") does not keep who paid: settle needs the bundled "
                        + "script, version 5 or later (`expense-log server script`, docs/server.md says how to update).",
                    ja: "エラー: サーバーは支払者を保存しません。settle には同梱のスクリプト (バージョン5以降) が必要です "
                        + "(`expense-log server script`、更新の手順は docs/server.md)。") + "\n")
            throw CommandExit(code: .unavailable)
        case .unknown(let error): throw error
        }
        let read = try await context.readMonths(period.months, policy: .refresh, strict: false, withWaiting: true)
        try SummarySources.show(read.loaded, context, config, subject: "the settlement", verb: "counted") {}
        let bounds = context.span(of: period)
        let defaults = try Self.defaults(config, context)
        // A waiting item the server already has (its answer lost) is counted once.
        let items = read.loaded.map { $0.counting(read.waiting) }.flatMap(\.items).filter {
            $0.date >= bounds.from && $0.date <= bounds.to
        }.map(defaults.applied(to:))
        let (recorded, notices) = try await ledger.settlements(link: link)
        for notice in notices { context.warn(notice) }
        let within = recorded.filter { $0.from >= bounds.from && $0.to <= bounds.to }
        Self.noteOverlapping(recorded, within, bounds, split, context)
        let text = SettleText(context: context, period: period, bounds: bounds)
        guard let people = try Self.people(items, within, with: with, context) else {
            if format == .json { text.showNothing() }
            context.note(
                context.say(
                    "No shared item of \(period.title(japanese: false)) has a payer: nothing to settle (add --payer names one).",
                    ja: "\(period.title(japanese: true)) の共有の項目に支払者がありません。精算するものはありません (add --payer で指定します)。"))
            return .success
        }
        let settled = SettleUp(items: items, people: people, ratio: split, settlements: within)
        text.show(settled, format: format ?? .table, leftOut: Self.leftOut(items))
        guard record else { return .success }
        guard let owes = settled.owes else {
            context.note(context.say("Nothing to record: you are even.", ja: "記録するものはありません: 精算済みです。"))
            return .success
        }
        // Made from what it settles: both partners recording the same at once record it once.
        let basis =
            "settle \(bounds.from) \(bounds.to) \(owes.from) \(owes.to) \(owes.amount) "
            + within.map(\.id).sorted().joined(separator: " ")
        let settlement = Settlement(
            id: DerivedID.make(content: Array(basis.utf8), occurrence: 1), from: bounds.from, to: bounds.to,
            payer: owes.from, payee: owes.to,
            amount: owes.amount, ratio: split.description,
            recorded: ISO8601DateFormatter().string(from: Date()))
        _ = try await ledger.record(settlement, link: link)
        context.note(
            context.say(
                "Recorded: \(owes.from) pays \(owes.to) \(PriceText.yen(owes.amount)) for \(period.title(japanese: false)) "
                    + "(in 家計簿_精算); settling it again says ¥0.",
                ja: "記録しました: \(owes.from) が \(owes.to) に \(PriceText.yen(owes.amount)) を支払います "
                    + "(\(period.title(japanese: true))、家計簿_精算)。もう一度精算すると ¥0 です。"))
        return .success
    }

    /// The config's `payer.app` and `personal` categories, each checked against the catalogue (a name it lacks is a
    /// configuration error naming it).
    static func defaults(_ config: AppConfig, _ context: Context) throws -> ShareDefaults {
        let categories = try config.personalCategories.map { name in
            do {
                let (category, sub) = try config.catalogue.value.resolve(name)
                return ShareDefaults.Category(category: category, sub: sub)
            } catch {
                throw ConfigError.badConfigFile(
                    path: config.configFile.value,
                    reason: "'personal' names \(name), which is no category (`expense-log categories` lists them)")
            }
        }
        return ShareDefaults(appPayer: config.appPayer?.value, personal: categories)
    }

    /// `--ratio` (`60:40`, `６０：４０`, `60/40`, `60-40`: two whole numbers, not both 0), else the config's `ratio`,
    /// else 50:50.
    static func split(_ text: String?, _ config: AppConfig, _ context: Context) throws -> Split {
        guard let text else { return config.ratio?.value ?? .even }
        guard let split = Split(parsing: text) else {
            throw UsageError(
                path: context.invocation.path,
                message: "--ratio takes two whole numbers of 0 to 10000, not both 0, such as 60:40 (the two people "
                    + "in the order of their names), not '\(text)'")
        }
        return split
    }

    /// What settling left out, for the last line: the items no one paid (the household's) and the personal ones.
    static func leftOut(_ items: [Item]) -> (household: [Item], personal: [Item]) {
        (items.filter { $0.payer == nil }, items.filter { $0.personal && $0.payer != nil })
    }

    /// Says which settlements recorded for a longer period cover part of this one (a year's, asked for a month): they
    /// are not counted here, and settling that period counts them. Says too when one of this period's was made at
    /// another split (the partners' machines disagree).
    static func noteOverlapping(
        _ recorded: [Settlement], _ within: [Settlement], _ bounds: (from: Day, to: Day), _ split: Split,
        _ context: Context
    ) {
        for other in recorded where !within.contains(other) && other.from <= bounds.to && other.to >= bounds.from {
            context.warn(
                context.say(
                    "a settlement recorded for \(other.from) to \(other.to) (\(other.payer) paid \(other.payee) "
                        + "\(PriceText.yen(other.amount))) covers part of this period and is not counted here; settle "
                        + "that period to count it",
                    ja:
                        "\(other.from)〜\(other.to) の精算 (\(other.payer) が \(other.payee) に \(PriceText.yen(other.amount))) は"
                        + "この期間の一部にかかるため数えていません。その期間を精算すると数えます"))
        }
        for made in within where !made.ratio.isEmpty && made.ratio != split.description {
            context.warn(
                context.say(
                    "\(made.payer)'s settlement of \(PriceText.yen(made.amount)) was recorded at a split of \(made.ratio), "
                        + "and this is \(split.description): give --ratio \(made.ratio) (or set the same ratio on both "
                        + "machines) to settle as it was",
                    ja: "\(made.payer) の \(PriceText.yen(made.amount)) の精算は負担割合 \(made.ratio) で記録されています"
                        + " (今回は \(split.description))。同じにするには --ratio \(made.ratio)"))
        }
    }

    /// The two people in the order of their names (the split's order, the same on both partners' machines); nil when
    /// no shared item or settlement names anyone. More than two, or one without `--with`, is an error naming them.
    static func people(
        _ items: [Item], _ settlements: [Settlement], with other: String?, _ context: Context
    ) throws -> (String, String)? {
        var names = Set(items.filter { !$0.personal }.compactMap(\.payer))
        for settlement in settlements { names.formUnion([settlement.payer, settlement.payee]) }
        guard !names.isEmpty else { return nil }
        let named = other?.trimmingSpaces() ?? ""
        if !named.isEmpty {
            guard names.count == 1 || names.contains(named) else {
                throw UsageError(
                    path: context.invocation.path,
                    message: "the shared items already name \(names.sorted().joined(separator: " and ")): settle is "
                        + "between two people, so --with \(named) would make three")
            }
            names.insert(named)
        }
        let ordered = names.sorted()
        guard ordered.count == 2 else {
            throw UsageError(
                path: context.invocation.path,
                message: ordered.count == 1
                    ? "only \(ordered[0]) paid shared items in the period; name the other person with --with NAME"
                    : "settle splits between two people, and the shared items name \(ordered.joined(separator: ", "))")
        }
        return (ordered[0], ordered[1])
    }
}
