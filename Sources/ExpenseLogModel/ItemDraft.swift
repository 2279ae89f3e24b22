import Foundation

/// Where an input item came from, for messages of the form `FILE:LINE: …`.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it (`-` for standard input).
    public let file: String
    /// The 1-based line the item starts on.
    public let line: Int

    /// A location in a named input.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// `FILE:LINE`.
    public var description: String { "\(file):\(line)" }
}

/// One field of an input item as read, before its type is checked.
public enum RawValue: Sendable, Hashable {
    /// The key or column is not there at all.
    case missing
    /// JSON `null`.
    case null
    /// A string, or any CSV cell.
    case text(String)
    /// A JSON number with no fraction or exponent.
    case integer(Int)
    /// Anything else (fractional number, boolean, object, array), described for messages.
    case other(String)

    /// The value as a Japanese message shows it: text in 「」.
    var japaneseShown: String {
        switch self {
        case .missing, .null: return "なし"
        case .text(let text): return "「\(text)」"
        default: return shown
        }
    }

    /// The value as it would be shown back to the user.
    var shown: String {
        switch self {
        case .missing, .null: return "nothing"
        case .text(let text): return "'\(text)'"
        case .integer(let number): return String(number)
        case .other(let description): return description
        }
    }

    /// Missing, `null` or an empty (or blank) string: "no value given".
    public var isAbsent: Bool {
        switch self {
        case .missing, .null: return true
        case .text(let text):
            // Most cells start with a printable ASCII byte: no need to look at their characters.
            if let first = text.utf8.first, first > 0x20, first < 0x7F { return false }
            return text.isBlank
        default: return false
        }
    }
}

/// An item exactly as an input file gave it, to be checked by `validated()`.
public struct ItemDraft: Sendable {
    /// Where it was read.
    public var location: SourceLocation
    /// The `id` field.
    public var id: RawValue = .missing
    /// The `date` field.
    public var date: RawValue = .missing
    /// The `name` field.
    public var name: RawValue = .missing
    /// The `price` field.
    public var price: RawValue = .missing
    /// The `category` field.
    public var category: RawValue = .missing
    /// The `categorySub` field.
    public var categorySub: RawValue = .missing
    /// Whether it is a row of a CSV file (a statement), which gets an id made from its content when it has none; an
    /// item of JSON, like one from `add`, is a purchase of its own and gets a random one.
    public var isCSVRow = false
    /// The name as read, when a profile's rule renamed the item: a made id comes from it, so a new rule keeps the id.
    public var readName: String?
    /// The card or account a statement's row is of (`vpass`, `rakuten-card`, `--account`): part of its made id, so that
    /// two cards' identical purchases are two items.
    public var account: String?
    /// Where a profile found the category, when no column gave it (a rule, the shop's history, the default), for `--explain`.
    public var categoryOrigin: String?
    /// `categoryOrigin` in Japanese.
    public var categoryOriginJapanese: String?
    /// Whether the category is the profile's default, no rule or history naming the shop's: the import lists such shops.
    public var categoryIsDefault = false
    /// Who paid (`add --payer`, the config's `payer`), or nil.
    public var payer: String?
    /// Whether it is one person's own spending (`add --personal`).
    public var personal = false
    /// Whether it was said to be shared (`--shared`), over a personal category's default.
    public var shared = false

    /// An empty draft at a location; readers fill the fields.
    public init(location: SourceLocation) {
        self.location = location
    }
}

/// One reason an input item cannot be sent.
public struct ValidationProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the item starts.
    public let location: SourceLocation
    /// The field at fault, or nil for a problem of the whole item or file.
    public let field: String?
    /// What is wrong and what is expected.
    public let message: String
    /// Whether it stops the whole file from being read (its header, its bytes, its syntax), so no row of it can be sent.
    public var ofWholeFile = false
    /// The message in Japanese, for a Japanese locale, when there is one.
    public var japaneseMessage: String?

    /// A problem at a location, its message also in Japanese when `japanese` is given.
    public init(location: SourceLocation, field: String?, message: String, japanese: String? = nil) {
        self.location = location
        self.field = field
        self.message = message
        self.japaneseMessage = japanese
    }

    /// `FILE:LINE: field: message`, the message in Japanese when asked for and known.
    public func text(japanese: Bool) -> String {
        "\(location): " + (field.map { "\($0): " } ?? "") + (japanese ? japaneseMessage ?? message : message)
    }

    /// A problem that stops the whole file from being read.
    public static func wholeFile(
        _ location: SourceLocation, _ message: String, japanese: String? = nil
    ) -> ValidationProblem {
        var problem = ValidationProblem(location: location, field: nil, message: message, japanese: japanese)
        problem.ofWholeFile = true
        return problem
    }

    /// `FILE:LINE: field: message`, the form compilers use so editors can jump to it.
    public var description: String {
        "\(location): " + (field.map { "\($0): " } ?? "") + message
    }
}
