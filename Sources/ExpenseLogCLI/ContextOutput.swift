import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// What every command prints the same way: items, the rows of an answer left out, the cache's warnings.
extension Context {
    /// Writes items in a format to stdout, naming categories from the configured catalogue.
    func printItems(
        _ items: [Item], _ format: OutputFormat, _ config: AppConfig, shortIDs: [String: String]? = nil,
        waiting: Set<String> = [], expected: Set<String> = []
    ) {
        var writer = itemWriter(config)
        if let shortIDs { (writer.showsIDs, writer.shortIDs) = (true, shortIDs) }
        (writer.waitingIDs, writer.expectedIDs) = (waiting, expected)
        io.stdout.write(writer.render(items, as: format))
    }

    /// A writer naming categories from the configured catalogue, in the locale's language, fitting tables to the terminal.
    private func itemWriter(_ config: AppConfig) -> ItemWriter {
        ItemWriter(catalogue: config.catalogue.value, japanese: japanese, terminalWidth: terminalWidth)
    }

    /// Writes a spool's items in a format to stdout, in pieces (a table starting with their short ids when `showingIDs`:
    /// the shortest prefix, 4 characters at least, that tells each from the others, which `pending drop` takes); a spool
    /// that cannot be read back is warned about. `totals` (a run's saved items): more than `summaryThreshold`, with no
    /// `--format` given, are totalled per month instead, where it says (`.onTerminal`: register, whose contract prints
    /// the items saved, to a pipe still; `.always`: sync).
    func printItems(
        _ spool: some ItemRecords, _ format: OutputFormat, _ config: AppConfig, showingIDs: Bool = false,
        totals: MonthTotalsWhere = .never
    ) {
        var writer = itemWriter(config)
        writer.showsIDs = showingIDs
        let totalled =
            totals != .never && (totals == .always || io.stdoutIsTerminal) && format == .table
            && !invocation.isGiven(CommonOptions.format) && spool.count > Self.summaryThreshold
        do {
            if totalled { return try writer.writeMonthTotals(spool) { io.stdout.write($0) } }
            if showingIDs, format == .table {
                var ids: [String] = []
                try spool.forEachItem { ids.append($0.id) }
                writer.shortIDs = EditTargets.shortIDs(ids)
            }
            try writer.write(spool, as: format) { io.stdout.write(bytes: $0) }
        } catch {
            warn(
                say(
                    "the items could not all be printed (\(describe(error))); `expense-log fetch` shows what the server has",
                    ja: "項目をすべては表示できませんでした (\(describe(error)))。`expense-log fetch` でサーバーにあるものを表示します"))
        }
    }

    /// Where a run's saved items are totalled per month rather than listed.
    enum MonthTotalsWhere: Sendable { case never, onTerminal, always }

    /// The most saved items a run lists one by one on a terminal: a screenful.
    static let summaryThreshold = 20

    /// On a terminal, the line above a table that names its period (a month's table looks like any other's); never in a
    /// pipe or a file, whose reader knows what it asked for.
    func title(_ period: Period, _ format: OutputFormat) {
        if format == .table, io.stdoutIsTerminal { io.stdout.write(period.title(japanese: japanese) + "\n") }
    }

    /// Names on stderr each row of a month's answer that was left out or read with a guess.
    func warnRows(_ answer: SheetAnswer, of month: YearMonth?) {
        for row in answer.retyped { warn(japanese ? row.japaneseDescription(in: month) : row.describe(in: month)) }
        for row in answer.unreadable {
            warn(japanese ? "除外: " + row.japaneseDescription(in: month) : "left out \(row.describe(in: month))")
        }
    }

    /// What rows left out mean for a reading command (fetch, summary): once, after the rows were named.
    func reportLeftOut(_ count: Int) {
        if count > 0 {
            warn(
                say(
                    "\(count) row\(count == 1 ? "" : "s") of the server's answer could not be read as items and \(count == 1 ? "was" : "were") "
                        + "left out; fix \(count == 1 ? "it" : "them") in the sheet (exit status 65; --strict refuses such a month whole)",
                    ja: "サーバーの応答の\(count)行は項目として読めず、除外しました。シートで直してください (終了コード65。--strict ではその月ごと拒否します)"))
        }
    }

    /// Prints the cache's warnings (corrupt files moved aside), once each.
    func flushWarnings(_ ledger: Ledger) async {
        for warning in await ledger.cacheWarnings() { warn(describeNotice(warning)) }
    }
}
