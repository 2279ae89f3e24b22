import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogRendering

/// What `settle` prints: a row per person (paid, share, settled, balance) and who owes whom, or one JSON object.
struct SettleText {
    let context: Context
    let period: Period
    let bounds: (from: Day, to: Day)

    func show(_ settled: SettleUp, format: ListingFormat) {
        if format == .json {
            context.io.stdout.write(json(settled))
            return
        }
        let japanese = context.japanese
        let parts = settled.ratio.first + settled.ratio.second
        func percent(_ part: Int) -> String {
            parts == 0 ? "" : " (\(Int((Double(part) * 100 / Double(parts)).rounded()))%)"
        }
        var rows = [
            japanese
                ? ["名前", "支払った額", "負担額", "精算済み", "差額"]
                : ["PERSON", "PAID", "SHARE", "SETTLED", "BALANCE"]
        ]
        for (index, side) in settled.sides.enumerated() {
            rows.append([
                PrintableText.of(side.name), PriceText.format(side.paid),
                PriceText.format(side.share) + percent(index == 0 ? settled.ratio.first : settled.ratio.second),
                PriceText.format(side.settled), (side.balance > 0 ? "+" : "") + PriceText.format(side.balance),
            ])
        }
        context.title(period, .table)
        context.io.stdout.write(TextTable(rows: rows).render())
        let split = "\(settled.ratio.first):\(settled.ratio.second)"
        let basis = context.say(
            "shared items \(PriceText.yen(settled.shared)) (\(settled.count)); split \(split), shares rounded to the yen "
                + "half away from zero",
            ja: "共有の項目 \(PriceText.yen(settled.shared)) (\(settled.count)件)、負担割合 \(split)、円未満は四捨五入")
        if let owes = settled.owes {
            context.io.stdout.write(
                context.say(
                    "\(PrintableText.of(owes.from)) owes \(PrintableText.of(owes.to)) \(PriceText.yen(owes.amount)) (\(basis)).",
                    ja:
                        "\(PrintableText.of(owes.from)) が \(PrintableText.of(owes.to)) に \(PriceText.yen(owes.amount)) を支払います (\(basis))。"
                )
                    + "\n")
        } else {
            context.io.stdout.write(
                context.say("Even: nobody owes anything, ¥0 (\(basis)).", ja: "精算済み: 支払いはありません、¥0 (\(basis))。") + "\n")
        }
    }

    /// `{"from","to","ratio":[a,b],"shared","count","people":[…],"owes":{…}|null}`.
    func json(_ settled: SettleUp) -> String {
        let people = settled.sides.map { side in
            "{\"name\":\(ItemJSON.string(side.name)),\"paid\":\(side.paid),\"share\":\(side.share),"
                + "\"settled\":\(side.settled),\"balance\":\(side.balance)}"
        }
        let owes = settled.owes.map {
            "{\"from\":\(ItemJSON.string($0.from)),\"to\":\(ItemJSON.string($0.to)),\"amount\":\($0.amount)}"
        }
        return
            "{\"from\":\"\(bounds.from)\",\"to\":\"\(bounds.to)\",\"ratio\":[\(settled.ratio.first),\(settled.ratio.second)],"
            + "\"shared\":\(settled.shared),\"count\":\(settled.count),\"people\":[\(people.joined(separator: ","))],"
            + "\"owes\":\(owes ?? "null")}\n"
    }
}
