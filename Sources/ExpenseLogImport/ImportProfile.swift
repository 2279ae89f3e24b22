import ExpenseLogFormats
import ExpenseLogModel
import Foundation

/// A test on one text column of a CSV row, made after NFKC normalisation, case and kana folding on both sides, so `ｾﾌﾞﾝ`
/// matches `セブン` and `せぶん`, and `amazon` matches `ＡＭＡＺＯＮ`.
public struct ColumnMatch: Sendable, Equatable {
    /// How the cell is compared.
    public enum Kind: String, Sendable, CaseIterable {
        /// The trimmed cell is one of the values.
        case equals
        /// The cell contains one of the values.
        case contains
        /// One of the values, a regular expression, matches part of the cell (case ignored).
        case regex
    }

    /// The header name of the column tested.
    public var column: String
    /// How it is compared.
    public var kind: Kind
    /// The values that match, as written.
    public var values: [String]
    /// The values as compared: folded, or for regular expressions NFKC with katakana as hiragana only (case is ignored
    /// when matching, and lowercasing a pattern would change it: `\S` is not `\s`).
    let folded: [String]

    /// A test of a column.
    public init(column: String, kind: Kind, values: [String]) {
        self.column = column
        self.kind = kind
        self.values = values
        self.folded =
            kind == .regex
            ? values.map(NameFolding.foldKeepingCase) : values.map { CellFolding.fold($0.trimmingSpaces()) }
    }

    /// Whether a cell matches (folding it here; a reader of many rows folds through a `CellFolding`).
    public func matches(_ cell: String) -> Bool {
        var folding = CellFolding()
        return matches(folded: folding.folded(cell), regexes: nil)
    }

    /// A `regex` match's expressions compiled, case ignored (a reader compiles them once per file); nil for the others.
    func compiled() -> [Regex<AnyRegexOutput>]? {
        guard kind == .regex else { return nil }
        return folded.compactMap { try? Regex($0).ignoresCase() }
    }

    /// Whether a folded cell matches; `regexes` are this match's compiled values, when it is a `regex` one.
    func matches(folded cell: String, regexes: [Regex<AnyRegexOutput>]?) -> Bool {
        switch kind {
        case .equals: return folded.contains(cell)
        case .contains: return folded.contains { cell.contains($0) }
        case .regex:
            return (regexes ?? compiled() ?? []).contains { (try? $0.firstMatch(in: cell)) != nil }
        }
    }
}

/// Cells as rules compare them: trimmed, NFKC, case folded; each distinct cell is folded once (a column such as
/// 大項目 repeats a few values over thousands of rows).
struct CellFolding {
    private var cache: [String: String] = [:]

    /// `text` trimmed, NFKC-normalised, case folded, katakana as hiragana (`NameFolding`).
    static func fold(_ text: String) -> String {
        NameFolding.fold(text)
    }

    /// A cell folded, from the cache when it was seen.
    mutating func folded(_ cell: String) -> String {
        let trimmed = cell.trimmingSpaces()
        if let known = cache[trimmed] { return known }
        let folded = Self.fold(trimmed)
        if cache.count < 4096 { cache[trimmed] = folded }
        return folded
    }
}

/// A profile's `skip` or `transfers` entry: rows matching it are left out of the import, with the reason in the report.
public struct SkipRule: Sendable, Equatable {
    /// The test.
    public var match: ColumnMatch
    /// Why such rows are left out ("a card's bill").
    public var reason: String
    /// Whether it names money moved between the household's own accounts (a card's bill, a top-up, cash from an ATM):
    /// left out unless the run keeps transfers (`--transfers keep`), and counted apart.
    public var isTransfer = false

    /// A rule that leaves rows out; `isTransfer` when they are transfers between one's own accounts.
    public init(match: ColumnMatch, reason: String, isTransfer: Bool = false) {
        (self.match, self.reason, self.isTransfer) = (match, reason, isTransfer)
    }
}

/// A profile's `rules` entry: the first rule a row matches gives it a category (and sub) when its own columns do not,
/// and a new name when the rule has one.
public struct CategoryRule: Sendable, Equatable {
    /// The test.
    public var match: ColumnMatch
    /// The category number given, or none (the rule only renames).
    public var category: Int?
    /// The sub-category number given, or none.
    public var sub: Int?
    /// The name the item gets instead of the one read, or none.
    public var name: String?
}

/// The category a shop last had: the latest item under its name, on the server or in the cache.
public struct LearnedCategory: Sendable, Equatable {
    /// The category number.
    public let category: Int
    /// The sub-category number, if any.
    public let sub: Int?

    /// A category with its sub.
    public init(category: Int, sub: Int?) {
        (self.category, self.sub) = (category, sub)
    }

    /// The category each shop's latest item has, by `PurchaseName` key.
    public static func history(_ items: [Item]) -> [String: LearnedCategory] {
        var latest: [String: (Day, LearnedCategory)] = [:]
        for item in items {
            let key = PurchaseName(item.name).key
            guard !key.isEmpty, latest[key].map({ $0.0 <= item.date }) ?? true else { continue }
            latest[key] = (item.date, LearnedCategory(category: item.category, sub: item.categorySub))
        }
        return latest.mapValues(\.1)
    }
}

