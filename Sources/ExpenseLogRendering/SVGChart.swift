import ExpenseLogModel
import Foundation

/// One coloured part of a chart: a category's (or sub-category's) amount.
public struct ChartPart: Sendable, Equatable {
    /// What it is, as the legend names it.
    public let label: String
    /// Yen; parts of 0 or less are not drawn.
    public let value: Int128
    /// `#RRGGBB`.
    public let colour: String

    /// A part.
    public init(label: String, value: Int128, colour: String) {
        (self.label, self.value, self.colour) = (label, value, colour)
    }
}

/// One bar of a stacked bar chart: a month and its parts.
public struct ChartBar: Sendable, Equatable {
    /// Under the bar (`1月`, `Jan`).
    public let label: String
    /// Its parts, bottom first.
    public let parts: [ChartPart]
    /// Above the bar: its total, or nil when the month is missing.
    public let total: Int128?

    /// A bar.
    public init(label: String, parts: [ChartPart], total: Int128?) {
        (self.label, self.parts, self.total) = (label, parts, total)
    }
}

/// Charts drawn as SVG by hand, each with a `<title>` and a `<desc>` that says in words what it shows.
public enum SVGChart {
    /// A donut of parts with the whole in its middle, and a legend to its right when `legend` (a page puts its own
    /// under it); the arcs of the drawn parts sum to the whole circle.
    public static func donut(
        title: String, description: String, parts: [ChartPart], centre: String, legend withLegend: Bool = true
    ) -> String {
        let drawn = parts.filter { $0.value > 0 }
        let whole = drawn.reduce(Int128(0)) { $0 + $1.value }
        let (cx, cy, outer, inner) = (160.0, 160.0, 150.0, 88.0)
        var out =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(withLegend ? 600 : 320) 320\" role=\"img\" class=\"chart donut\">"
        out += "<title>\(escaped(title))</title><desc>\(escaped(description))</desc>"
        var start = 0.0
        for part in drawn where whole > 0 {
            let fraction = Double(part.value) / Double(whole)
            let end = start + fraction * 2 * .pi
            // White between parts; a part that is the whole has no neighbour to be told from.
            let stroke = drawn.count > 1 ? "stroke=\"#FFFFFF\" stroke-width=\"1\" " : ""
            out +=
                "<path d=\"\(arcPath(cx: cx, cy: cy, outer: outer, inner: inner, from: start, to: end))\" fill=\"\(part.colour)\" "
                + stroke + "data-label=\"\(escaped(part.label))\" data-value=\"\(part.value)\">"
                + "<title>\(escaped(part.label)) ¥\(PriceText.format(part.value))</title></path>"
            start = end
        }
        if whole <= 0 {
            out +=
                "<circle cx=\"\(cx)\" cy=\"\(cy)\" r=\"\((outer + inner) / 2)\" fill=\"none\" stroke=\"#DDDDDD\" stroke-width=\"\(outer - inner)\"/>"
        }
        out +=
            "<text x=\"\(cx)\" y=\"\(cy + 8)\" text-anchor=\"middle\" font-size=\"24\" font-weight=\"bold\">\(escaped(centre))</text>"
        if withLegend { out += legend(parts, x: 340, y: 40) }
        return out + "</svg>"
    }

