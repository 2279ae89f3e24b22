import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogStore

/// What became of each input row of one `register` run, for stderr and for `--report FILE`.
public struct ImportRecord: Sendable {
    /// The fate of a row.
    public enum Status: String, Sendable, CaseIterable {
        /// The server confirmed it.
        case added
        /// It waits in the outbox for `sync`.
        case queued
        /// The server refused its batch; it was set aside in `rejected/`.
        case rejected
        /// Its id is already on the server or in the outbox.
        case duplicate
        /// A statement row that is the same purchase as an item already there (typed by a person): not sent.
        case matched
        /// A statement row that may be the same purchase as an item already there: held back for a person to decide.
        case held
        /// A statement row a person (or `--ambiguous skip`) decided to leave out.
        case skipped
        /// It cannot be sent as it is.
        case invalid
        /// The import profile leaves such rows out (income, money sent to a person).
        case excluded
        /// Money moved between the household's own accounts (a card's bill, a top-up, cash from an ATM): not spending.
        case transfer
        /// Valid, but not sent: other rows were invalid, or this was a dry run.
        case notSent = "not-sent"
    }

    /// One row's fate.
    public struct Row: Sendable {
        /// Where it was read.
        public let location: SourceLocation
        /// What became of it.
        public var status: Status
        /// The item, when it was valid.
        public let item: Item?
        /// Why it was not added (problems, the profile's reason, the matched item).
        public var reasons: [String]
        /// The known item a duplicate matched.
        public var matched: KnownItem?
        /// The known items a held row may be, the closest first.
        public var candidates: [KnownItem]
        /// `reasons` in Japanese, when they were worded so (for `--explain` under a Japanese locale; the report keeps English).
        public var japaneseReasons: [String] = []

        /// A row.
        public init(
            location: SourceLocation, status: Status, item: Item? = nil, reasons: [String] = [],
            matched: KnownItem? = nil,
            candidates: [KnownItem] = []
        ) {
            self.location = location
            self.status = status
            self.item = item
            self.reasons = reasons
            self.matched = matched
            self.candidates = candidates
        }
    }

    // A row as stored is 9 bytes in three arrays, so that the report of a 100,000-row import costs under 1 MiB: its
    // line, its status, and its item's offset in the run's `ItemSpool` (`noItem` when it has none there), counted from
    // the first spooled item of its block of 1,024 rows. Its file is that of the run of rows it belongs to (rows come
    // file by file: a few runs a file, as rows set aside are added after all files are read).
    // Its rarer parts wait in `heldItems` (a row appended whole), `reasons`, `matched`, `farPlaces` and `farOffsets`.
    private var lines: [UInt32] = []
    private var statuses: [Status] = []
    private var offsets: [UInt32] = []
    /// Each block's first spooled offset, or -1 while none of its rows has one.
    private var offsetBases: [Int64] = []
    /// Where each file's rows start: the row's number and the file's index in `fileNames`, in row order.
    private var fileRuns: [(start: Int, file: Int)] = []
    private var heldItems: [Int: Item] = [:]
    private var reasons: [Int: [String]] = [:]
    private var matched: [Int: KnownItem] = [:]
    private var candidates: [Int: [KnownItem]] = [:]
    /// Places too far to pack (a line past the 4,294,967,294th), by row.
    private var farPlaces: [Int: SourceLocation] = [:]
    /// Offsets too far from their block's first one (over 4 GiB of spool in 1,024 rows), by row.
    private var farOffsets: [Int: Int64] = [:]
    /// Each file named by a row, once, and its index there.
    private var fileNames: [String] = []
    private var fileIndex: [String: Int] = [:]
    /// The inputs in the order read, which orders the rows of the JSON report.
    public var files: [String]

    private static let far = UInt32.max
    private static let none = UInt32.max
    private static let farOffset = UInt32.max - 1
    private static let blockBits = 10
    private static let noItem: Int64 = -1

    /// An empty report over inputs.
    /// How many valid rows took the profile's default category, no rule or history naming their shop's.
    public var defaultCategoryRows = 0

    public init(files: [String] = []) {
        self.files = files
    }

    /// Every row, in the order added (a spooled row's item is in the spool: see `json(exitCode:spool:)`).
    public var rows: [Row] { statuses.indices.map { row(at: $0, spooled: nil) } }
    /// Whether no row was added.
    public var isEmpty: Bool { statuses.isEmpty }
    /// How many rows there are: a row's number, and a mark for `truncate(to:)`.
    public var count: Int { statuses.count }

    private func row(at index: Int, spooled: Item?) -> Row {
        Row(
            location: location(ofRow: index), status: statuses[index], item: spooled ?? heldItems[index],
            reasons: reasons[index] ?? [], matched: matched[index], candidates: candidates[index] ?? [])
    }

    /// Where row number `index` was read.
    public func location(ofRow index: Int) -> SourceLocation {
        guard let (file, line) = packedPlace(ofRow: index) else {
            return farPlaces[index] ?? SourceLocation(file: "-", line: 0)
        }
        return SourceLocation(file: fileNames[file], line: line)
    }

