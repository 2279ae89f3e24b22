/// How a table is narrowed to a terminal's width: one column gives up columns, its longer cells shortened with "…",
/// so that each row stays one line instead of wrapping.
public struct TableFit: Sendable, Equatable {
    /// The terminal's width in columns.
    public var width: Int
    /// The column that gives up columns (a table's names).
    public var column: Int
    /// The narrowest the column gets: below it nothing is cut further, and a line longer than the terminal wraps.
    public var minimum: Int

    /// A fit of a table to a width, narrowing one column no further than a minimum.
    public init(width: Int, column: Int, minimum: Int) {
        self.width = width
        self.column = column
        self.minimum = minimum
    }

    /// The fitted column's width, from every column's widest cell and two blanks between columns.
    func columnWidth(_ widths: [Int]) -> Int {
        let line = widths.reduce(0, +) + 2 * max(0, widths.count - 1)
        let natural = widths[column]
        // A column already narrower than the minimum is never cut: nothing in it is long.
        return max(natural - max(0, line - width), min(natural, max(1, minimum)))
    }

    /// The text shortened to at most `width` columns, ending in "…", and the columns it takes. Whole characters only,
    /// so no grapheme (ﾊﾞ, an emoji, é) or double-width character is split: the cut may leave the text a column
    /// short, which the table pads. Blanks before the "…" are dropped.
    public static func cut(_ text: String, to width: Int) -> (text: String, width: Int) {
        let room = width - 1  // "…" is East Asian Ambiguous: one column, as TextWidth counts it
        var kept = text.startIndex, used = 0
        for index in text.indices {
            let next = used + TextWidth.of(text[index])
            if next > room { break }
            used = next
            kept = text.index(after: index)
        }
        var prefix = text[..<kept]
        while let last = prefix.last, last == " " || last == "\u{3000}" {
            used -= TextWidth.of(last)
            prefix.removeLast()
        }
        return (prefix + "…", used + 1)
    }
}