    /// Stacked bars, one per month, each with its total above it, a dashed line at `budget` when given, and a legend.
    public static func stackedBars(
        title: String, description: String, bars: [ChartBar], legend parts: [ChartPart],
        budget: (value: Int128, label: String)? = nil
    ) -> String {
        let (left, top, width, height) = (70.0, 30.0, 640.0, 260.0)
        // A bar stacks its positive parts, which reach past its total when a category was refunded below 0.
        let stacked = bars.map { $0.parts.reduce(Int128(0)) { $1.value > 0 ? $0 + $1.value : $0 } }
        let largest = max(bars.compactMap(\.total).max() ?? 0, stacked.max() ?? 0, budget?.value ?? 0, 1)
        // The axis reaches the round value just above the largest, in round steps (50,000, not 140,643).
        let step = roundStep(largest), steps = (largest + step - 1) / step, axisTop = step * steps
        func y(_ value: Int128) -> Double { top + height - Double(value) / Double(axisTop) * height }
        let legendRows = (parts.count + 3) / 4
        var out =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 720 \(Int(top + height + 40) + legendRows * 24 + 10)\" role=\"img\" "
            + "class=\"chart bars\"><title>\(escaped(title))</title><desc>\(escaped(description))</desc>"
        out +=
            "<line x1=\"\(left)\" y1=\"\(top + height)\" x2=\"\(left + width)\" y2=\"\(top + height)\" stroke=\"#333333\"/>"
        for line in 1...Int(steps) {
            let value = step * Int128(line)
            out +=
                "<line x1=\"\(left)\" y1=\"\(y(value))\" x2=\"\(left + width)\" y2=\"\(y(value))\" stroke=\"#E5E5E5\"/>"
                + "<text x=\"\(left - 6)\" y=\"\(y(value) + 4)\" text-anchor=\"end\" font-size=\"11\" fill=\"#555555\">\(PriceText.format(value))</text>"
        }
        let slot = width / Double(max(bars.count, 1))
        for (index, bar) in bars.enumerated() {
            let x = left + slot * Double(index) + slot * 0.2
            var base: Int128 = 0
            for part in bar.parts where part.value > 0 {
                out +=
                    "<rect x=\"\(x)\" y=\"\(y(base + part.value))\" width=\"\(slot * 0.6)\" height=\"\(y(base) - y(base + part.value))\" "
                    + "fill=\"\(part.colour)\" data-label=\"\(escaped(part.label))\" data-value=\"\(part.value)\">"
                    + "<title>\(escaped(bar.label)) \(escaped(part.label)) ¥\(PriceText.format(part.value))</title></rect>"
                base += part.value
            }
            let centre = x + slot * 0.3
            if let total = bar.total {
                out +=
                    "<text x=\"\(centre)\" y=\"\(y(max(base, 0)) - 5)\" text-anchor=\"middle\" font-size=\"11\" class=\"bar-total\">"
                    + "\(PriceText.format(total))</text>"
            } else {
                out +=
                    "<text x=\"\(centre)\" y=\"\(top + height - 5)\" text-anchor=\"middle\" font-size=\"11\" fill=\"#999999\">–</text>"
            }
            out +=
                "<text x=\"\(centre)\" y=\"\(top + height + 18)\" text-anchor=\"middle\" font-size=\"12\">\(escaped(bar.label))</text>"
        }
        if let budget {
            out +=
                "<line x1=\"\(left)\" y1=\"\(y(budget.value))\" x2=\"\(left + width)\" y2=\"\(y(budget.value))\" stroke=\"#000000\" "
                + "stroke-width=\"1.5\" stroke-dasharray=\"6 4\" class=\"budget-line\"/>"
                + "<text x=\"\(left + width)\" y=\"\(y(budget.value) - 5)\" text-anchor=\"end\" font-size=\"11\">\(escaped(budget.label))</text>"
        }
        out += legendGrid(parts, y: top + height + 34)
        return out + "</svg>"
    }

    /// The step of an axis up to `largest`: the smallest of 1, 2, 2.5 and 5 times a power of ten that needs at most four
    /// steps, as a person would draw the lines.
    static func roundStep(_ largest: Int128) -> Int128 {
        var magnitude: Int128 = 1
        while magnitude * 10 <= largest / 4 { magnitude *= 10 }
        let candidates = [magnitude, magnitude * 2, magnitude * 25 / 10, magnitude * 5, magnitude * 10].filter {
            $0 > 0
        }
        return candidates.first { $0 * 4 >= largest } ?? magnitude * 10
    }

