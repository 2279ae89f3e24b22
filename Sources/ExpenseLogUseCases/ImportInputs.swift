import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// One input of an import: its name in messages, its format when the caller knows it, and its bytes.
public struct ImportSource {
    /// The name problems are reported under (`<stdin>` for standard input).
    public let name: String
    /// The format, when its extension or an option says; nil to detect it.
    public let format: InputFormat?
    /// The bytes, a chunk at a time.
    public let input: ChunkedInput

    /// A source as given.
    public init(name: String, format: InputFormat?, input: @escaping ChunkedInput) {
        (self.name, self.format, self.input) = (name, format, input)
    }
}

/// What an import read from all its inputs: the valid items (on disk), and every problem, exclusion and warning.
public struct ImportInputs {
    /// Every valid item, in input order, on disk (a large import is never held in memory); each record's tag is its
    /// row in the report, which holds where it was read.
    public let spool: ItemSpool
    /// The months of the valid items.
    public var months: Set<YearMonth> = []
    /// The first and the last day of the valid items.
    public var days: ClosedRange<Day>?
    /// The report rows whose ids were made from their content (`DerivedID`), for `--explain`.
    public var madeIDRows = RowSet()
    /// The ids made rows would have had before accounts counted (`ItemValidator.legacyID`), by report row: an item an
    /// earlier version imported has one of them.
    public var legacyIDs: [Int: String] = [:]
    /// The report rows read through a profile of a foreign layout (a statement's), given or recognised.
    public var foreignRows = RowSet()
    /// Where a profile found each row's category, when no column gave it (for `--explain`; the first 10,000 rows).
    public var categoryOrigins: [(location: SourceLocation, origin: String, japanese: String?)] = []
    /// Each input recognised as a built-in profile's layout (no `--profile` given): its name, and the profile's.
    public var detected: [(input: String, profile: String, description: String)] = []
    /// Rows an earlier input of the run already had (overlapping statements given together), reported as duplicates.
    public var repeated: [ImportRecord.Row] = []
    /// Every problem: syntax, layout and validation.
    public var problems: [ValidationProblem] = []
    /// Rows the profile left out.
    public var excluded: [ExcludedRow] = []
    /// The shops whose rows took the profile's default category (no rule or history names theirs), in input order:
    /// the first row of each, and how many rows it has.
    public var defaultedShops: [(shop: String, first: SourceLocation, item: Item, rows: Int)] = []
    /// How many rows took the default category, in all.
    public var defaultedRows = 0
    /// Where each shop of `defaultedShops` is in it.
    var defaultedIndex: [String: Int] = [:]
    /// How many rows of each input took the default category, to forget an input refused whole.
    var defaultedRowsByFile: [String: Int] = [:]
    /// Guesses the readers made, shown as warnings.
    public var warnings: [ValidationProblem] = []
    /// Whether a row says who paid (a JSON item's `payer`, `--payer`, a profile's): the server is asked whether it
    /// keeps it.
    public var sharing = false

