/// The fields of an item, as named on the wire and in a profile's `columns`.
public enum ItemField: String, Sendable, CaseIterable {
    /// `id`.
    case id
    /// `date`.
    case date
    /// `name`.
    case name
    /// `price`.
    case price
    /// `category`.
    case category
    /// `categorySub`.
    case categorySub
}

/// A test on one text column of a CSV row.
public struct ColumnMatch: Sendable, Equatable {
    /// How the cell is compared.
    public enum Kind: String, Sendable, CaseIterable {
        /// The trimmed cell is one of the values.
        case equals
        /// The cell contains one of the values.
        case contains
    }

    /// The header name of the column tested.
    public var column: String
    /// How it is compared.
    public var kind: Kind
    /// The values that match.
    public var values: [String]

    /// A test of a column.
    public init(column: String, kind: Kind, values: [String]) {
        self.column = column
        self.kind = kind
        self.values = values
    }

    /// Whether a cell matches.
    public func matches(_ cell: String) -> Bool {
        let trimmed = cell.trimmingSpaces()
        switch kind {
        case .equals: return values.contains(trimmed)
        case .contains: return values.contains { trimmed.contains($0) }
        }
    }
}

/// A profile's `skip` entry: rows matching it are left out of the import, with the reason in the report.
public struct SkipRule: Sendable, Equatable {
    /// The test.
    public var match: ColumnMatch
    /// Why such rows are left out ("a transfer").
    public var reason: String
}

/// A profile's `rules` entry: rows matching it get this category (and sub).
public struct CategoryRule: Sendable, Equatable {
    /// The test.
    public var match: ColumnMatch
    /// The category number given.
    public var category: Int
    /// The sub-category number given, or none.
    public var sub: Int?
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
    /// Whether other columns are allowed; the native layout refuses them so that a typo in the header is caught.
    public var allowsOtherColumns = true
    /// The date layout, when not one of `yyyyMMdd`, `yyyy-MM-dd`, `yyyy/M/d`.
    public var dateFormat: DatePattern?
    /// Whether prices are negated (exports that show spending as negative amounts).
    public var invertSign = false
    /// Whether names longer than the app allows are cut to fit, instead of being invalid.
    public var truncateNames = false
    /// Rows to leave out.
    public var skip: [SkipRule] = []
    /// Category rules, first match wins, used when the row has no category column value.
    public var rules: [CategoryRule] = []
    /// The category when no column value or rule gives one.
    public var defaultCategory: Int?
    /// The sub-category that goes with `defaultCategory`.
    public var defaultSub: Int?

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
        var profile = ImportProfile(name: "native", description: "expense-log's own CSV (fetch --format csv)", columns: [
            .id: ["id", "ID"], .date: ["date", "日付"], .name: ["name", "品名"], .price: ["price", "金額"],
            .category: ["category", "項目"], .categorySub: ["categorySub", "サブ項目"],
        ])
        profile.allowsOtherColumns = false
        return profile
    }()
}