    /// A bar per budget, each on its own scale: what was spent, a mark at the budget, the share used, and `over`.
    public static func budgetBars(
        title: String, description: String,
        lines: [(label: String, spent: Int128, budget: Int128, colour: String, used: String, over: String?)]
    )
        -> String
    {
        let rowHeight = 34.0
        let (left, width) = (200.0, 180.0)
        var out =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 480 \(Int(rowHeight * Double(lines.count) + 10))\" role=\"img\" "
            + "class=\"chart budget\"><title>\(escaped(title))</title><desc>\(escaped(description))</desc>"
        for (index, line) in lines.enumerated() {
            let y = 5 + rowHeight * Double(index)
            // A row's own scale: the budget, or what was spent when more; a small budget is not a sliver beside the total's.
            let scale = Double(max(line.spent, line.budget, 1))
            let spent = Double(max(line.spent, 0)) / scale * width
            let mark = left + Double(line.budget) / scale * width
            out +=
                "<text x=\"\(left - 8)\" y=\"\(y + 20)\" text-anchor=\"end\" font-size=\"14\">\(escaped(shortened(line.label, 12)))"
                + "<title>\(escaped(line.label))</title></text>"
                + "<rect x=\"\(left)\" y=\"\(y + 6)\" width=\"\(width)\" height=\"20\" fill=\"#F2F2F2\"/>"
                + "<rect x=\"\(left)\" y=\"\(y + 6)\" width=\"\(spent)\" height=\"20\" fill=\"\(line.colour)\"/>"
                + "<line x1=\"\(mark)\" y1=\"\(y + 1)\" x2=\"\(mark)\" y2=\"\(y + 31)\" stroke=\"#000000\" stroke-width=\"2\" class=\"budget-line\"/>"
                + "<text x=\"\(left + width + 8)\" y=\"\(y + 20)\" font-size=\"14\"\(line.over == nil ? "" : " font-weight=\"bold\"")>"
                + "\(escaped(line.used))\(line.over.map { " " + escaped($0) } ?? "")</text>"
        }
        return out + "</svg>"
    }

    /// The path of a ring's part from angle `from` to `to` (radians, clockwise from the top).
    static func arcPath(cx: Double, cy: Double, outer: Double, inner: Double, from: Double, to: Double) -> String {
        // A whole ring cannot be one arc (its ends meet): draw it as two halves.
        if to - from >= 2 * .pi - 1e-9 {
            return arcPath(cx: cx, cy: cy, outer: outer, inner: inner, from: from, to: from + .pi) + " "
                + arcPath(cx: cx, cy: cy, outer: outer, inner: inner, from: from + .pi, to: to)
        }
        func point(_ radius: Double, _ angle: Double) -> String {
            let x = cx + radius * sin(angle), y = cy - radius * cos(angle)
            return "\(number(x)) \(number(y))"
        }
        let large = to - from > .pi ? 1 : 0
        return "M \(point(outer, from)) A \(number(outer)) \(number(outer)) 0 \(large) 1 \(point(outer, to)) "
            + "L \(point(inner, to)) A \(number(inner)) \(number(inner)) 0 \(large) 0 \(point(inner, from)) Z"
    }

    private static func legend(_ parts: [ChartPart], x: Double, y: Double) -> String {
        var out = ""
        let shown = parts.count > 10 ? Array(parts.prefix(9)) : parts
        for (index, part) in shown.enumerated() {
            let top = y + Double(index) * 26
            out +=
                "<rect x=\"\(x)\" y=\"\(top)\" width=\"14\" height=\"14\" fill=\"\(part.colour)\"/>"
                + "<text x=\"\(x + 22)\" y=\"\(top + 12)\" font-size=\"14\">\(escaped(shortened(part.label, 14))) "
                + "¥\(PriceText.format(part.value))</text>"
        }
        if shown.count < parts.count {
            out += "<text x=\"\(x)\" y=\"\(y + 9 * 26 + 12)\" font-size=\"14\">+\(parts.count - shown.count)…</text>"
        }
        return out
    }

    private static func legendGrid(_ parts: [ChartPart], y: Double) -> String {
        var out = ""
        for (index, part) in parts.enumerated() {
            let (x, top) = (70 + Double(index % 4) * 160, y + Double(index / 4) * 24)
            out +=
                "<rect x=\"\(x)\" y=\"\(top)\" width=\"12\" height=\"12\" fill=\"\(part.colour)\"/>"
                + "<text x=\"\(x + 18)\" y=\"\(top + 11)\" font-size=\"12\">\(escaped(shortened(part.label, 18)))</text>"
        }
        return out
    }

    /// At most `limit` characters, the rest as `…`, so a long name cannot run out of the picture.
    static func shortened(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// Two decimals at most, no trailing zeros.
    static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// Text safe inside XML and HTML, in content and in quoted attributes.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            // XML has no place for control characters (a name may hold one): shown as a terminal table shows them.
            case let other
            where other.unicodeScalars.contains(where: { $0.isControl || $0.value == 0xFFFE || $0.value == 0xFFFF })
                && other != "\n" && other != "\t":
                out += "\u{FFFD}"
            default: out.append(character)
            }
        }
        return out
    }
}