    /// The index in `fileNames` and the line of a row, or nil when its place is in `farPlaces`.
    private func packedPlace(ofRow index: Int) -> (file: Int, line: Int)? {
        let line = lines[index]
        guard line != Self.far else { return nil }
        // The last run starting at or before the row: runs are few (a few per input file).
        var low = 0, high = fileRuns.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if fileRuns[middle].start <= index { low = middle } else { high = middle - 1 }
        }
        return (fileRuns[low].file, Int(line))
    }

    /// The spool offset of row number `index`'s item, or nil when it has none there.
    private func spoolOffset(ofRow index: Int) -> Int64? {
        switch offsets[index] {
        case Self.none: return nil
        case Self.farOffset: return farOffsets[index]
        case let delta: return offsetBases[index >> Self.blockBits] + Int64(delta)
        }
    }

    /// Adds a row of status `notSent` for an item kept in a spool at `offset`; returns the row's number.
    @discardableResult
    public mutating func appendSpooled(at location: SourceLocation, offset: Int64) -> Int {
        store(location, .notSent, item: offset)
    }

    @discardableResult
    private mutating func store(_ location: SourceLocation, _ status: Status, item offset: Int64) -> Int {
        let row = statuses.count
        // Rows come file by file: the last run's file is found without hashing its name for every row.
        if fileRuns.last.map({ fileNames[$0.file] }) != location.file {
            let file: Int
            if let known = fileIndex[location.file] {
                file = known
            } else {
                file = fileNames.count
                fileNames.append(location.file)
                fileIndex[location.file] = file
            }
            fileRuns.append((row, file))
        }
        if location.line >= 0, location.line < Int(Self.far) {
            lines.append(UInt32(location.line))
        } else {
            lines.append(Self.far)
            farPlaces[row] = location
        }
        statuses.append(status)
        let block = row >> Self.blockBits
        if block == offsetBases.count { offsetBases.append(-1) }
        if offset == Self.noItem {
            offsets.append(Self.none)
        } else {
            if offsetBases[block] < 0 { offsetBases[block] = offset }
            let delta = offset - offsetBases[block]
            if delta >= 0, delta < Int64(Self.farOffset) {
                offsets.append(UInt32(delta))
            } else {
                offsets.append(Self.farOffset)
                farOffsets[row] = offset
            }
        }
        return row
    }

    /// Forgets the rows from number `mark` on.
    public mutating func truncate(to mark: Int) {
        lines.removeSubrange(mark...)
        statuses.removeSubrange(mark...)
        offsets.removeSubrange(mark...)
        offsetBases.removeSubrange(min(offsetBases.count, (mark + (1 << Self.blockBits) - 1) >> Self.blockBits)...)
        // A partial block whose kept rows have no spooled item starts again from the next one (its base may have come
        // from a row now gone, and a spool truncated with the rows gives lower offsets from here).
        let blockStart = (mark >> Self.blockBits) << Self.blockBits
        if blockStart < mark, !offsets[blockStart..<mark].contains(where: { $0 != Self.none }) {
            offsetBases[offsetBases.count - 1] = -1
        }
        while let last = fileRuns.last, last.start >= mark { fileRuns.removeLast() }
        heldItems = heldItems.filter { $0.key < mark }
        reasons = reasons.filter { $0.key < mark }
        matched = matched.filter { $0.key < mark }
        candidates = candidates.filter { $0.key < mark }
        farPlaces = farPlaces.filter { $0.key < mark }
        farOffsets = farOffsets.filter { $0.key < mark }
    }

    /// Gives every row of one status another (rows marked ahead of a step that then failed).
    public mutating func replaceStatus(_ old: Status, with new: Status) {
        for index in statuses.indices where statuses[index] == old { statuses[index] = new }
    }

    /// Changes the status of row number `index`, adding why and what it matched (or may be).
    public mutating func mark(
        row index: Int, _ status: Status, reasons: [String] = [], matched: KnownItem? = nil,
        candidates: [KnownItem] = []
    ) {
        guard statuses.indices.contains(index) else { return }
        statuses[index] = status
        if !reasons.isEmpty { self.reasons[index, default: []] += reasons }
        if let matched { self.matched[index] = matched }
        if !candidates.isEmpty { self.candidates[index] = candidates }
    }

    /// Adds a row.
    public mutating func append(_ row: Row) {
        if let item = row.item { heldItems[count] = item }
        if !row.reasons.isEmpty { reasons[count] = row.reasons }
        if let match = row.matched { matched[count] = match }
        if !row.candidates.isEmpty { candidates[count] = row.candidates }
        store(row.location, row.status, item: Self.noItem)
    }

    /// Adds the problems of invalid rows, one row per location.
    public mutating func appendInvalid(_ problems: [ValidationProblem]) {
        var seen: [SourceLocation: Int] = [:]
        for problem in problems {
            let reason = (problem.field.map { "\($0): " } ?? "") + problem.message
            if let index = seen[problem.location] {
                reasons[index, default: []].append(reason)
            } else {
                seen[problem.location] = count
                append(Row(location: problem.location, status: .invalid, reasons: [reason]))
            }
        }
    }

    /// How many rows have a status.
    public func count(_ status: Status) -> Int { counts()[status] ?? 0 }

    /// The rows of every status, in one pass (a pass per status took seconds over 100,000 rows).
    private func counts() -> [Status: Int] {
        var counts: [Status: Int] = [:]
        for status in statuses { counts[status, default: 0] += 1 }
        return counts
    }

    /// The same counts in Japanese (`追加 3件、送信待ち 1件、…`), for a Japanese locale.
    public var japaneseSummary: String {
        let parts: [(Status, String)] = [
            (.added, "追加"), (.queued, "送信待ち"), (.rejected, "サーバーが拒否"), (.duplicate, "登録済み (同じID)"),
            (.matched, "登録済みの項目と一致 (送信せず)"), (.held, "確認待ち"), (.skipped, "決定どおり飛ばした"),
            (.invalid, "不正"), (.transfer, "自分の口座間の振替 (支出ではない)"), (.excluded, "プロファイルで除外"),
            (.notSent, "有効だが未送信"),
        ]
        let tally = counts()
        let shown = parts.compactMap { status, words in tally[status].map { "\(words) \($0)件" } }
        return shown.isEmpty ? "行なし" : shown.joined(separator: "、")
    }

    /// "3 added, 1 queued, 2 skipped as duplicates, 1 invalid": the non-zero counts, for the last line on stderr.
    public var summary: String {
        let parts: [(Status, String)] = [
            (.added, "added"), (.queued, "queued in the outbox"), (.rejected, "refused by the server"),
            (.duplicate, "skipped as already there (same id)"),
            (.matched, "matched to items already there (not sent)"),
            (.held, "held for you to decide"), (.skipped, "skipped as decided"), (.invalid, "invalid"),
            (.transfer, "transfer"),
            (.excluded, "left out by the profile"), (.notSent, "valid but not sent"),
        ]
        let tally = counts()
        let shown = parts.compactMap { status, words in
            tally[status].map {
                status == .transfer
                    ? "\($0) transfer\($0 == 1 ? "" : "s") between your own accounts (not spending)" : "\($0) \(words)"
            }
        }
        return shown.isEmpty ? "no rows" : shown.joined(separator: ", ")
    }

    /// The report as JSON: counts per status, then every row with its file, line and status, in input order.
    public func json(exitCode: Int32, spool: ItemSpool? = nil) throws -> String {
        var out = ""
        try write(exitCode: exitCode, spool: spool) { out += $0 }
        return out
    }

    /// The same JSON, handed to `emit` in pieces of about 64 KiB, so a large report is never held whole; items
    /// of spooled rows are read back from `spool`.
    public func write(exitCode: Int32, spool: ItemSpool?, to emit: (String) throws -> Void) throws {
        var out = "{\n  \"exitCode\": \(exitCode),\n  \"defaultCategoryRows\": \(defaultCategoryRows),\n  \"counts\": {"
        let tally = counts()
        out +=
            Status.allCases.map { "\"\($0.rawValue)\": \(tally[$0] ?? 0)" }.joined(separator: ", ")
            + "},\n  \"rows\": ["
        let order = Dictionary(files.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let fileOrder = fileNames.map { order[$0] ?? files.count }
        func place(_ index: Int) -> (Int, Int, Int) {
            if let (file, line) = packedPlace(ofRow: index) { return (fileOrder[file], line, index) }
            let location = location(ofRow: index)
            return (order[location.file] ?? files.count, location.line, index)
        }
        let sorted = statuses.indices.sorted { place($0) < place($1) }
        var reader = try spool?.reader()
        for (position, index) in sorted.enumerated() {
            let spooledItem = try spoolOffset(ofRow: index).flatMap { try reader?.record(at: $0).item }
            let row = row(at: index, spooled: spooledItem)
            out += position == 0 ? "\n    {" : ",\n    {"
            out += "\"file\": "
            ItemJSON.appendString(row.location.file, to: &out)
            out += ", \"line\": \(row.location.line), \"status\": \"\(row.status.rawValue)\""
            if let item = row.item { out += ", \"item\": " + ItemJSON.object(item) }
            if !row.reasons.isEmpty {
                out += ", \"reasons\": ["
                for (number, reason) in row.reasons.enumerated() {
                    if number > 0 { out += ", " }
                    ItemJSON.appendString(reason, to: &out)
                }
                out += "]"
            }
            if let matched = row.matched {
                out +=
                    ", \"matched\": {\"in\": \"\(matched.place.rawValue)\", \"item\": \(ItemJSON.object(matched.item))}"
            }
            if !row.candidates.isEmpty {
                out +=
                    ", \"candidates\": ["
                    + row.candidates.map { "{\"in\": \"\($0.place.rawValue)\", \"item\": \(ItemJSON.object($0.item))}" }
                    .joined(separator: ", ") + "]"
            }
            out += "}"
            if out.utf8.count >= 1 << 16 {
                try emit(out)
                out = ""
            }
        }
        try emit(out + (isEmpty ? "]\n}\n" : "\n  ]\n}\n"))
    }
}
