import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogStore

/// A row an import profile leaves out on purpose (a transfer, income), reported but never sent.
public struct ExcludedRow: Sendable, Equatable {
    /// Where the row is.
    public let location: SourceLocation
    /// Why it is left out.
    public let reason: String
    /// Whether it is money moved between the household's own accounts (a profile's `transfers`).
    public var isTransfer = false
    /// `reason` in Japanese, when the tool worded it (a profile's own reasons are its author's words).
    public var japaneseReason: String?

    /// A row left out, for `reason` (also in Japanese when `japanese` is given).
    public init(location: SourceLocation, reason: String, isTransfer: Bool = false, japanese: String? = nil) {
        (self.location, self.reason, self.isTransfer, self.japaneseReason) = (location, reason, isTransfer, japanese)
    }
}

/// What reading one input gave: drafts to validate, problems found while reading, and rows left out.
public struct ReadOutcome: Sendable {
    /// The items as read, in input order.
    public var drafts: [ItemDraft] = []
    /// Syntax and layout problems, at their lines.
    public var problems: [ValidationProblem] = []
    /// Rows the profile's `skip` rules left out.
    public var excluded: [ExcludedRow] = []
    /// Guesses worth a look, such as an unquoted `1,500` read as one price.
    public var warnings: [ValidationProblem] = []
    /// A syntax error made the whole input unreadable: its only problem says where, and any drafts already handed
    /// out must be dropped (a broken file is refused whole, never sent in part).
    public var refusedWhole = false
    /// The built-in profile the input was recognised as and read with, when no profile was given.
    public var detected: (name: String, profile: ImportProfile)?
    /// How many refunds of each payment were read (`refundIDSuffix`): the second refund of one payment is `-R2`.
    var refundsOf: [String: Int] = [:]

    /// Runs a streaming read and keeps its drafts in the outcome (none when the input was refused whole).
    static func collecting(_ read: ((ItemDraft) -> Void) -> ReadOutcome) -> ReadOutcome {
        var drafts: [ItemDraft] = []
        var outcome = read { drafts.append($0) }
        if !outcome.refusedWhole { outcome.drafts = drafts }
        return outcome
    }
}

extension ImportProfile {
    /// Reads UTF-8 CSV text with this profile: the header names the columns, each later record becomes a draft.
    public func readCSV(_ text: String, name: String) -> ReadOutcome {
        ReadOutcome.collecting { readCSV(Array(text.utf8), name: name, each: $0) }
    }

    /// Reads UTF-8 CSV bytes with this profile, handing each draft to `each` as soon as its record is read, so the
    /// drafts of a large file are never all held; the outcome carries no drafts.
    public func readCSV(_ bytes: [UInt8], name: String, each: (ItemDraft) -> Void) -> ReadOutcome {
        var reader = CSV.Reader(bytes)
        do {
            return try readCSV(&reader, name: name, each: each)
        } catch {
            return ReadOutcome(
                problems: [.wholeFile(SourceLocation(file: name, line: 1), "\(error)")], refusedWhole: true)
        }
    }

