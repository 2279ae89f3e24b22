/// Horizontal bars of block characters, in eighths of a cell, for charts in a terminal.
public enum TextBar {
    /// The partial cells, one to seven eighths wide.
    static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// A bar for `value` where `largest` fills `width` cells; empty when either is 0 or negative.
    public static func bar(_ value: Int128, largest: Int128, width: Int = 40) -> String {
        guard value > 0, largest > 0, width > 0 else { return "" }
        // Rounded to the nearest eighth, but at least one: a positive month too small to round up must not look empty.
        let scaled = (2 * min(value, largest) * Int128(width) * 8 + largest) / (2 * largest)
        let total = max(1, Int(scaled))
        let partial = total % 8
        return String(repeating: "█", count: total / 8) + (partial > 0 ? String(eighths[partial - 1]) : "")
    }
}
