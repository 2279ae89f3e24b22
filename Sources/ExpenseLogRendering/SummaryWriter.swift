import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogUseCases

/// The output formats of a summary.
public enum SummaryFormat: String, Sendable, CaseIterable {
    /// Aligned tables for people; a year adds a row per month with a bar chart.
    case table
    /// One JSON object with fixed key order.
    case json
    /// A row per month and category, for spreadsheets.
    case csv
    /// The chart alone, as SVG to embed elsewhere: a month's donut by category, or a year's bars by month.
    case svg
}

/// Renders a summary, naming categories from a catalogue in English or Japanese.
public struct SummaryWriter: Sendable {
    /// The catalogue naming the category numbers.
    public var catalogue: CategoryCatalogue
    /// Whether headings and names are Japanese.
    public var japanese: Bool
    /// The cells the largest month's bar fills.
    public var barWidth: Int

    /// A writer with a catalogue and a language.
    public init(catalogue: CategoryCatalogue = .standard, japanese: Bool = false, barWidth: Int = 40) {
        self.catalogue = catalogue
        self.japanese = japanese
        self.barWidth = barWidth
    }

    /// The whole output, ending in a newline.
    public func render(_ summary: Summary, as format: SummaryFormat) -> String {
        switch format {
        case .table:
            let tables = summary.month == nil ? yearTable(summary) : totalsTable(summary.totals, summary.grouping)
            return tables + (summary.budget.map { "\n" + budgetTable($0) } ?? "")
        case .json: return SummaryJSON(names: self).render(summary)
        case .csv: return csv(summary)
        case .svg: return ReportPage(catalogue: catalogue, japanese: japanese).chart(summary)
        }
    }

    /// The category's name, or `#7` when the catalogue lacks it.
    func categoryName(_ key: SummaryKey) -> String {
        catalogue.name(of: key.category, japanese: japanese)
    }

    /// The sub-category's name, `#7` when unknown, or nil for items with none.
    func subName(_ key: SummaryKey) -> String? {
        key.sub.map { catalogue.name(ofSub: $0, in: key.category, japanese: japanese) }
    }

    /// `42.5`, `-3.0`: a share in tenths of a percent with one decimal.
    static func share(_ tenths: Int128) -> String {
        (tenths < 0 ? "-" : "") + "\(tenths.magnitude / 10).\(tenths.magnitude % 10)"
    }

    /// A row per category (or sub-category), then the total under a rule.
    func totalsTable(_ totals: SummaryTotals, _ grouping: SummaryGrouping) -> String {
        let bySub = grouping == .sub
        let headings = japanese ? ["項目", "サブ項目", "件数", "金額", "割合"] : ["CATEGORY", "SUB", "COUNT", "TOTAL", "SHARE"]
        var rows = [bySub ? headings : headings.enumerated().filter { $0.offset != 1 }.map(\.element)]
        for line in totals.lines {
            let none = japanese ? "—" : "(none)"
            rows.append(
                [categoryName(line.key)] + (bySub ? [subName(line.key) ?? none] : [])
                    + [
                        String(line.count), PriceText.format(line.total),
                        line.shareTenths.map { Self.share($0) + "%" } ?? "",
                    ])
        }
        let whole = SummaryTotals.shareTenths(of: totals.total, in: totals.total).map { Self.share($0) + "%" } ?? ""
        rows.append(
            [japanese ? "合計" : "TOTAL"] + (bySub ? [""] : []) + [
                String(totals.count), PriceText.format(totals.total), whole,
            ])
        let first = bySub ? 2 : 1
        return TextTable(rows: rows, rightAligned: [first, first + 1, first + 2]).render(ruleBeforeLast: true)
    }

    /// A row per month with a bar, the year's total, then the year's totals per category.
    func yearTable(_ summary: Summary) -> String {
        let largest = summary.months.map(\.totals.total).max() ?? 0
        var rows = [japanese ? ["月", "件数", "金額", ""] : ["MONTH", "COUNT", "TOTAL", ""]]
        for month in summary.months {
            if month.isMissing {
                rows.append([month.month.description, "", "", japanese ? "（取得できず）" : "(missing)"])
                continue
            }
            rows.append([
                month.month.description, String(month.totals.count), PriceText.format(month.totals.total),
                TextBar.bar(month.totals.total, largest: largest, width: barWidth),
            ])
        }
        rows.append([
            japanese ? "合計" : "TOTAL", String(summary.totals.count), PriceText.format(summary.totals.total), "",
        ])
        return TextTable(rows: rows, rightAligned: [1, 2]).render(ruleBeforeLast: true) + "\n"
            + totalsTable(summary.totals, summary.grouping)
    }

    /// The name of what a budget is for, in the writer's language: the total, a category, or `category/sub`.
    func budgetName(_ key: BudgetKey) -> String {
        switch key {
        case .total: return japanese ? "合計" : "Total"
        case .category(let category): return catalogue.name(of: category, japanese: japanese)
        case .sub(let category, let sub):
            return catalogue.name(of: category, japanese: japanese) + "/"
                + catalogue.name(ofSub: sub, in: category, japanese: japanese)
        }
    }

    /// A row per budget: budget, spent, left, the share used, and a bar of 20 cells that the budget fills.
    func budgetTable(_ report: BudgetReport) -> String {
        let headings =
            japanese ? ["予算", "予算額", "使用", "残り", "使用率", ""] : ["BUDGET", "AMOUNT", "SPENT", "LEFT", "USED", ""]
        var rows = [headings]
        for line in report.lines {
            let bar = TextBar.bar(line.spent, largest: line.budget, width: 20)
            rows.append([
                budgetName(line.entry.key), PriceText.format(line.budget), PriceText.format(line.spent),
                PriceText.format(line.left), Self.share(line.usedTenths) + "%",
                bar + (line.isOver ? (japanese ? " 超過" : " over") : ""),
            ])
        }
        let period =
            report.months == 1 ? "" : (japanese ? "（月額 × \(report.months)か月）" : " (monthly × \(report.months) months)")
        return TextTable(rows: rows, rightAligned: [1, 2, 3, 4]).render()
            + (period.isEmpty ? "" : (japanese ? "予算" : "Budgets") + period + "\n")
    }

    /// `year,month,category,categoryName,sub,subName,count,total,share`: a row per month and category; missing months have none.
    func csv(_ summary: Summary) -> String {
        var out = "year,month,category,categoryName,sub,subName,count,total,share\n"
        for month in summary.months where !month.isMissing {
            for line in month.totals.lines {
                out +=
                    [
                        String(month.month.year), String(month.month.month), String(line.key.category),
                        CSV.field(categoryName(line.key)), line.key.sub.map(String.init) ?? "",
                        CSV.field(subName(line.key) ?? ""),
                        String(line.count), "\(line.total)", line.shareTenths.map(Self.share) ?? "",
                    ].joined(separator: ",") + "\n"
            }
        }
        return out
    }
}