    /// As `readCSV(_:name:each:)`, from a reader; rethrows what the reader's source throws.
    public func readCSV(_ reader: inout CSV.Reader, name: String, each: (ItemDraft) -> Void) throws -> ReadOutcome {
        var outcome = ReadOutcome()
        func problem(_ line: Int, _ field: String?, _ message: String) -> ValidationProblem {
            ValidationProblem(location: SourceLocation(file: name, line: line), field: field, message: message)
        }
        do {
            for _ in 0..<skipRows { _ = try reader.next() }
            // A header-less layout's titles come from the profile: its first record is already a row.
            var header = self.header.map { CSV.Record(line: 0, fields: $0) }
            if header == nil { header = try reader.next() }
            while let blank = header, blank.isBlank { header = try reader.next() }
            guard let header else { return outcome }
            let (resolved, messages) = Layout.resolve(header, profile: self)
            guard let layout = resolved else {
                outcome.problems = messages.map {
                    .wholeFile(SourceLocation(file: name, line: header.line), $0.0, japanese: $0.1)
                }
                return outcome
            }
            if !layout.ignored.isEmpty {
                var warning = problem(
                    header.line, nil,
                    "ignored the column\(layout.ignored.count == 1 ? "" : "s") "
                        + layout.ignored.map { "'\($0)'" }.joined(separator: ", ")
                        + " (an item has \(InputReader.fields.joined(separator: ", ")))")
                warning.japaneseMessage =
                    "欄 " + layout.ignored.map { "「\($0)」" }.joined(separator: "、") + " は読みませんでした (項目の欄は "
                    + InputReader.fields.joined(separator: "、") + ")"
                outcome.warnings.append(warning)
            }
            var folding = CellFolding()
            while let record = try reader.next() {
                // Spreadsheets save empty rows, often as `,,,,` to the sheet's width: nothing to read there.
                if record.isBlank { continue }
                read(record, layout: layout, name: name, folding: &folding, into: &outcome, each: each)
            }
        } catch let error as CSV.SyntaxError {
            return ReadOutcome(
                problems: [
                    .wholeFile(
                        SourceLocation(file: name, line: error.line), "invalid CSV: \(error.message)",
                        japanese: "CSV として読めません: \(error.message)")
                ],
                refusedWhole: true)
        }
        return outcome
    }

