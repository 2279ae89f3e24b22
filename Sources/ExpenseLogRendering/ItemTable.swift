import ExpenseLogModel

/// The table of items (`fetch`, `register`, `pending`), written as UTF-8 bytes straight from each item's fields, as
/// `TextTable` lays out any table: two blanks between columns, prices right-aligned, no trailing blanks, a rule above
/// the total. A 100,000-row import's table made a String for every cell and was a quarter of the import's CPU; this
/// makes none for an item whose name is plain text (bench/results.md).
struct ItemTable {
    /// The heading row's cells.
    let headings: [String]
    /// The total row's cells.
    let totals: [String]
    /// Whether the first column is the id (`idText` gives its cell).
    let showsIDs: Bool
    /// How the name column is narrowed to a terminal, if the table goes to one.
    let fit: TableFit?
    /// The category's and sub-category's cells for an item.
    let categoryNames: (_ category: Int, _ sub: Int?) -> (String, String)
    /// The id's cell for an item (its short id, or the id).
    let idText: (ItemFields) -> String
    /// What follows an item's name (the waiting mark), if anything.
    let nameMark: (ItemFields) -> String

    /// The name column.
    private var nameColumn: Int { showsIDs ? 2 : 1 }

    /// Writes the table of `count` items to `emit` in pieces of about 64 KiB; `eachItem` hands every item's fields to
    /// its closure in order, and is called twice (once to measure, once to write).
    func write(
        _ count: Int, eachItem: (_ body: (ItemFields) -> Void) -> Void, to emit: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var categories = CategoryCells(names: categoryNames)
        var widths = headings.map { TextWidth.of(PrintableText.of($0)) }
        for (column, cell) in totals.enumerated() {
            widths[column] = max(widths[column], TextWidth.of(PrintableText.of(cell)))
        }
        // Each name's width as plain bytes, measured once: the second pass reads it back (UInt8.max: not plain, or
        // wider than a byte holds, and measured again).
        var plainWidths: [UInt8] = []
        plainWidths.reserveCapacity(count)
        eachItem { fields in
            let cells = categories.cells(fields.category, fields.categorySub)
            if showsIDs { widths[0] = max(widths[0], TextWidth.of(PrintableText.of(idText(fields)))) }
            let first = nameColumn - 1
            widths[first] = max(widths[first], ItemTable.dateWidth(fields.date))
            let mark = nameMark(fields)
            let plain = mark.isEmpty ? ItemTable.plainWidth(fields.name) : nil
            plainWidths.append(plain.flatMap { UInt8(exactly: $0) } ?? .max)
            widths[first + 1] = max(widths[first + 1], plain ?? nameWidth(fields, mark: mark))
            widths[first + 2] = max(widths[first + 2], ItemTable.priceWidth(fields.price))
            widths[first + 3] = max(widths[first + 3], cells.categoryWidth)
            widths[first + 4] = max(widths[first + 4], cells.subWidth)
        }
        if let fit { widths[nameColumn] = fit.columnWidth(widths) }
        var line = Line(widths: widths, priceColumn: nameColumn + 1)
        for cell in headings { line.add(cell) }
        line.end()
        // `emit` is called from inside `eachItem`'s closure, which only runs while `eachItem` does.
        var row = 0
        withoutActuallyEscaping(emit) { emit in
            eachItem { fields in
                let cells = categories.cells(fields.category, fields.categorySub)
                if showsIDs { line.add(idText(fields)) }
                line.addDate(fields.date)
                let kept = row < plainWidths.count ? plainWidths[row] : .max
                row += 1
                let plain =
                    kept != .max ? Int(kept) : nameMark(fields).isEmpty ? ItemTable.plainWidth(fields.name) : nil
                if let plain, plain <= widths[nameColumn] {
                    line.add(bytes: fields.name, width: plain)
                } else {
                    line.add(String(decoding: fields.name, as: UTF8.self) + nameMark(fields))
                }
                line.addPrice(fields.price)
                line.add(bytes: cells.category, width: cells.categoryWidth)
                line.add(bytes: cells.sub, width: cells.subWidth)
                line.end()
                if line.out.count >= 1 << 16 { line.flush(to: emit) }
            }
        }
        line.rule()
        for cell in totals { line.add(cell) }
        line.end()
        line.flush(to: emit)
    }

    /// The width of a name that is not plain bytes, with its mark, as a cell shows it.
    private func nameWidth(_ fields: ItemFields, mark: String) -> Int {
        TextWidth.of(PrintableText.of(String(decoding: fields.name, as: UTF8.self) + mark))
    }

    /// The width of text that `PrintableText` leaves as it is and `TextWidth.simpleWidth` measures, read from its bytes;
    /// nil for anything else (a control character, an emoji), which is measured as a String.
    static func plainWidth(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var width = 0, index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                guard lead >= 0x20, lead != 0x7F else { return nil }
                width += 1
                index += 1
                continue
            }
            // A multi-byte scalar: two bytes from U+0080, three from U+0800 (String's bytes are valid UTF-8).
            let scalar: UInt32
            if lead < 0xE0 {
                guard index + 1 < bytes.count else { return nil }
                scalar = UInt32(lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                index += 2
            } else if lead < 0xF0 {
                guard index + 2 < bytes.count else { return nil }
                scalar =
                    UInt32(lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
                index += 3
            } else {
                return nil
            }
            guard let scalarWidth = TextWidth.simpleWidth(of: scalar) else { return nil }
            width += scalarWidth
        }
        return width
    }

    /// `2031-10-24`: as `Day.description`.
    static func dateWidth(_ day: Day) -> Int { max(4, digits(day.year)) + 6 }

