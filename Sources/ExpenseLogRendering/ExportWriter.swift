import ExpenseLogFormats
import ExpenseLogModel
import Foundation

/// The formats `export` writes.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// An hledger journal.
    case hledger
    /// A Ledger journal.
    case ledger
    /// A Beancount file.
    case beancount
    /// CSV for spreadsheets (UTF-8 with a BOM and CRLF unless told otherwise).
    case csv
}

/// Items as plain-text accounting or a spreadsheet: one transaction per item, dated, named, posted to an expense account
/// made from its category and sub-category and balanced by its payer's account, its id (and short id) in metadata.
/// The same items always give the same bytes: sorted by date, then id, with nothing dated or random in the file.
public struct ExportWriter: Sendable {
    /// Names categories.
    public let catalogue: CategoryCatalogue
    /// Each item's short id (`fetch --ids`), written beside its id.
    public var shortIDs: [String: String] = [:]
    /// The items still waiting in the journal: marked pending (`!`).
    public var pendingIDs: Set<String> = []
    /// Whether CSV starts with a byte order mark (so that Excel reads UTF-8).
    public var bom = true
    /// The balancing account of each payer's items (`household` for items with no payer), from the configuration.
    public var accounts: [String: String] = [:]

    /// A writer naming categories from `catalogue`.
    public init(catalogue: CategoryCatalogue) {
        self.catalogue = catalogue
    }

    /// The whole file.
    public func render(_ items: [Item], as format: ExportFormat) -> String {
        let sorted = items.sorted { ($0.date, $0.id) < ($1.date, $1.id) }
        switch format {
        case .hledger, .ledger: return journal(sorted, ledger: format == .ledger)
        case .beancount: return beancount(sorted)
        case .csv: return csv(sorted)
        }
    }

    // MARK: - hledger and Ledger

    /// `expenses:食費:飲料`: the catalogue's Japanese names (hledger and Ledger take any letters in an account name).
    func expenseAccount(_ item: Item) -> String {
        var parts = ["expenses", Self.component(catalogue.name(of: item.category, japanese: true))]
        let sub = catalogue.name(ofSub: item.categorySub, in: item.category, japanese: true)
        if !sub.isEmpty { parts.append(Self.component(sub)) }
        return parts.joined(separator: ":")
    }

    /// The payer's configured account, else `assets:cash`, or `assets:cash:花子` for what 花子 paid.
    func balancingAccount(_ item: Item) -> String {
        if let account = accounts[item.payer ?? "household"] { return account }
        return "assets:cash" + (item.payer.map { ":" + Self.component($0) } ?? "")
    }

    /// The payer's configured account made Beancount's (each component capitalised ASCII), else `Assets:Cash`.
    func beancountBalancing(_ item: Item) -> String {
        guard let account = accounts[item.payer ?? "household"] else { return "Assets:Cash" }
        let parts = account.split(separator: ":").enumerated().map { Self.beancountComponent(String($1), $0) }
        return parts.count < 2 ? "Assets:Cash" : parts.joined(separator: ":")
    }

    /// An account name's component: `:` separates components, and two spaces or a tab end the name, so they go; `#`
    /// names the category by number when the catalogue lacks it.
    static func component(_ text: String) -> String {
        let words = text.replacingOccurrences(of: ":", with: "-").split(whereSeparator: \.isWhitespace)
        let joined = words.joined(separator: "-").replacingOccurrences(of: ";", with: "-")
        return joined.isEmpty ? "-" : joined
    }

    /// A description: the name on one line, a `;` (which starts a comment) made full-width `；`, a leading `(` (which
    /// would start a transaction's code: `(株)ABC`) after an empty code `() `, and no longer than Ledger reads a line.
    static func description(_ name: String) -> String {
        let line = String(
            name.split(whereSeparator: \.isNewline).joined(separator: " ").replacingOccurrences(of: ";", with: "；")
                .trimmingSpaces().prefix(1_000))
        return line.hasPrefix("(") ? "() " + line : line
    }

    /// An id as a journal's tag or metadata holds it: a line break, `,` or `;` (which would end it) made `_`.
    static func tagValue(_ id: String) -> String {
        String(id.map { $0.isNewline || $0 == "," || $0 == ";" ? "_" : $0 })
    }