    /// One record after the header: a draft, a problem, or a row the profile leaves out.
    private func read(
        _ record: CSV.Record, layout: Layout, name: String, folding: inout CellFolding, into outcome: inout ReadOutcome,
        each: (ItemDraft) -> Void
    ) {
        let location = SourceLocation(file: name, line: record.line)
        guard let cells = layout.cells(of: record) else {
            if skipsOtherShapes {
                outcome.excluded.append(
                    ExcludedRow(
                        location: location,
                        reason: "a row of another shape (\(record.fields.count) fields, "
                            + "not \(layout.width)): a card-holder, section or total row",
                        japanese: "形の違う行 (欄が\(layout.width)でなく\(record.fields.count)): カード名義、区切りや合計の行"))
                return
            }
            outcome.problems.append(
                ValidationProblem(
                    location: location, field: nil,
                    message: "has \(record.fields.count) fields "
                        + "but the header has \(layout.width) (quote a field that holds a comma)",
                    japanese: "欄が\(record.fields.count)ありますが、見出しは\(layout.width)です (カンマを含む欄は引用符で囲んでください)"))
            return
        }
        if cells.count != record.fields.count, let price = layout.price {
            outcome.warnings.append(
                ValidationProblem(
                    location: location, field: ItemField.price.rawValue,
                    message: "read the unquoted '\(cells[price])' as one price; quote the "
                        + "field if a comma belongs to another column",
                    japanese: "引用符のない「\(cells[price])」を一つの金額として読みました。カンマが別の欄のものなら引用符で囲んでください"))
        }
        if skipsOtherShapes, let date = layout.cell(.date, of: cells),
            (dateFormat?.day(from: date) ?? Day(written: date)) == nil
        {
            let empty = date.trimmingSpaces().isEmpty
            outcome.excluded.append(
                ExcludedRow(
                    location: location,
                    reason: empty
                        ? "a row with no date: a section or total row"
                        : "a row whose first field is no date: a card-holder or section row",
                    japanese: empty ? "日付のない行: 区切りや合計の行" : "最初の欄が日付でない行: カード名義や区切りの行"))
            return
        }
        func test(_ match: ColumnMatch, _ position: Int, _ regexes: [Regex<AnyRegexOutput>]?) -> Bool {
            match.matches(folded: folding.folded(cells[position]), regexes: regexes)
        }
        if let index = skip.indices.first(where: {
            (!keepsTransfers || !skip[$0].isTransfer)
                && test(skip[$0].match, layout.tested[$0], layout.skipRegexes[$0])
        }) {
            outcome.excluded.append(
                ExcludedRow(location: location, reason: skip[index].reason, isTransfer: skip[index].isTransfer))
            return
        }
        // The person's rule for the shop comes first: a transfer is left out, a category wins over the profile's.
        // Only a statement's rows (a profile's): the native layout is expense-log's own, its rows as they were kept.
        let shopRule =
            shopRules.isEmpty || name == ImportProfile.native.name
            ? nil : layout.cell(.name, of: cells).flatMap { shopRules.rule(for: $0) }
        if let shopRule, shopRule.transfer, !keepsTransfers {
            outcome.excluded.append(
                ExcludedRow(
                    location: location,
                    reason: "a transfer between your own accounts, by your rule for "
                        + "\(shopRule.shop) (`expense-log rule list`)", isTransfer: true,
                    japanese: "\(shopRule.shop) の規則による自分の口座間の振替 (`expense-log rule list`)"))
            return
        }
        // The category comes from the first matching rule that gives one, the name from the first that gives one: a rule
        // that only renames does not hide the category rules after it.
        var (categoryRule, renaming): (CategoryRule?, String?) = (nil, nil)
        for index in rules.indices where categoryRule == nil || renaming == nil && layout.renames {
            guard test(rules[index].match, layout.ruled[index], layout.ruleRegexes[index]) else { continue }
            if categoryRule == nil, rules[index].category != nil { categoryRule = rules[index] }
            if renaming == nil { renaming = rules[index].name }
        }
        let refund = refunds.map { test($0, layout.refundColumn ?? 0, layout.refundRegexes) } ?? true
        switch draft(
            from: cells, layout: layout, rule: categoryRule, shopRule: shopRule, renaming: renaming, refund: refund,
            location: location)
        {
        case .success(var draft):
            // Two partial refunds of one payment carry the same number: each is a row of its own.
            if let suffix = refundIDSuffix, case .text(let id) = draft.id, id.hasSuffix(suffix) {
                outcome.refundsOf[id, default: 0] += 1
                if let count = outcome.refundsOf[id], count > 1 { draft.id = .text(id + String(count)) }
            }
            each(draft)
        case .failure(.excluded(let reason, let japanese)):
            outcome.excluded.append(ExcludedRow(location: location, reason: reason, japanese: japanese))
        case .failure(.invalid(let found)): outcome.problems.append(found)
        }
    }

    /// Why a row gives no draft.
    private enum RowFailure: Error {
        case invalid(ValidationProblem)
        /// No rule gives it a category, and the profile leaves such rows out.
        case excluded(String, String?)
    }