/// What a run does with rows that cannot be sent (`--on-invalid`, or a profile's `onInvalid`).
public enum InvalidRows: String, Sendable, CaseIterable {
    /// Send nothing and exit 65.
    case stop
    /// Send the valid rows and exit 65.
    case skip
    /// Send the valid rows, show the invalid ones as warnings, and exit 0 when every valid row was sent.
    case warn
}

/// How to read one CSV layout: which column holds which field, and how to turn its rows into items.
public struct ImportProfile: Sendable, Equatable {
    /// The profile's name (a built-in name or the file it came from).
    public var name: String
    /// A line for help and messages.
    public var description: String
    /// The encoding the layout's files use, when fixed (`--encoding` still wins).
    public var encoding: TextEncoding?
    /// Records before the header to ignore (a bank's preamble).
    public var skipRows: Int = 0
    /// For each field, the header names that may hold it (the first found is used).
    public var columns: [ItemField: [String]]
    /// Whether columns it does not use are named in a warning (the native layout's, where one may be a typo).
    public var warnsOtherColumns = false
    /// The date layout, when not one of the forms `Day(written:)` reads.
    public var dateFormat: DatePattern?
    /// Whether prices are negated (exports that show spending as negative amounts).
    public var invertSign = false
    /// Whether names longer than the app allows are cut to fit, instead of being invalid.
    public var truncateNames = false
    /// Rows to leave out: the `transfers` entries (marked) and the `skip` ones.
    public var skip: [SkipRule] = []
    /// Whether rows a `transfers` entry names are read as spending after all (`--transfers keep`: the card's own
    /// statement is not imported).
    public var keepsTransfers = false
    /// Category and renaming rules, first match wins; a rule's category is used when the row has no category value.
    public var rules: [CategoryRule] = []
    /// Whether a row no rule or default gives a category is left out (reported, as a `skip` rule would) instead of invalid.
    public var excludesUnmatched = false
    /// What a run does with invalid rows when the command line does not say.
    public var onInvalid: InvalidRows?
    /// The category when no column value or rule gives one.
    public var defaultCategory: Int?
    /// The sub-category that goes with `defaultCategory`.
    public var defaultSub: Int?
    /// The column titles of a layout whose files have no header row (Vpass): every record is read by position.
    public var header: [String]?
    /// Columns whose amount is taken off the price, read as out − in (a bank's deposit: a refund, a cancellation).
    public var priceIn: [String] = []
    /// Which deposits are refunds (a debit card's cancellation); other money in (a salary, a transfer) is left out. Nil:
    /// every deposit is a refund.
    public var refunds: ColumnMatch?
    /// The card or account the layout's statements are of, part of every made id (a built-in profile's name, a
    /// profile's `account`, or `--account`): two cards' identical purchases are two items.
    public var account: String?
    /// Who pays what the statements of this layout hold (a card belongs to one person): a profile's `payer`, or
    /// `register --payer`; nil leaves the rows the household's.
    public var payer: String?
    /// What a refund's id gets after the id column's value, when the layout gives a refund the number of the payment
    /// it refunds (PayPay's 返金): `-R`, so that both rows are items of their own.
    public var refundIDSuffix: String?
    /// Whether rows of another shape are left out, not invalid: another number of fields, or no date where the date
    /// goes (a card-holder row, a section title, a total).
    public var skipsOtherShapes = false
    /// Whether rows with no amount (empty, `-`, `—`, or 0: a waived annual fee) are left out.
    public var skipsNoAmount = false
    /// Where the layout was learned from and what it leaves out, for `profile show`.
    public var source: String?
    /// Whether a row with no category from a rule takes the category its shop last had (history), before the default.
    public var learnsCategories = false
    /// What history says, for a run: the category each shop last had, by its `PurchaseName` key (not from the file).
    public var learned: [String: LearnedCategory] = [:]
    /// The person's shop rules, for a run (`expense-log rule`): a category before the profile's rules and history, or a
    /// transfer (not from the file).
    public var shopRules = ShopRuleBook()

    /// A profile with columns; everything else has its default.
    public init(name: String, description: String, columns: [ItemField: [String]]) {
        self.name = name
        self.description = description
        self.columns = columns
    }

    /// The fields a row cannot do without, given how categories are found.
    var requiredFields: [ItemField] {
        [.date, .name, .price] + (rules.isEmpty && defaultCategory == nil ? [.category] : [])
    }

    /// The native layout: the wire keys or the spreadsheet's Japanese headers, in any order; `id` and `categorySub` optional.
    public static let native: ImportProfile = {
        var profile = ImportProfile(
            name: "native", description: "expense-log's own CSV (fetch --format csv)",
            columns: [
                .id: ["id", "ID"], .date: ["date", "日付"], .name: ["name", "品名"], .price: ["price", "金額"],
                .category: ["category", "項目"], .categorySub: ["categorySub", "サブ項目"],
            ])
        profile.warnsOtherColumns = true
        return profile
    }()
}
