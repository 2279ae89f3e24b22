import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogRendering

/// `summary --by payer`: a row per person who paid and one for the household (no payer), as a table or one JSON object.
enum PayerTotalsText {
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
