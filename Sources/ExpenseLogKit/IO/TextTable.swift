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
        measured().widths
    }

    /// The width of every cell (row by row) and the widest of each column, so no cell is measured twice.
    private func measured() -> (cells: [Int], widths: [Int]) {
        var cells: [Int] = []
        cells.reserveCapacity(rows.reduce(0) { $0 + $1.count })
        var widths: [Int] = []
        for row in rows {
            for (column, cell) in row.enumerated() {
                let width = TextWidth.of(cell)
                cells.append(width)
                if column >= widths.count { widths.append(0) }
                widths[column] = max(widths[column], width)
            }
        }
        return (cells, widths)
    }

    /// The rows, two spaces between columns, no trailing blanks; `ruleBeforeLast` draws a line above the last row.
    public func render(ruleBeforeLast: Bool = false) -> String {
        let (cellWidths, widths) = measured()
        var out = ""
        var next = 0
        for (index, row) in rows.enumerated() {
            if ruleBeforeLast, index == rows.count - 1 {
                out += String(repeating: "-", count: widths.reduce(0, +) + 2 * max(0, widths.count - 1)) + "\n"
            }
            // Padding is appended as it is needed and trailing blanks are dropped, with no string per cell.
            var pending = 0
            for (column, cell) in row.enumerated() {
                let padding = widths[column] - cellWidths[next]
                next += 1
                if column > 0 { pending += 2 }
                if rightAligned.contains(column) { pending += padding }
                if !cell.isEmpty {
                    Self.appendSpaces(pending, to: &out)
                    out += cell
                    pending = 0
                }
                if !rightAligned.contains(column) { pending += padding }
            }
            while out.unicodeScalars.last == " " { out.unicodeScalars.removeLast() }  // a cell's own trailing blanks, as before
            out += "\n"
        }
        return out
    }

    private static let spaces = String(repeating: " ", count: 64)

    /// Appends blanks from a ready-made run (`repeatElement` went a character at a time, most of a big table's time).
    private static func appendSpaces(_ count: Int, to out: inout String) {
        var left = count
        while left > 0 {
            out += spaces.prefix(min(left, 64))
            left -= 64
        }
    }
}
