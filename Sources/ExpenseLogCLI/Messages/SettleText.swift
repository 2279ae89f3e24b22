import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogRendering

/// What `settle` prints: a row per person (paid, share, settled, balance) and who owes whom, or one JSON object.
struct SettleText {
    let context: Context
    let period: Period
    let bounds: (from: Day, to: Day)

    /// The settlement; `leftOut` names what it did not count (the household's items, the personal ones).
    func show(_ settled: SettleUp, format: ListingFormat, leftOut: (household: [Item], personal: [Item])) {
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
        func sum(_ items: [Item]) -> String { PriceText.yen(items.reduce(0) { $0 + $1.price }) }
        let left =
            (leftOut.household.isEmpty
                ? ""
                : context.say(
                    "; left out: \(sum(leftOut.household)) with no payer (\(leftOut.household.count))",
                    ja: "、支払者のない \(sum(leftOut.household)) (\(leftOut.household.count)件) を除く"))
            + (leftOut.personal.isEmpty
                ? ""
                : context.say(
                    (leftOut.household.isEmpty ? "; left out: " : " and ")
                        + "\(sum(leftOut.personal)) personal (\(leftOut.personal.count))",
                    ja: "、個人の \(sum(leftOut.personal)) (\(leftOut.personal.count)件) を除く"))
        let basis =
            context.say(
                "shared items \(PriceText.yen(settled.shared)) (\(settled.count)); split \(settled.sides[0].name) "
                    + "\(settled.ratio.first) : \(settled.sides[1].name) \(settled.ratio.second), shares rounded to the yen "
                    + "half away from zero",
                ja: "共有の項目 \(PriceText.yen(settled.shared)) (\(settled.count)件)、負担割合 \(settled.sides[0].name) "
                    + "\(settled.ratio.first) : \(settled.sides[1].name) \(settled.ratio.second)、円未満は四捨五入") + left
        if let owes = settled.owes {
            context.io.stdout.write(
                context.say(
                    "\(PrintableText.of(owes.from)) owes \(PrintableText.of(owes.to)) \(PriceText.yen(owes.amount)) (\(basis)).",
                    ja:
                        "\(PrintableText.of(owes.from))が\(PrintableText.of(owes.to))に\(PriceText.yen(owes.amount))を支払います (\(basis))。"
                )
                    + "\n")
        } else {
            context.io.stdout.write(
                context.say("Even: nobody owes anything, ¥0 (\(basis)).", ja: "精算済み: 支払いはありません、¥0 (\(basis))。") + "\n")
        }
    }

    /// The JSON of a period with nothing to settle: no people, nothing owed.
    func showNothing() {
        context.io.stdout.write(
            "{\"from\":\"\(bounds.from)\",\"to\":\"\(bounds.to)\",\"ratio\":null,\"shared\":0,\"count\":0,\"people\":[],"
                + "\"owes\":null}\n")
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
