import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases

/// `summary --by payer`: a row per person who paid and one for the household (no payer), as a table or one JSON object.
enum PayerTotalsText {
    /// `summary --by payer` of the months read: the configuration's defaults applied (`payer.app`, `personal`), then
    /// where the months came from and what is missing, as `summary` says it.
    static func summary(
        _ loaded: [LoadedMonth], period: Period, json: Bool, _ config: AppConfig, _ context: Context
    ) throws {
        let bounds = context.span(of: period)
        let defaults = try SettleCommand.defaults(config, context)
        try SummarySources.show(loaded, context, config, subject: "the summary", verb: "counted") {
            let items = loaded.flatMap(\.items).filter { $0.date >= bounds.from && $0.date <= bounds.to }
            show(PayerTotals(items: items.map(defaults.applied(to:))), bounds: bounds, json: json, context)
        }
    }

    /// The totals as a table (a row per payer, the household last, then the total) or one JSON object.
    static func show(_ totals: PayerTotals, bounds: (from: Day, to: Day), json: Bool, _ context: Context) {
        let household = context.say("(household)", ja: "(家計)")
        guard !json else {
            let lines = totals.lines.map { line in
                "{\"payer\":\(line.payer.map(ItemJSON.string) ?? "null"),\"count\":\(line.count),\"total\":\(line.total),"
                    + "\"personal\":\(line.personal)}"
            }
            context.io.stdout.write(
                "{\"from\":\"\(bounds.from)\",\"to\":\"\(bounds.to)\",\"by\":\"payer\",\"total\":\(totals.total),"
                    + "\"payers\":[\(lines.joined(separator: ","))]}\n")
            return
        }
        var rows = [
            context.japanese ? ["支払者", "件数", "合計", "うち個人"] : ["PAYER", "COUNT", "TOTAL", "PERSONAL"]
        ]
        for line in totals.lines {
            rows.append([
                line.payer.map(PrintableText.of) ?? household, String(line.count), PriceText.format(line.total),
                PriceText.format(line.personal),
            ])
        }
        rows.append([
            context.say("TOTAL", ja: "合計"), String(totals.lines.reduce(0) { $0 + $1.count }),
            PriceText.format(totals.total), PriceText.format(totals.lines.reduce(0) { $0 + $1.personal }),
        ])
        context.io.stdout.write(TextTable(rows: rows).render())
    }
}
