/// A row a person typed into the sheet by hand, with no id: the app shows it, so it is an item here too, under an id
/// made from what it holds (the row has none the server could be asked about until `edit` gives it one).
public enum HandTypedRow {
    /// What every such id begins with: no client makes ids like it, and `edit` and `delete` know it by it.
    public static let prefix = "HAND-"

    /// Whether an item is a row typed by hand.
    public static func isHandTyped(_ id: String) -> Bool { id.hasPrefix(prefix) }

    /// The id of the `occurrence`-th row (from 1) of an answer holding this day, name and price: the same on every read
    /// of the same rows.
    public static func id(date: Day, name: String, price: Int, occurrence: Int) -> String {
        let made = DerivedID.make(
            content: Array("hand".utf8) + [0x1F] + DerivedID.content(date: date, name: name, price: price),
            occurrence: occurrence)
        return prefix + made.replacingOccurrences(of: "-", with: "").prefix(12)
    }
}

extension RandomID {
    /// Whether an item was typed by a person (the app's or `add`'s random id, or a row typed into the sheet by hand),
    /// not read from a statement: statement rows are matched to such items, never to each other.
    public static func isTyped(_ id: String) -> Bool { isRandom(id) || HandTypedRow.isHandTyped(id) }
}
