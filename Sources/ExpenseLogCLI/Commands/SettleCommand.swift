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
            recorded: Date().formatted(Date.ISO8601FormatStyle()))
        _ = try await ledger.record(settlement, link: link)
        context.note(
            context.say(
                "Recorded: \(owes.from) pays \(owes.to) \(PriceText.yen(owes.amount)) for \(period.title(japanese: false)) "
                    + "(in 家計簿_精算); settling it again says ¥0.",
                ja: "記録しました: \(owes.from) が \(owes.to) に \(PriceText.yen(owes.amount)) を支払います "
                    + "(\(period.title(japanese: true))、家計簿_精算)。もう一度精算すると ¥0 です。"))
        return .success
    }

}