    /// `22,674`: as `PriceText.format`.
    static func priceWidth(_ price: Int) -> Int {
        let count = digits(price.magnitude)
        return count + (count - 1) / 3 + (price < 0 ? 1 : 0)
    }

    static func digits<Value: BinaryInteger>(_ value: Value) -> Int {
        var count = 1, rest = value.magnitude
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }
}

/// The category cells of the items, as bytes with their widths, each made once: a table has a few dozen kinds.
private struct CategoryCells {
    struct Kind: Hashable {
        let category: Int
        let sub: Int?
    }
    typealias Cells = (category: [UInt8], categoryWidth: Int, sub: [UInt8], subWidth: Int)
    let names: (Int, Int?) -> (String, String)
    /// The kinds seen so far, searched in order: a catalogue has a few dozen, and comparing two numbers beat hashing them
    /// for every row.
    private var made: [(kind: Kind, cells: Cells)] = []

    init(names: @escaping (Int, Int?) -> (String, String)) { self.names = names }

    mutating func cells(_ category: Int, _ sub: Int?) -> Cells {
        let kind = Kind(category: category, sub: sub)
        if let known = made.first(where: { $0.kind == kind }) { return known.cells }
        let (categoryName, subName) = names(category, sub)
        let (c, s) = (PrintableText.of(categoryName), PrintableText.of(subName))
        let cells = (Array(c.utf8), TextWidth.of(c), Array(s.utf8), TextWidth.of(s))
        made.append((kind, cells))
        return cells
    }
}

/// One line of the table at a time, its cells padded to the columns' widths, appended to bytes.
private struct Line {
    let widths: [Int]
    /// The right-aligned column.
    let priceColumn: Int
    /// The text so far (since the last flush).
    var out: [UInt8] = []
    private var column = 0
    /// Blanks owed before the next cell that is not empty: trailing blanks are never written.
    private var pending = 0

    init(widths: [Int], priceColumn: Int) {
        (self.widths, self.priceColumn) = (widths, priceColumn)
        out.reserveCapacity(1 << 16 + 1024)
    }

    /// A cell given as text: made printable, measured, and cut to a fitted column's width.
    mutating func add(_ text: String) {
        var cell = PrintableText.of(text)
        var width = TextWidth.of(cell)
        // Only a fitted column can hold a cell wider than itself.
        if width > widths[column] { (cell, width) = TableFit.cut(cell, to: widths[column]) }
        cell.withUTF8Bytes { add(bytes: $0, width: width) }
    }

    /// A cell given as printable bytes that fit the column.
    mutating func add(bytes: UnsafeBufferPointer<UInt8>, width: Int) {
        add(width: width, empty: bytes.isEmpty) { $0.append(contentsOf: bytes) }
    }

    /// A cell given as bytes.
    mutating func add(bytes: [UInt8], width: Int) {
        add(width: width, empty: bytes.isEmpty) { $0.append(contentsOf: bytes) }
    }

    /// `2031-10-24`, as `Day.description` writes it: laid out in place and appended at once, as every row has one.
    mutating func addDate(_ day: Day) {
        add(width: ItemTable.dateWidth(day), empty: false) { out in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { cell in
                var at = cell.baseAddress!
                at += DecimalDigits.write(UInt64(day.year), minimum: 4, to: at)
                at.pointee = UInt8(ascii: "-")
                at += 1
                at += DecimalDigits.write(UInt64(day.month), minimum: 2, to: at)
                at.pointee = UInt8(ascii: "-")
                at += 1
                at += DecimalDigits.write(UInt64(day.day), minimum: 2, to: at)
                out.append(contentsOf: UnsafeBufferPointer(start: cell.baseAddress, count: at - cell.baseAddress!))
            }
        }
    }

    /// `22,674`, as `PriceText.format` writes it: laid out in place from the last digit, and appended at once.
    mutating func addPrice(_ price: Int) {
        add(width: ItemTable.priceWidth(price), empty: false) { out in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { cell in
                var at = 32, rest = price.magnitude, digits = 0
                repeat {
                    if digits > 0, digits % 3 == 0 {
                        at -= 1
                        cell[at] = UInt8(ascii: ",")
                    }
                    at -= 1
                    cell[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                    digits += 1
                } while rest > 0
                if price < 0 {
                    at -= 1
                    cell[at] = UInt8(ascii: "-")
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: cell[at...]))
            }
        }
    }

    /// Pads to the column and has `write` append the cell, `width` columns wide.
    private mutating func add(width: Int, empty: Bool, write: (inout [UInt8]) -> Void) {
        let padding = widths[column] - width
        let right = column == priceColumn
        if column > 0 { pending += 2 }
        if right { pending += padding }
        if !empty {
            for _ in 0..<pending { out.append(UInt8(ascii: " ")) }
            write(&out)
            pending = 0
        }
        if !right { pending += padding }
        column += 1
    }

    /// Ends the line, dropping its trailing blanks (a cell's own too, as `TextTable` does).
    mutating func end() {
        while out.last == UInt8(ascii: " ") { out.removeLast() }
        out.append(UInt8(ascii: "\n"))
        (column, pending) = (0, 0)
    }

    /// The rule above the total.
    mutating func rule() {
        out.append(
            contentsOf: repeatElement(UInt8(ascii: "-"), count: widths.reduce(0, +) + 2 * max(0, widths.count - 1)))
        out.append(UInt8(ascii: "\n"))
    }

    /// Hands the text so far to `emit`.
    mutating func flush(to emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        out.withUnsafeBufferPointer(emit)
        out.removeAll(keepingCapacity: true)
    }
}
