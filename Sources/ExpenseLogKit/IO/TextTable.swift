/// Aligned columns for people, measured in terminal columns so Japanese text lines up.
public struct TextTable: Sendable {
    /// The rows, the first usually the headings.
    public var rows: [[String]]
    /// Columns whose cells are right-aligned (numbers).
    public var rightAligned: Set<Int>

    /// A table of rows.
    public init(rows: [[String]], rightAligned: Set<Int> = []) {
        self.rows = rows
        self.rightAligned = rightAligned
    }

    /// The widest cell of each column.
    public var widths: [Int] {
        var widths: [Int] = []
        for row in rows {
            for (column, cell) in row.enumerated() {
                if column >= widths.count { widths.append(0) }
                widths[column] = max(widths[column], TextWidth.of(cell))
            }
        }
        return widths
    }

    /// The rows, two spaces between columns, no trailing blanks; `ruleBeforeLast` draws a line above the last row.
    public func render(ruleBeforeLast: Bool = false) -> String {
        let widths = self.widths
        var out = ""
        for (index, row) in rows.enumerated() {
            if ruleBeforeLast, index == rows.count - 1 {
                out += String(repeating: "-", count: widths.reduce(0, +) + 2 * max(0, widths.count - 1)) + "\n"
            }
            let cells = row.enumerated().map { column, cell in
                rightAligned.contains(column) ? TextWidth.padLeft(cell, to: widths[column])
                                              : TextWidth.padRight(cell, to: widths[column])
            }
            var line = cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            out += line + "\n"
        }
        return out
    }
}
