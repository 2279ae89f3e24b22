import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// A month's or a year's spending as one self-contained HTML page: inline SVG charts drawn here, an inline stylesheet,
/// no script and nothing from the network, so it opens offline, prints on A4 and reads on a phone.
public struct ReportPage: Sendable {
    /// Names and colours categories.
    public let catalogue: CategoryCatalogue
    /// Whether words and month names are Japanese.
    public let japanese: Bool
    /// The short form of each item's id (`fetch --ids`), shown first in a month's item table so an item can be edited.
    public var shortIDs: [String: String] = [:]
    /// The items still waiting in the outbox, marked as such in the item table.
    public var waitingIDs: Set<String> = []
    /// The fixed costs the month still expects (`recurring`): drawn apart in its item table, never counted.
    public var expected: [Item] = []
    /// What each person paid (`settle`'s payers), drawn as a table when any item names one.
    public var payers: PayerTotals?

    /// A page in a language over a catalogue.
    public init(catalogue: CategoryCatalogue, japanese: Bool) {
        (self.catalogue, self.japanese) = (catalogue, japanese)
    }

    /// The page of a summary (a month, or a year when `summary.month` is nil) and the months it was made of.
    public func render(_ summary: Summary, loaded: [LoadedMonth]) -> String {
        let month = summary.month.flatMap { YearMonth(year: summary.year, month: $0) }
        let heading = month.map(monthTitle) ?? (japanese ? "\(summary.year)年" : "\(summary.year)")
        var body = "<h1>\(word("家計簿", "Expenses")) \(SVGChart.escaped(heading))</h1>\n"
        body +=
            "<p class=\"total\">\(word("合計", "Total")) <strong>\(PriceText.yen(summary.totals.total))</strong> "
            + "(\(summary.totals.count)\(word("件", summary.totals.count == 1 ? " item" : " items")))</p>\n"
        if !expected.isEmpty {
            body +=
                "<p class=\"expected\">\(word("予定の固定費 (未登録、合計に含みません)", "Fixed costs expected, not yet registered (not in the total)")) "
                + "\(PriceText.yen(expected.reduce(0) { $0 + $1.price })) "
                + "(\(expected.count)\(word("件", expected.count == 1 ? " item" : " items")))</p>\n"
        }
        body += sources(summary)
        body += "<section class=\"charts\">\n"
        if month != nil {
            let categories = categoryParts(summary.totals)
            body += "<figure>\(categoryDonut(summary, legend: false))\(caption(categories))</figure>\n"
            let subs = subParts(loaded)
            body += "<figure>\(subDonut(subs, heading: heading))\(caption(subs.filter { $0.value != 0 }))</figure>\n"
        } else {
            // A phone scrolls the year's bars sideways rather than shrinking their words past reading.
            body += "<figure class=\"wide\"><div class=\"scroll\">\(yearBars(summary))</div></figure>\n"
        }
        if let budget = summary.budget {
            body +=
                "<figure class=\"wide\"><figcaption>\(word("予算", "Budgets"))</figcaption>\(budgetChart(budget))</figure>\n"
        }
        body += "</section>\n"
        body += totalsTable(summary)
        if let payers, payers.lines.contains(where: { $0.payer != nil }) { body += payerTable(payers) }
        if month != nil {
            body += itemsTable(loaded.flatMap(\.items))
        } else {
            body += monthsTable(summary)
        }
        return """
            <!DOCTYPE html>
            <html lang="\(japanese ? "ja" : "en")">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(word("家計簿", "Expenses")) \(SVGChart.escaped(heading))</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <main>
            \(body)</main>
            </body>
            </html>

            """
    }

    /// The chart `summary --format svg` prints: a month's category donut, or a year's bars.
    public func chart(_ summary: Summary) -> String {
        (summary.month == nil ? yearBars(summary) : categoryDonut(summary)) + "\n"
    }

    // MARK: - Charts

    func categoryDonut(_ summary: Summary, legend: Bool = true) -> String {
        let parts = categoryParts(summary.totals)
        return SVGChart.donut(
            title: word("項目別の支出", "Spending by category") + " " + period(summary),
            description: describe(parts, whole: summary.totals.total), parts: parts,
            centre: PriceText.yen(summary.totals.total), legend: legend)
    }

    func subDonut(_ parts: [ChartPart], heading: String) -> String {
        let whole = parts.reduce(Int128(0)) { $0 + $1.value }
        return SVGChart.donut(
            title: word("サブ項目別の支出", "Spending by sub-category") + " " + heading,
            description: describe(parts, whole: whole), parts: parts, centre: PriceText.yen(whole), legend: false)
    }

