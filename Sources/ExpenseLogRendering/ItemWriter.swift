import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel

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
    /// The width of the terminal a table goes to, so long names are shortened to fit; nil keeps every name whole.
    public var terminalWidth: Int?
    /// Whether a table starts with each item's id (`pending`, whose ids `pending drop` takes).
    public var showsIDs = false
    /// The short form of ids (`fetch --ids`), shown in their place when a table starts with ids.
    public var shortIDs: [String: String] = [:]
    /// The items still waiting in the outbox, marked as such: `"pending": true` in JSON, a mark after the name in a table.
    public var waitingIDs: Set<String> = []
    /// The fixed costs a month expects, not yet registered (`recurring`): marked in a table, not in its total.
    public var expectedIDs: Set<String> = []

    /// A writer with a catalogue, a language and the terminal's width, if a table goes to one.
    public init(catalogue: CategoryCatalogue = .standard, japanese: Bool = false, terminalWidth: Int? = nil) {
        self.catalogue = catalogue
        self.japanese = japanese
        self.terminalWidth = terminalWidth
    }

    /// The narrowest a shortened name column gets: as `gh` keeps a title readable, and never narrower than the
    /// heading or the total's count, so those are never cut.
    static let minimumNameWidth = 8

    /// The whole output, ending in a newline unless empty.
    public func render(_ items: [Item], as format: OutputFormat) -> String {
        switch format {
        case .json where !waitingIDs.isEmpty:
            return "[" + items.map(object).joined(separator: ",") + "]\n"
        case .json: return ItemJSON.array(items) + "\n"
        case .ndjson: return items.map { object($0) + "\n" }.joined()
        case .csv: return csv(items)
        case .table: return table(items)
        }
    }

    /// Writes a spool's items in a format to `emit` as UTF-8, in pieces that end with a line, reading them back from
    /// disk as it goes (twice for a table, whose widths come first), so a large import's output is never held whole.
    /// Bytes, not Strings: a table is made as bytes, and a String of each piece was made only to be written out again.
    public func write(
        _ spool: some ItemRecords, as format: OutputFormat, to emit: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws {
        var out = format == .csv ? csvHeader : format == .json ? (spool.count == 0 ? "[]\n" : "[\n") : ""
        func flush(_ force: Bool = false) {
            guard force || out.utf8.count >= 1 << 16 else { return }
            if !out.isEmpty { out.withUTF8(emit) }
            out = ""
        }
        switch format {
        case .json, .ndjson, .csv:
            var index = 0
            try spool.forEachItem { item in
                index += 1
                switch format {
                case .json: out += "  " + ItemJSON.object(item) + (index < spool.count ? ",\n" : "\n")
                case .ndjson: out += ItemJSON.object(item) + "\n"
                default: out += csvLine(item)
                }
                flush()
            }
            if format == .json, spool.count > 0 { out += "]\n" }
            flush(true)
        case .table:
            var failure: (any Error)?
            writeTable(
                spool.count, total: spool.totalPrice,
                eachItem: { body in
                    do {
                        try spool.forEachFields { body($0) }
                    } catch {
                        failure = failure ?? error
                    }
                }, to: emit)
            if let failure { throw failure }
        }
    }

    /// An item's JSON object, with `"pending": true` when it still waits in the outbox.
    private func object(_ item: Item) -> String {
        let json = ItemJSON.object(item)
        return waitingIDs.contains(item.id) ? String(json.dropLast()) + #","pending":true}"# : json
    }

    private var csvHeader: String { InputReader.fields.joined(separator: ",") + "\n" }

    private func csvLine(_ item: Item) -> String {
        [
            CSV.field(item.id), item.date.compact, CSV.field(item.name), String(item.price), String(item.category),
            item.categorySub.map(String.init) ?? "",
        ].joined(separator: ",") + "\n"
    }

    func csv(_ items: [Item]) -> String {
        items.reduce(into: csvHeader) { $0 += csvLine($1) }
    }

    func table(_ items: [Item]) -> String {
        var out = ""
        // An expected fixed cost is shown, not counted: the total is what was spent (summary --forecast counts it).
        let counted = expectedIDs.isEmpty ? items : items.filter { !expectedIDs.contains($0.id) }
        writeTable(
            counted.count, total: counted.totalPrice, eachItem: { body in items.forEach { $0.withFields(body) } }
        ) {
            out += String(decoding: $0, as: UTF8.self)
        }
        return out
    }

    /// A table of `count` items with their `total`; `eachItem` hands every item's fields to its closure, in order, and is
    /// called twice (once to measure, once to write).
    private func writeTable(
        _ count: Int, total: Int128, eachItem: (_ body: (ItemFields) -> Void) -> Void,
        to emit: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        let id = showsIDs ? ["ID"] : []
        let headings =
            id + (japanese ? ["日付", "品名", "金額", "項目", "サブ項目"] : ["DATE", "NAME", "PRICE", "CATEGORY", "SUB"])
        let counted = japanese ? "\(count)件" : "\(count) item\(count == 1 ? "" : "s")"
        // The total's words stay under the first column, its count under the names and its sum under the prices.
        let totals = [japanese ? "合計" : "TOTAL"] + id.map { _ in "" } + [counted, PriceText.format(total), "", ""]
        let name = id.count + 1
        let fit = terminalWidth.map { width in
            TableFit(
                width: width, column: name,
                minimum: max(Self.minimumNameWidth, TextWidth.of(headings[name]), TextWidth.of(counted)))
        }
        let waiting = waitingIDs.isEmpty ? nil : waitingIDs, expected = expectedIDs.isEmpty ? nil : expectedIDs
        let mark = japanese ? " ⧗未送信" : " ⧗waiting", byHand = japanese ? " ✎手入力" : " ✎by hand"
        let expectedMark = japanese ? " ◇予定" : " ◇expected"
        let table = ItemTable(
            headings: headings, totals: totals, showsIDs: showsIDs, fit: fit,
            categoryNames: { [catalogue, japanese] category, sub in
                (
                    catalogue.name(of: category, japanese: japanese),
                    catalogue.name(ofSub: sub, in: category, japanese: japanese)
                )
            },
            idText: { [shortIDs] fields in
                let id = fields.idText
                return shortIDs[id] ?? id
            },
            nameMark: { fields in
                if expected?.contains(fields.idText) == true { return expectedMark }
                return waiting?.contains(fields.idText) == true
                    ? mark : HandTypedRow.isHandTyped(fields.idText) ? byHand : ""
            })
        table.write(count, eachItem: eachItem, to: emit)
    }
}
