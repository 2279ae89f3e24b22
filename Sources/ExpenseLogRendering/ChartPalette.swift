import ExpenseLogModel

/// The colours of the charts: one per category, the same on every page, from Okabe and Ito's palette, which people
/// with the common colour-vision deficiencies (protan, deutan, tritan) can tell apart.
public enum ChartPalette {
    /// Okabe–Ito, in the order categories take them (black is replaced by a grey that a dark text still reads on).
    public static let colours = [
        "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999",
    ]

    /// A category's colour: its place in the catalogue, around the palette; a number the catalogue lacks takes one of
    /// the colours the catalogue leaves free, by its number, so it is not taken for a category that has a name.
    public static func colour(ofCategory category: Int, in catalogue: CategoryCatalogue) -> String {
        let count = catalogue.categories.count
        if let place = catalogue.categories.firstIndex(where: { $0.id == category }) {
            return colours[place % colours.count]
        }
        let free = max(colours.count - count, 1)
        return colours[(min(count, colours.count - 1) + Int(category.magnitude % UInt(free))) % colours.count]
    }

    /// A sub-category's colour: its category's, lightened by its place (so that the category's own colour is left to
    /// the category chart), with none lighter than two thirds of the way to white.
    public static func colour(ofSub place: Int, inCategory category: Int, in catalogue: CategoryCatalogue) -> String {
        lightened(colour(ofCategory: category, in: catalogue), by: [0.2, 0.45, 0.65, 0.1, 0.35, 0.55][place % 6])
    }

    /// `#RRGGBB` mixed with white: 0 leaves it, 1 is white.
    static func lightened(_ hex: String, by amount: Double) -> String {
        let digits = Array(hex.utf8.dropFirst())
        func channel(_ index: Int) -> Int {
            let text = String(decoding: digits[(index * 2)..<(index * 2 + 2)], as: UTF8.self)
            let value = Double(Int(text, radix: 16) ?? 0)
            return Int((value + (255 - value) * amount).rounded())
        }
        let hexDigits = Array("0123456789ABCDEF")
        return "#" + (0..<3).map { channel($0) }.map { String([hexDigits[$0 / 16], hexDigits[$0 % 16]]) }.joined()
    }
}