    /// A part per category and sub-category, each sub in its category's colour lightened by its place.
    func subParts(_ loaded: [LoadedMonth]) -> [ChartPart] {
        categoryParts(SummaryTotals(items: loaded.flatMap(\.items), grouping: .sub, catalogue: catalogue))
    }

    /// A part per line: a category in its colour, or (totals by sub-category) a category/sub in its category's colour
    /// lightened by its place.
    func categoryParts(_ totals: SummaryTotals) -> [ChartPart] {
        var places: [Int: Int] = [:]
        return totals.lines.map { line -> ChartPart in
            guard
                totals.lines.contains(where: { $0.key.category == line.key.category && $0 != line })
                    || line.key.sub != nil
            else {
                return ChartPart(
                    label: catalogue.name(of: line.key.category, japanese: japanese), value: line.total,
                    colour: ChartPalette.colour(ofCategory: line.key.category, in: catalogue))
            }
            let place = places[line.key.category, default: 0]
            places[line.key.category] = place + 1
            let sub =
                line.key.sub.map { catalogue.name(ofSub: $0, in: line.key.category, japanese: japanese) }
                ?? word("なし", "none")
            return ChartPart(
                label: catalogue.name(of: line.key.category, japanese: japanese) + "/" + sub, value: line.total,
                colour: ChartPalette.colour(ofSub: place, inCategory: line.key.category, in: catalogue))
        }
    }

    /// A chart's legend under it, in HTML so that it wraps on a phone.
    func caption(_ parts: [ChartPart]) -> String {
        "<figcaption><ul class=\"legend\">"
            + parts.map { part in
                "<li><span class=\"swatch\" style=\"background:\(part.colour)\"></span>\(SVGChart.escaped(part.label)) \(PriceText.yen(part.value))</li>"
            }.joined() + "</ul></figcaption>"
    }

    func yearBars(_ summary: Summary) -> String {
        let bars = summary.months.map { month in
            ChartBar(
                label: japanese ? "\(month.month.month)月" : Self.englishMonths[month.month.month - 1],
                parts: month.isMissing ? [] : categoryParts(month.totals),
                total: month.isMissing ? nil : month.totals.total)
        }
        let monthly = summary.budget?.lines.first { $0.entry.key == .total }.map { $0.entry.monthly }
        let description = summary.months.map { month in
            "\(month.month): " + (month.isMissing ? word("取得できず", "missing") : PriceText.yen(month.totals.total))
        }.joined(separator: "; ")
        return SVGChart.stackedBars(
            title: word("月別・項目別の支出", "Spending per month by category") + " \(period(summary))",
            description: description, bars: bars, legend: categoryParts(summary.totals),
            budget: monthly.map { (Int128($0), word("月の予算", "monthly budget") + " ¥" + PriceText.format($0)) })
    }

    func budgetChart(_ report: BudgetReport) -> String {
        let names = SummaryWriter(catalogue: catalogue, japanese: japanese)
        let lines = report.lines.map {
            line -> (label: String, spent: Int128, budget: Int128, colour: String, used: String, over: String?) in
            let colour: String
            switch line.entry.key {
            case .total: colour = "#666666"
            case .category(let category): colour = ChartPalette.colour(ofCategory: category, in: catalogue)
            case .sub(let category, _): colour = ChartPalette.colour(ofCategory: category, in: catalogue)
            }
            return (
                names.budgetName(line.entry.key), line.spent, line.budget, colour,
                SummaryWriter.share(line.usedTenths) + "%",
                line.isOver ? word("超過", "over") : nil
            )
        }
        let description = report.lines.map { line in
            "\(names.budgetName(line.entry.key)): \(PriceText.yen(line.spent)) / \(PriceText.yen(line.budget))"
                + (line.isOver ? word("（超過）", " (over)") : "")
        }.joined(separator: "; ")
        return SVGChart.budgetBars(
            title: word("予算と支出", "Spending against budgets"), description: description, lines: lines)
    }

    // MARK: - Tables and words