    /// Reads and validates every source in order, each valid item going to `spool` and a row of `report`; a file
    /// refused whole leaves nothing behind. A row without an id gets a `DerivedID` when `derivesIDs` (else a random
    /// one), and a row an earlier source already had is reported as a duplicate. `progress` gets the count of rows
    /// read after each source. Rethrows what the sources throw (an unreadable file) and the spool's errors.
    /// With no `profile`, a CSV input in a built-in profile's layout is read with it; `learned` is the category each
    /// shop last had, for the profiles that learn categories; `shopRules` are the person's (`expense-log rule`); `keepsTransfers` reads the profile's transfers as spending;
    /// `account` names the card or account every input is of (`--account`), for the made ids.
    public static func read(
        _ sources: [ImportSource], profile: ImportProfile?, encoding: TextEncoding?,
        catalogue: CategoryCatalogue = .standard, derivesIDs: Bool = true,
        learned: [String: LearnedCategory] = [:], shopRules: [ShopRule] = [], keepsTransfers: Bool = false,
        account: String? = nil, payer: String? = nil,
        into spool: ItemSpool,
        report: inout ImportRecord, progress: (Int) -> Void = { _ in }
    ) throws -> ImportInputs {
        var reading = profile ?? .native
        reading.learned = learned
        reading.shopRules = ShopRuleBook(shopRules)
        reading.keepsTransfers = keepsTransfers
        if let account { reading.account = account }
        if let payer { reading.payer = payer }
        let rowsPayer = reading.payer
        var inputs = ImportInputs(spool: spool)
        // Each row is validated as it is read and a valid one goes to the spool: the input is never held as
        // records, drafts or items.
        var validator = ItemValidator(catalogue: catalogue, derivesIDs: derivesIDs)
        var rows = 0
        var failure: (any Error)?
        for source in sources {
            validator.beginInput(source.name)
            let mark = (validator.mark, spool.mark, report.count, rows)
            var months: Set<YearMonth> = []
            var repeatedHere: [ImportRecord.Row] = []
            let read = try InputReader.read(
                source.input, name: source.name, format: source.format ?? (profile == nil ? nil : .csv),
                encoding: encoding, profile: reading, detect: profile == nil
            ) { read in
                rows += 1
                guard failure == nil else { return }
                var draft = read
                if draft.payer == nil { draft.payer = rowsPayer }
                let (item, madeID): (Item, Bool)
                switch validator.validate(draft) {
                case .invalid: return
                case .valid(let valid, let made): (item, madeID) = (valid, made)
                case .repeated(let repeated, let earlier):
                    let row = ImportRecord.Row(
                        location: draft.location, status: .duplicate, item: repeated,
                        reasons: [
                            "the same row as one of \(earlier), read earlier in this run (\(DerivedID.explanation))"
                        ])
                    report.append(row)
                    repeatedHere.append(row)
                    return
                }
                guard report.count < Int(Int32.max) else {
                    failure = InputError(
                        path: source.name,
                        reason: "it has more rows than one run can register (2,147,483,647); split it")
                    return
                }
                if item.hasShare { inputs.sharing = true }
                do {
                    let offset = try spool.append(item, tag: Int32(report.count))
                    if madeID { inputs.madeIDRows.insert(report.count) }
                    if let legacy = validator.legacyID { inputs.legacyIDs[report.count] = legacy }
                    if draft.categoryIsDefault {
                        inputs.noteDefaulted(item, at: draft.location, readName: draft.readName)
                    }
                    if let origin = draft.categoryOrigin, inputs.categoryOrigins.count < 10_000 {
                        inputs.categoryOrigins.append((draft.location, origin, draft.categoryOriginJapanese))
                    }
                    report.appendSpooled(at: draft.location, offset: offset)
                    months.insert(item.date.yearMonth)
                    inputs.days =
                        inputs.days.map { min($0.lowerBound, item.date)...max($0.upperBound, item.date) } ?? item
                        .date...item.date
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            if read.refusedWhole {
                validator.rollBack(to: mark.0)
                inputs.madeIDRows.removeAll(from: mark.2)
                inputs.legacyIDs = inputs.legacyIDs.filter { $0.key < mark.2 }
                inputs.forgetDefaulted(in: source.name)
                inputs.categoryOrigins.removeAll { $0.location.file == source.name }
                try spool.truncate(to: mark.1)
                report.truncate(to: mark.2)
                rows = mark.3
            } else {
                inputs.months.formUnion(months)
                inputs.repeated += repeatedHere
                if let detected = read.detected {
                    inputs.detected.append((source.name, detected.name, detected.profile.description))
                }
                if profile != nil || read.detected != nil {
                    for row in mark.2..<report.count { inputs.foreignRows.insert(row) }
                }
            }
            inputs.problems.append(contentsOf: read.problems)
            inputs.excluded.append(contentsOf: read.excluded)
            inputs.warnings.append(contentsOf: read.warnings)
            progress(rows + inputs.excluded.count)
        }
        inputs.problems.append(contentsOf: validator.problems)
        return inputs
    }
}

extension ImportInputs {
    /// Counts a row that took the default category under its shop (its name without the branch); at most 1,000 shops
    /// are named, a statement of more is not one a person goes through shop by shop.
    mutating func noteDefaulted(_ item: Item, at location: SourceLocation, readName: String?) {
        // Grouped by the shop's first word (`ENEOS 渋谷SS` and `ENEOS 目黒SS` are one shop to give a rule), shown as the first row says it.
        let shop = PurchaseName(readName ?? item.name).firstWord
        defaultedRows += 1
        defaultedRowsByFile[location.file, default: 0] += 1
        if let index = defaultedIndex[shop] {
            defaultedShops[index].rows += 1
        } else if defaultedShops.count < 1_000 {
            defaultedIndex[shop] = defaultedShops.count
            defaultedShops.append((PurchaseName.shown(readName ?? item.name), location, item, 1))
        }
    }

    /// Forgets the shops counted in an input refused whole.
    mutating func forgetDefaulted(in file: String) {
        defaultedRows -= defaultedRowsByFile.removeValue(forKey: file) ?? 0
        // A shop first seen in the refused input goes; one seen first elsewhere keeps its count (it may be a row more).
        let kept = defaultedShops.indices.filter { defaultedShops[$0].first.file != file }
        let moved = Dictionary(uniqueKeysWithValues: kept.enumerated().map { ($1, $0) })
        defaultedIndex = defaultedIndex.compactMapValues { moved[$0] }
        defaultedShops = kept.map { defaultedShops[$0] }
    }

    /// Validates items a person gave on the command line (`add`), each as one row of `report`, the valid ones going to
    /// `spool`; a row without an id gets a random one (a typed purchase is a new one).
    public static func read(
        drafts: [ItemDraft], catalogue: CategoryCatalogue, into spool: ItemSpool,
        report: inout ImportRecord
    ) throws -> ImportInputs {
        var inputs = ImportInputs(spool: spool)
        var validator = ItemValidator(catalogue: catalogue, derivesIDs: false)
        for draft in drafts {
            validator.beginInput(draft.location.file)
            guard case .valid(let item, _) = validator.validate(draft) else { continue }
            report.appendSpooled(at: draft.location, offset: try spool.append(item, tag: Int32(report.count)))
            inputs.months.insert(item.date.yearMonth)
        }
        inputs.problems = validator.problems
        return inputs
    }
}

/// A set of report rows, a bit each, so marking every row of a large import costs an eighth of a byte per row.
public struct RowSet: Sendable {
    private var words: [UInt64] = []

    /// An empty set.
    public init() {}

    /// Adds a row.
    public mutating func insert(_ row: Int) {
        while words.count <= row / 64 { words.append(0) }
        words[row / 64] |= 1 << UInt64(row % 64)
    }

    /// Whether the set holds no row.
    public var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    /// Whether the set holds a row.
    public func contains(_ row: Int) -> Bool {
        row / 64 < words.count && words[row / 64] & 1 << UInt64(row % 64) != 0
    }

    /// Removes every row from `start` on.
    public mutating func removeAll(from start: Int) {
        guard start / 64 < words.count else { return }
        words[start / 64] &= (1 << UInt64(start % 64)) - 1
        words.removeSubrange((start / 64 + 1)...)
    }
}
