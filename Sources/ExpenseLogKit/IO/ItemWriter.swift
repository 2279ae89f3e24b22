/// The output formats for lists of items.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// An aligned table for people, with a total.
    case table
    /// A JSON array in the wire format.
    case json
    /// One wire-format JSON object per line.
    case ndjson
    /// CSV with the native header.
    case csv
}

/// Renders items in an output format; every machine format can be fed back to `register`.
public struct ItemWriter: Sendable {
    /// The catalogue naming categories in tables.
    public var catalogue: CategoryCatalogue
    /// Whether tables use Japanese headings and names.
    public var japanese: Bool

    /// A writer with a catalogue and a language.
    public init(catalogue: CategoryCatalogue = .standard, japanese: Bool = false) {
        self.catalogue = catalogue
        self.japanese = japanese
    }

    /// The whole output, ending in a newline unless empty.
    public func render(_ items: [Item], as format: OutputFormat) -> String {
        switch format {
        case .json: return ItemJSON.array(items) + "\n"
        case .ndjson: return items.map { ItemJSON.object($0) + "\n" }.joined()
        case .csv: return csv(items)
        case .table: return table(items)
        }
    }

    func csv(_ items: [Item]) -> String {
        var out = InputReader.fields.joined(separator: ",") + "\n"
        for item in items {
            out += [CSV.field(item.id), item.date.compact, CSV.field(item.name), String(item.price), String(item.category),
                    item.categorySub.map(String.init) ?? ""].joined(separator: ",") + "\n"
        }
        return out
    }

    func table(_ items: [Item]) -> String {
        let headings = japanese ? ["日付", "品名", "金額", "項目", "サブ項目"] : ["DATE", "NAME", "PRICE", "CATEGORY", "SUB"]
        let count = japanese ? "\(items.count)件" : "\(items.count) item\(items.count == 1 ? "" : "s")"
        let totals = [japanese ? "合計" : "TOTAL", count, PriceText.format(items.totalPrice), "", ""]
        // Each row's cells are made when the table asks for them, so the items are never all held again as text.
        return TextTable.render(items.count + 2, rightAligned: [2], ruleBeforeLast: true) { index in
            if index == 0 { return headings }
            if index == items.count + 1 { return totals }
            let item = items[index - 1]
            return [item.date.description, item.name, PriceText.format(item.price), catalogue.name(of: item.category, japanese: japanese),
                    catalogue.name(ofSub: item.categorySub, in: item.category, japanese: japanese)]
        }
    }
}