    func totalsTable(_ summary: Summary) -> String {
        var out =
            "<table class=\"totals\"><thead><tr><th></th><th>\(word("項目", "Category"))</th><th class=\"n\">\(word("件数", "Count"))</th>"
            + "<th class=\"n\">\(word("金額", "Total"))</th><th class=\"n\">\(word("割合", "Share"))</th></tr></thead><tbody>\n"
        for line in summary.totals.lines {
            out +=
                "<tr><td><span class=\"swatch\" style=\"background:\(ChartPalette.colour(ofCategory: line.key.category, in: catalogue))\"></span></td>"
                + "<td>\(SVGChart.escaped(catalogue.name(of: line.key.category, japanese: japanese)))</td><td class=\"n\">\(line.count)</td>"
                + "<td class=\"n\">\(PriceText.yen(line.total))</td><td class=\"n\">\(line.shareTenths.map { SummaryWriter.share($0) + "%" } ?? "")</td></tr>\n"
        }
        return out
            + "</tbody><tfoot><tr><td></td><td>\(word("合計", "Total"))</td><td class=\"n\">\(summary.totals.count)</td>"
            + "<td class=\"n\">\(PriceText.yen(summary.totals.total))</td><td></td></tr></tfoot></table>\n"
    }

    func itemsTable(_ items: [Item]) -> String {
        let ids = !shortIDs.isEmpty
        var out =
            "<h2>\(word("明細", "Items"))</h2>\n<table class=\"items\"><thead><tr>" + (ids ? "<th>ID</th>" : "")
            + "<th>\(word("日付", "Date"))</th>"
            + "<th>\(word("品名", "Name"))</th><th>\(word("項目", "Category"))</th><th class=\"n\">\(word("金額", "Price"))</th></tr></thead><tbody>\n"
        let expectedIDs = Set(expected.map(\.id))
        for item in (items + expected).sorted(by: { ($0.date, $0.name) < ($1.date, $1.name) }) {
            let isExpected = expectedIDs.contains(item.id)
            let sub = catalogue.name(ofSub: item.categorySub, in: item.category, japanese: japanese)
            let waiting =
                isExpected
                ? " <span class=\"expected\">◇\(word("予定", "expected"))</span>"
                : waitingIDs.contains(item.id) ? " <span class=\"waiting\">⧗\(word("送信待ち", "waiting"))</span>" : ""
            out +=
                (isExpected ? "<tr class=\"expected\">" : "<tr>")
                + (ids
                    ? "<td class=\"id\">\(SVGChart.escaped(isExpected ? "" : shortIDs[item.id] ?? item.id))</td>" : "")
                + "<td class=\"d\">\(item.date)</td><td>\(SVGChart.escaped(item.name))\(waiting)</td>"
                + "<td>\(SVGChart.escaped(catalogue.name(of: item.category, japanese: japanese) + (sub.isEmpty ? "" : "/" + sub)))</td>"
                + "<td class=\"n\">\(PriceText.yen(item.price))</td></tr>\n"
        }
        return out + "</tbody></table>\n"
    }

    /// A row per person who paid, and the household's: count, total and the personal part.
    func payerTable(_ payers: PayerTotals) -> String {
        var out =
            "<h2>\(word("支払者別", "By payer"))</h2>\n<table class=\"totals\"><thead><tr><th>\(word("支払者", "Payer"))</th>"
            + "<th class=\"n\">\(word("件数", "Items"))</th><th class=\"n\">\(word("合計", "Total"))</th>"
            + "<th class=\"n\">\(word("うち個人", "Personal"))</th></tr></thead><tbody>\n"
        for line in payers.lines {
            out +=
                "<tr><td>\(SVGChart.escaped(line.payer ?? word("(家計)", "(household)")))</td><td class=\"n\">\(line.count)</td>"
                + "<td class=\"n\">\(PriceText.yen(line.total))</td><td class=\"n\">\(PriceText.yen(line.personal))</td></tr>\n"
        }
        return out + "</tbody></table>\n"
    }

    func monthsTable(_ summary: Summary) -> String {
        let categories = summary.totals.lines
        var out =
            "<h2>\(word("月別", "By month"))</h2>\n<div class=\"scroll\"><table class=\"months\"><thead><tr><th>\(word("月", "Month"))</th>"
        for line in categories {
            out += "<th class=\"n\">\(SVGChart.escaped(catalogue.name(of: line.key.category, japanese: japanese)))</th>"
        }
        out += "<th class=\"n\">\(word("合計", "Total"))</th></tr></thead><tbody>\n"
        for month in summary.months {
            out += "<tr><td class=\"d\">\(month.month)</td>"
            for line in categories {
                let total = month.totals.lines.first { $0.key == line.key }?.total ?? 0
                out += "<td class=\"n\">\(month.isMissing ? "–" : PriceText.yen(total))</td>"
            }
            out += "<td class=\"n\">\(month.isMissing ? "–" : PriceText.yen(month.totals.total))</td></tr>\n"
        }
        out += "</tbody><tfoot><tr><td>\(word("合計", "Total"))</td>"
        for line in categories { out += "<td class=\"n\">\(PriceText.yen(line.total))</td>" }
        return out + "<td class=\"n\">\(PriceText.yen(summary.totals.total))</td></tr></tfoot></table></div>\n"
    }

