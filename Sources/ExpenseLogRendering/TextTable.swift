import ExpenseLogModel

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
        Self.measure(rows.count) { rows[$0] }.widths
    }

    /// The widest cell of each column, and every cell's width row by row, so none is measured twice: a byte each, so
    /// that 100,000 rows cost half a megabyte (a cell of 255 columns or more is measured again).
    private static func measure(_ count: Int, _ row: (Int) -> [String]) -> (widths: [Int], cells: [UInt8]) {
        var widths: [Int] = []
        var cells: [UInt8] = []
        for index in 0..<count {
            for (column, raw) in row(index).enumerated() {
                // per cell, not a mapped copy of each row: a table of an import has 100,000 rows
                let cell = PrintableText.of(raw)
                let width = TextWidth.of(cell)
                cells.append(UInt8(clamping: width))
                if column >= widths.count { widths.append(0) }
                widths[column] = max(widths[column], width)
            }
        }
        return (widths, cells)
    }

    /// The rows, two spaces between columns, no trailing blanks; `ruleBeforeLast` draws a line above the last row.
    public func render(ruleBeforeLast: Bool = false) -> String {
        Self.render(rows.count, rightAligned: rightAligned, ruleBeforeLast: ruleBeforeLast) { rows[$0] }
    }

    /// As `render`, with the rows made on demand by `row` (asked twice for each: once to measure, once to write), so a
    /// table of 100,000 items is never held as cells.
    public static func render(
        _ count: Int, rightAligned: Set<Int> = [], ruleBeforeLast: Bool = false,
        row: (Int) -> [String]
    ) -> String {
        var out = ""
        write(count, rightAligned: rightAligned, ruleBeforeLast: ruleBeforeLast, row: row) { out += $0 }
        return out
    }

    /// As `render`, handing the text to `emit` in pieces of about 64 KiB. `row` is asked for rows 0 to `count - 1` in
    /// order, twice, so it may read them from a file as it goes. With a `fit`, the cells of its column that are wider
    /// than the terminal leaves room for are shortened with "…".
    public static func write(
        _ count: Int, rightAligned: Set<Int> = [], ruleBeforeLast: Bool = false, fit: TableFit? = nil,
        row: (Int) -> [String], to emit: (String) -> Void
    ) {
        let (measured, cellWidths) = measure(count, row)
        var widths = measured
        if let fit, widths.indices.contains(fit.column) { widths[fit.column] = fit.columnWidth(widths) }
        var out = ""
        var next = 0
        for index in 0..<count {
            if ruleBeforeLast, index == count - 1 {
                out += String(repeating: "-", count: widths.reduce(0, +) + 2 * max(0, widths.count - 1)) + "\n"
            }
            // Padding is appended as it is needed and trailing blanks are dropped, with no string per cell.
            var pending = 0
            for (column, whole) in row(index).enumerated() {
                var cell = PrintableText.of(whole)
                var width = cellWidths[next] == .max ? TextWidth.of(cell) : Int(cellWidths[next])
                next += 1
                // Only a fitted column can hold a cell wider than itself.
                if width > widths[column] { (cell, width) = TableFit.cut(cell, to: widths[column]) }
                let padding = widths[column] - width
                if column > 0 { pending += 2 }
                if rightAligned.contains(column) { pending += padding }
                if !cell.isEmpty {
                    appendSpaces(pending, to: &out)
                    out += cell
                    pending = 0
                }
                if !rightAligned.contains(column) { pending += padding }
            }
            // a cell's own trailing blanks, as before
            while out.unicodeScalars.last == " " { out.unicodeScalars.removeLast() }
            out += "\n"
            if out.utf8.count >= 1 << 16 {
                emit(out)
                out = ""
            }
        }
        emit(out)
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
