import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// A summary as one JSON object, written by hand so the keys keep the order docs/summary.md shows.
///
/// `{"year","month","from","to","by","count","total","categories":[…],"months":[…] (a year or a range),"sources":[…]}`.
struct SummaryJSON {
    /// Names categories in the writer's catalogue and language.
    let names: SummaryWriter

    func render(_ summary: Summary) -> String {
        var out = "{\"year\":\(summary.year),\"month\":\(summary.month.map(String.init) ?? "null"),"
        // The period itself, so a document read later (a cron mail, a file) says what it covers, a range included.
        let first = summary.period.months.first?.firstDay, last = summary.period.months.last?.lastDay
        let (from, to) = summary.period.dayBounds ?? (first ?? Day.today(), last ?? Day.today())
        out += "\"from\":\"\(from)\",\"to\":\"\(to)\","
        out += "\"by\":\"\(summary.grouping.rawValue)\","
        append(summary.totals, to: &out)
        if summary.month == nil {
            out += ",\"months\":["
            for (index, month) in summary.months.enumerated() {
                out += (index > 0 ? ",\n  " : "\n  ") + "{\"year\":\(month.month.year),\"month\":\(month.month.month),"
                // A missing month's numbers are unknown, not zero.
                if month.isMissing {
                    out += "\"count\":null,\"total\":null,\"categories\":null}"
                } else {
                    append(month.totals, to: &out)
                    out += "}"
                }
            }
            out += "\n]"
        }
        if let budget = summary.budget { out += ",\"budget\":" + self.budget(budget) }
        out += ",\"sources\":["
        for (index, month) in summary.months.enumerated() {
            out += (index > 0 ? ",\n  " : "\n  ") + source(month)
        }
        return out + "\n]}\n"
    }

    /// `"count":…,"total":…,"categories":[…]`.
    func append(_ totals: SummaryTotals, to out: inout String) {
        out += "\"count\":\(totals.count),\"total\":\(totals.total),\"categories\":["
        for (index, line) in totals.lines.enumerated() {
            out += (index > 0 ? "," : "") + "{\"category\":\(line.key.category),\"name\":"
            ItemJSON.appendString(names.categoryName(line.key), to: &out)
            out += ",\"sub\":\(line.key.sub.map(String.init) ?? "null"),\"subName\":"
            if let subName = names.subName(line.key) { ItemJSON.appendString(subName, to: &out) } else { out += "null" }
            out +=
                ",\"count\":\(line.count),\"total\":\(line.total),\"share\":\(line.shareTenths.map(SummaryWriter.share) ?? "null")}"
        }
        out += "]"
    }

    /// `{"months":12,"over":false,"lines":[{"name":"total","category":null,"sub":null,"budget":…,"spent":…,"left":…,"used":77.9,"over":false}]}`.
    func budget(_ report: BudgetReport) -> String {
        var out = "{\"months\":\(report.months),\"over\":\(report.isOver),\"lines\":["
        for (index, line) in report.lines.enumerated() {
            let (category, sub): (Int?, Int?) = {
                switch line.entry.key {
                case .total: return (nil, nil)
                case .category(let category): return (category, nil)
                case .sub(let category, let sub): return (category, sub)
                }
            }()
            out += (index > 0 ? ",\n  " : "\n  ") + "{\"name\":"
            ItemJSON.appendString(line.entry.name, to: &out)
            out += ",\"category\":\(category.map(String.init) ?? "null"),\"sub\":\(sub.map(String.init) ?? "null")"
            out +=
                ",\"budget\":\(line.budget),\"spent\":\(line.spent),\"left\":\(line.left),\"used\":\(SummaryWriter.share(line.usedTenths))"
            out += ",\"over\":\(line.isOver)}"
        }
        return out + "\n]}"
    }

    /// `{"month":"2024-01","source":"server"|"cache"|"missing","fetchedAt":…|null,"complete":…,"error":…|null}`.
    func source(_ month: MonthSummary) -> String {
        var out = "{\"month\":\"\(month.month)\",\"source\":"
        switch month.source {
        case .server:
            out += "\"server\",\"fetchedAt\":null,\"complete\":true,\"error\":null"
        case let .cache(fetchedAt, complete):
            out +=
                "\"cache\",\"fetchedAt\":"
                + (fetchedAt.map { "\"\($0.formatted(Date.ISO8601FormatStyle()))\"" } ?? "null")
            out += ",\"complete\":\(complete),\"error\":"
            if let fallback = month.fallback {
                ItemJSON.appendString(fallback.description, to: &out)
            } else {
                out += "null"
            }
        case let .missing(failure):
            out += "\"missing\",\"fetchedAt\":null,\"complete\":false,\"error\":"
            ItemJSON.appendString(failure.description, to: &out)
        }
        return out + "}"
    }
}