    /// `refund` says whether money in on this row is a refund (`refunds`), or money that is no spending at all.
    private func draft(
        from cells: [String], layout: Layout, rule: CategoryRule?, shopRule: ShopRule?, renaming: String?, refund: Bool,
        location: SourceLocation
    ) -> Result<ItemDraft, RowFailure> {
        func problem(_ field: ItemField, _ message: String, _ japanese: String? = nil) -> Result<ItemDraft, RowFailure>
        {
            .failure(
                .invalid(
                    ValidationProblem(location: location, field: field.rawValue, message: message, japanese: japanese)))
        }
        func cell(_ field: ItemField) -> String? { layout.cell(field, of: cells) }
        var draft = ItemDraft(location: location)
        draft.isCSVRow = true
        draft.account = account
        draft.id = cell(.id).map(RawValue.text) ?? .missing
        draft.name = cell(.name).map(RawValue.text) ?? .missing
        draft.categorySub = cell(.categorySub).map(RawValue.text) ?? .missing
        draft.category = cell(.category).map(RawValue.text) ?? .missing

        if let text = cell(.date) {
            if let dateFormat, !text.isBlank {
                guard let day = dateFormat.day(from: text) else {
                    return problem(.date, dateFormat.problem(text), dateFormat.japaneseProblem(text))
                }
                draft.date = .text(day.compact)
            } else {
                draft.date = .text(text)
            }
        }
        let (read, deposited) = amount(cell(.price), deposits: layout.priceIn.map { cells[$0] })
        if deposited, !refund, let column = refunds?.column {
            return .failure(
                .excluded(
                    "money in that is no refund (\(column) is not a refund's): not spending",
                    "返金でない入金 (\(column) が返金のものではない): 支出ではありません"))
        }
        // A refund that carries the number of the payment it refunds (PayPay's 返金) is a row of its own.
        if deposited, let suffix = refundIDSuffix, case .text(let id) = draft.id, !id.trimmingSpaces().isEmpty {
            draft.id = .text(id.trimmingSpaces() + suffix)
        }
        switch read {
        case .none:
            if skipsNoAmount { return .failure(.excluded("no amount", "金額なし")) }
            if cell(.price) != nil { draft.price = .text("") }
        case .value(let value):
            if skipsNoAmount, value == 0 { return .failure(.excluded("an amount of 0 yen", "0円")) }
            draft.price = .integer(invertSign ? -value : value)
        case .text(let text):
            draft.price = invertSign ? PriceText.parse(text).map { RawValue.integer(-$0) } ?? .text(text) : .text(text)
        }
        if let renamed = renaming {
            if case .text(let read) = draft.name { draft.readName = read }
            draft.name = .text(renamed)
        }
        if truncateNames, case .text(let text) = draft.name {
            let trimmed = text.trimmingSpaces()
            if trimmed.count > ItemDraft.maxNameLength {
                draft.name = .text(String(trimmed.prefix(ItemDraft.maxNameLength)))
            }
        }
        if draft.category.isAbsent,
            !rules.isEmpty || defaultCategory != nil || learnsCategories || shopRule?.category != nil
        {
            if let shopRule, let category = shopRule.category {
                draft.category = .integer(category)
                if draft.categorySub.isAbsent { draft.categorySub = shopRule.sub.map(RawValue.integer) ?? .null }
                draft.categoryOrigin =
                    "category \(category) from your rule for \(shopRule.shop) (`expense-log rule list`)"
                draft.categoryOriginJapanese = "項目 \(category): \(shopRule.shop) の規則から (`expense-log rule list`)"
            } else if let rule, let category = rule.category {
                draft.category = .integer(category)
                if draft.categorySub.isAbsent { draft.categorySub = rule.sub.map(RawValue.integer) ?? .null }
                draft.categoryOrigin = "category \(category) from the profile's rule on \(rule.match.column)"
                draft.categoryOriginJapanese = "項目 \(category): プロファイルの \(rule.match.column) の規則から"
            } else if learnsCategories, case .text(let name) = draft.name,
                let known = learned[PurchaseName(draft.readName ?? name).key]
            {
                // The category this shop had last time, on the server or in the cache.
                draft.category = .integer(known.category)
                if draft.categorySub.isAbsent { draft.categorySub = known.sub.map(RawValue.integer) ?? .null }
                draft.categoryOrigin =
                    "category \(known.category) from history: the shop's latest item (\(PurchaseName.shown(draft.readName ?? name))) has it"
                draft.categoryOriginJapanese =
                    "項目 \(known.category): 履歴から (店の最新の項目 \(PurchaseName.shown(draft.readName ?? name)) と同じ)"
            } else if let defaultCategory {
                draft.category = .integer(defaultCategory)
                draft.categoryIsDefault = learnsCategories
                draft.categoryOrigin =
                    "category \(defaultCategory), the profile's default"
                    + (learnsCategories
                        ? " (no rule gives one, and the shop has no item in the cache yet)" : " (no rule gives one)")
                draft.categoryOriginJapanese =
                    "項目 \(defaultCategory): プロファイルの既定"
                    + (learnsCategories ? " (規則がなく、キャッシュにその店の項目もまだない)" : " (規則がない)")
                if draft.categorySub.isAbsent { draft.categorySub = defaultSub.map(RawValue.integer) ?? .null }
            } else {
                // Each tested column once, in header order, with the cell the rules saw (found as the rules find it).
                var positions: [Int: String] = [:]
                for (rule, position) in zip(rules, layout.ruled) where positions[position] == nil {
                    positions[position] = rule.match.column
                }
                let seen = positions.sorted { $0.key < $1.key }.map { position, column in
                    "\(column) '\(cells[position])'"
                }
                let unmatched = "no rule of the \(self.name) profile matches (\(seen.joined(separator: ", ")))"
                if excludesUnmatched {
                    let fix =
                        ImportProfile.builtinSources[self.name] != nil
                        ? "a profile that extends it with a rule imports such rows"
                        : "a rule for them in the profile imports such rows"
                    return .failure(
                        .excluded(
                            unmatched + "; " + fix,
                            "\(self.name) プロファイルのどの規則にも当てはまりません (\(seen.joined(separator: "、")))。"
                                + "規則を加えたプロファイルで取り込めます"))
                }
                return problem(
                    .category,
                    unmatched
                        + "; write a profile with a rule or a defaultCategory for it (see docs/import-profiles.md), "
                        + "or use --skip-invalid",
                    "\(self.name) プロファイルのどの規則にも当てはまりません (\(seen.joined(separator: "、")))。規則か defaultCategory の"
                        + "あるプロファイルを書くか (docs/import-profiles.md)、--skip-invalid を使ってください")
            }
        }
        return .success(draft)
    }