    private func journal(_ items: [Item], ledger: Bool) -> String {
        var out = ledger ? "; expense-log export (Ledger)\n\n" : "; expense-log export (hledger)\n\n"
        for item in items {
            let date = "\(item.date)".replacingOccurrences(of: "-", with: ledger ? "/" : "-")
            let mark = pendingIDs.contains(item.id) ? "! " : "* "
            let short = shortIDs[item.id].map { ledger ? "\n    ; short: \($0)" : ", short:\($0)" } ?? ""
            let (name, id) = (Self.description(item.name), Self.tagValue(item.id))
            if ledger {
                out += "\(date) \(mark)\(name.isEmpty ? "-" : name)\n    ; id: \(id)\(short)\n"
            } else {
                out += "\(date) \(mark)\(name)  ; id:\(id)\(short)\n"
            }
            if item.personal { out += "    ; personal: yes\n" }
            out += "    \(expenseAccount(item))  \(item.price) JPY\n"
            out += "    \(balancingAccount(item))\n\n"
        }
        return out
    }

    // MARK: - Beancount

    /// `Expenses:Food:Drink`: Beancount takes capitalised ASCII components, so the catalogue's English names made so
    /// (`Daily goods` → `DailyGoods`); the Japanese names go in the transaction's metadata.
    func beancountAccount(_ item: Item) -> String {
        var parts = [
            "Expenses", Self.beancountComponent(catalogue.name(of: item.category, japanese: false), item.category),
        ]
        if let sub = item.categorySub {
            parts.append(
                Self.beancountComponent(catalogue.name(ofSub: sub, in: item.category, japanese: false), sub))
        }
        return parts.joined(separator: ":")
    }

    /// A Beancount account component: ASCII letters, digits and `-` (accents dropped: `Café` is `Cafe`), starting
    /// with a capital or a digit; `C3` (the number) when no such character is left.
    static func beancountComponent(_ name: String, _ number: Int) -> String {
        let plain = name.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
        let words = plain.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
        let joined = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return joined.isEmpty ? "C\(number)" : joined
    }

    /// A Beancount string: `"` and `\` escaped.
    static func quoted(_ text: String) -> String {
        "\""
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: " ") + "\""
    }

    private func beancount(_ items: [Item]) -> String {
        var out = "; expense-log export (Beancount)\noption \"operating_currency\" \"JPY\"\n\n"
        let accounts = Set(items.map(beancountAccount) + items.map(beancountBalancing)).sorted()
        // Opened before any item: on 2000-01-01 (the log's first year), or an older item's day.
        let opened = min(items.first?.date.description ?? "2000-01-01", "2000-01-01")
        for account in accounts { out += "\(opened) open \(account) JPY\n" }
        out += "\n"
        for item in items {
            let flag = pendingIDs.contains(item.id) ? "!" : "*"
            out += "\(item.date) \(flag) \(Self.quoted(item.name))\n"
            out += "  id: \(Self.quoted(Self.tagValue(item.id)))\n"
            if let short = shortIDs[item.id] { out += "  short: \(Self.quoted(short))\n" }
            out += "  category: \(Self.quoted(catalogue.name(of: item.category, japanese: true)))\n"
            let sub = catalogue.name(ofSub: item.categorySub, in: item.category, japanese: true)
            if !sub.isEmpty { out += "  sub: \(Self.quoted(sub))\n" }
            if let payer = item.payer { out += "  payer: \(Self.quoted(payer))\n" }
            if item.personal { out += "  personal: TRUE\n" }
            out += "  \(beancountAccount(item))  \(item.price) JPY\n  \(beancountBalancing(item))\n\n"
        }
        return out
    }

    // MARK: - CSV

    /// The CSV's columns.
    public static let csvHeader = [
        "date", "name", "price", "category", "categoryName", "sub", "subName", "payer", "personal", "pending", "id",
    ]

    /// A text field as Excel must not evaluate it: one starting with `=`, `+`, `-`, `@`, a tab or a carriage return
    /// (a formula, or a number Excel would make of `+81`) gets a `'` first, which Excel shows as text; without the
    /// byte order mark (`--no-bom`: for other programs) the text is written as it is.
    func text(_ value: String) -> String {
        guard bom, let first = value.first, "=+-@\t\r".contains(first) else { return CSV.field(value) }
        return CSV.field("'" + value)
    }

    private func csv(_ items: [Item]) -> String {
        var lines = [Self.csvHeader.joined(separator: ",")]
        for item in items {
            lines.append(
                [
                    item.date.description, text(item.name), String(item.price), String(item.category),
                    text(catalogue.name(of: item.category, japanese: true)),
                    item.categorySub.map(String.init) ?? "",
                    text(catalogue.name(ofSub: item.categorySub, in: item.category, japanese: true)),
                    text(item.payer ?? ""), item.personal ? "true" : "false",
                    pendingIDs.contains(item.id) ? "true" : "false", CSV.field(item.id),
                ].joined(separator: ","))
        }
        return (bom ? "\u{FEFF}" : "") + lines.joined(separator: "\r\n") + "\r\n"
    }
}