    /// Which months came from the cache (and when they were fetched) or could not be had at all.
    func sources(_ summary: Summary) -> String {
        var notes: [String] = []
        for month in summary.months {
            switch month.source {
            case .server: continue
            case let .cache(fetchedAt, complete):
                let from =
                    fetchedAt.map { when in
                        word(
                            "キャッシュ（\(LocalTime.text(when)) 取得）",
                            "from the cache, as fetched \(LocalTime.text(when))")
                    } ?? word("キャッシュ（サーバーから取得したことはない）", "from the cache, never fetched from the server")
                notes.append(
                    "\(month.month): " + from
                        + (complete ? "" : word("、ここで登録した分のみ", ", only the items registered from here")))
            case .missing:
                notes.append("\(month.month): " + word("取得できず（集計に含まれません）", "could not be loaded (not counted)"))
            }
        }
        guard !notes.isEmpty else { return "" }
        return "<ul class=\"sources\">" + notes.map { "<li>\(SVGChart.escaped($0))</li>" }.joined() + "</ul>\n"
    }

    func describe(_ parts: [ChartPart], whole: Int128) -> String {
        parts.map { part in
            "\(part.label) \(PriceText.yen(part.value))"
                + (SummaryTotals.shareTenths(of: part.value, in: whole).map { " (\(SummaryWriter.share($0))%)" } ?? "")
        }.joined(separator: "; ")
    }

    func period(_ summary: Summary) -> String {
        if case .days = summary.period { return summary.period.title(japanese: japanese) }
        return summary.month.flatMap { YearMonth(year: summary.year, month: $0) }.map(monthTitle) ?? "\(summary.year)"
    }

    func monthTitle(_ month: YearMonth) -> String {
        japanese ? "\(month.year)年\(month.month)月" : "\(Self.englishMonths[month.month - 1]) \(month.year)"
    }

    func word(_ ja: String, _ en: String) -> String { japanese ? ja : en }

    static let englishMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Fonts the system has (none is fetched), a layout that wraps on a phone, and A4 pages when printed.
    static let style = """
        body{margin:0;font-family:system-ui,-apple-system,"Hiragino Sans","Noto Sans CJK JP","IPAGothic",sans-serif;color:#222;background:#fff}
        main{max-width:980px;margin:0 auto;padding:16px}
        h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
        .charts{display:flex;flex-wrap:wrap;gap:16px}
        figure{margin:0;flex:1 1 420px;min-width:0}figure.wide{flex-basis:100%}
        svg{display:block;width:100%;height:auto}
        table{border-collapse:collapse;width:100%;margin:.5rem 0}
        th,td{padding:4px 8px;border-bottom:1px solid #ddd;text-align:left;overflow-wrap:break-word}
        .n{text-align:right;white-space:nowrap}
        .id{font-family:ui-monospace,monospace;color:#555555}.waiting{color:#8A5A00;white-space:nowrap}.expected{color:#555555;font-style:italic}tr.expected td{border-top:1px dashed #999999}
        tfoot td{font-weight:bold;border-top:2px solid #333}
        .swatch{display:inline-block;width:12px;height:12px;margin-right:6px;vertical-align:-1px}
        .legend{list-style:none;padding:0;margin:.25rem 0;display:flex;flex-wrap:wrap;gap:4px 14px;font-size:.9rem}
        figcaption{font-size:.95rem}.d{white-space:nowrap}
        figure:not(.wide) svg{max-width:320px;margin:0 auto}
        svg.budget{max-width:640px}
        .scroll{overflow-x:auto}
        .scroll svg.bars{min-width:600px}
        .swatch,svg{print-color-adjust:exact;-webkit-print-color-adjust:exact}
        .sources{color:#8a4b00}
        @media print{@page{size:A4;margin:12mm}main{max-width:none;padding:0}figure{break-inside:avoid}tr{break-inside:avoid}
        .scroll{overflow:visible}.scroll svg.bars{min-width:0}table.months{font-size:.75rem}}
        """
}