    /// What an amount cell (or an out − in pair) says.
    private enum Amount {
        /// Empty, `-` or `—`: no amount at all.
        case none
        /// A whole number of yen.
        case value(Int)
        /// Text that is no amount, left for validation to name.
        case text(String)
    }

    /// The marks statements put where there is no amount.
    static let noAmountMarks: Set<String> = ["", "-", "—", "－", "―", "‐", "ー"]

    /// The amount, and whether it is money in (only a deposit).
    private func amount(_ out: String?, deposits: [String]) -> (Amount, deposited: Bool) {
        func read(_ text: String?) -> Amount {
            guard let text else { return .none }
            let trimmed = text.trimmingSpaces()
            if Self.noAmountMarks.contains(trimmed) { return .none }
            return PriceText.parse(trimmed).map(Amount.value) ?? .text(text)
        }
        let spent = read(out)
        guard !deposits.isEmpty else { return (spent, false) }
        // out − in: the first deposit column with an amount (a cancellation or a refund arrives as a deposit).
        let deposit = deposits.lazy.map(read).first { if case .none = $0 { false } else { true } } ?? .none
        switch (spent, deposit) {
        case (.none, .none): return (.none, false)
        case (.text(let text), _), (_, .text(let text)): return (.text(text), false)
        case (.value(let paid), .none): return (.value(paid), false)
        case (.none, .value(let back)): return (.value(-back), true)
        // A bank that writes 0 in the column it does not use: money in is still money in.
        case (.value(0), .value(let back)) where back != 0: return (.value(-back), true)
        case (.value(let paid), .value(let back)): return (.value(paid - back), false)
        }
    }
}

/// Header positions by item field, held by the field's place (`ItemField.ordinal`): a row's cells are looked up about
/// seven times, and a dictionary keyed by the field hashed the field's name each time.
struct FieldPositions {
    private var positions = [[Int]?](repeating: nil, count: ItemField.allCases.count)

    subscript(field: ItemField) -> [Int]? {
        get { positions[field.ordinal] }
        set { positions[field.ordinal] = newValue }
    }

    /// Every field's positions.
    var values: [[Int]] { positions.compactMap { $0 } }
}
