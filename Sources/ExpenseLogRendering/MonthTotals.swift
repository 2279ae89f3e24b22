import ExpenseLogModel

extension ItemWriter {
    /// A large run's saved items as one line per month (how many, how much) and a total, in place of thousands of rows a
    /// person at a terminal would only scroll past; `--format` prints them all.
    public func writeMonthTotals(_ spool: some ItemRecords, to emit: (String) -> Void) throws {
        var months: [YearMonth: (count: Int, total: Int128)] = [:]
        try spool.forEachItem { item in
            months[item.date.yearMonth, default: (0, 0)].count += 1
            months[item.date.yearMonth, default: (0, 0)].total += Int128(item.price)
        }
        var rows = [japanese ? ["月", "件数", "金額"] : ["MONTH", "ITEMS", "TOTAL"]]
        for (month, sums) in months.sorted(by: { $0.key < $1.key }) {
            rows.append([month.description, PriceText.format(Int128(sums.count)), PriceText.format(sums.total)])
        }
        rows.append([
            japanese ? "合計" : "TOTAL", PriceText.format(Int128(spool.count)), PriceText.format(spool.totalPrice),
        ])
        emit(
            TextTable(rows: rows, rightAligned: [1, 2]).render()
                + (japanese
                    ? "（--format table で全\(spool.count)件を表示）\n" : "(--format table prints all \(spool.count) items)\n"))
    }
}
