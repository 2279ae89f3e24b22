import ExpenseLogFormats
import ExpenseLogModel
import Foundation

/// A starter profile guessed from a CSV's first rows (`profile init`): its encoding, the preamble before the header,
/// which column holds each field (from Japanese and English header names), the date layout and the sign of spending.
public struct ProfileGuess: Sendable {
    /// The profile guessed.
    public let profile: ImportProfile
    /// What was guessed and why, a line each, for the person to check.
    public let notes: [String]
    /// The same notes in Japanese.
    public let japaneseNotes: [String]

    /// Header names that hold each field, most specific first; compared after NFKC and case folding.
    static let names: [(ItemField, [String])] = [
        (.id, ["id", "取引id", "取引番号", "明細番号", "transaction id"]),
        (
            .date,
            [
                "日付", "ご利用日", "利用日", "ご利用年月日", "利用年月日", "取引日", "お取引日", "取引年月日", "年月日", "日時",
                "date", "transaction date", "posted date", "posting date", "booking date",
            ]
        ),
        (
            .price,
            [
                "金額(円)", "ご利用金額", "利用金額", "お支払金額", "支払金額", "支払額", "お引出し", "引出額", "出金金額", "出金",
                "支出", "金額", "amount", "price", "debit", "withdrawal",
            ]
        ),
        (
            .name,
            [
                "品名", "内容", "摘要内容", "お取引内容", "摘要", "ご利用店名・商品名", "利用店名・商品名", "ご利用店名", "利用店名", "ご利用先", "利用先", "店名",
                "お取引内容", "取引内容", "お取り扱い内容", "取扱内容", "明細", "name", "description", "payee", "merchant", "details",
            ]
        ),
        (.category, ["項目", "category"]),
        (.categorySub, ["サブ項目", "categorysub"]),
    ]

    /// Layouts tried, in order, when the dates are in none of the forms read without one.
    static let layouts = [
        "yy/MM/dd", "yy/M/d", "yy.MM.dd", "yyMMdd", "dd/MM/yyyy", "d/M/yyyy", "MM/dd/yyyy", "M/d/yyyy", "dd.MM.yyyy",
        "d.M.yyyy", "dd-MM-yyyy", "dd/MM/yy", "MM/dd/yy", "d/M/yy", "M/d/yy",
    ]

    /// Guesses a profile from a file's bytes (its first rows are enough), named `name` in messages; `defaultCategory` is
    /// given to rows when the file has no category column. Throws a `ValidationProblem` when a date, name or price column
    /// cannot be found, or the file cannot be decoded or read as CSV.
    public static func guess(
        _ bytes: [UInt8], name: String, defaultCategory: Int, catalogue: CategoryCatalogue = .standard,
        sampleRows: Int = 50
    ) throws -> ProfileGuess {
        let decoded: (bytes: [UInt8], encoding: TextEncoding)
        switch TextEncoding.utf8Bytes(of: bytes, declared: nil, name: name) {
        case .success(let found): decoded = found
        case .failure(let problem): throw problem
        }
        var reader = CSV.Reader(decoded.bytes)
        var records: [CSV.Record] = []
        do {
            while records.count < sampleRows + 20, let record = try reader.next() { records.append(record) }
        } catch let error as CSV.SyntaxError {
            // The rows read before a broken one are enough to guess from.
            if records.count < 2 {
                throw ValidationProblem(
                    location: SourceLocation(file: name, line: error.line), field: nil,
                    message: "invalid CSV: \(error.message)")
            }
        }
        // A layout a built-in profile reads is that profile's: its rules know the export, a guess does not.
        if header(in: records) == nil,
            let (builtin, profile) = ImportProfile.builtins.first(where: { $0.1.fits(records) })
        {
            throw builtinLayout(builtin, profile, at: SourceLocation(file: name, line: records.first?.line ?? 1))
        }
        // A file with no header row (a card's statement): its columns are named here, from what they hold.
        var titles: [String]?
        if header(in: records) == nil, let (guessed, width) = headerless(records) {
            titles = guessed
            records = records.filter { $0.fields.count == width || $0.isBlank }
            records.insert(CSV.Record(line: 0, fields: guessed), at: 0)
        }
        guard let (headerIndex, found) = header(in: records) else {
            let first = records.first.map { $0.fields.map { "'\($0)'" }.joined(separator: ", ") } ?? "nothing"
            throw ValidationProblem(
                location: SourceLocation(file: name, line: records.first?.line ?? 1), field: nil,
                message: "no row among the first \(min(records.count, 20)) names a date, a name and a price column "
                    + "(the first has \(first)); write the profile by hand (see docs/import-profiles.md)")
        }
        var columns = found
        let header = records[headerIndex].fields.map { $0.trimmingSpaces() }
        if titles == nil,
            let (builtin, profile) = ImportProfile.builtins.first(where: { $0.1.fits(Array(records[headerIndex...])) })
        {
            throw builtinLayout(builtin, profile, at: SourceLocation(file: name, line: records[headerIndex].line))
        }
        let rows = records[(headerIndex + 1)...].filter { !$0.isBlank && $0.fields.count == header.count }.prefix(
            sampleRows)
        func cells(_ field: ItemField) -> [String] {
            guard let position = columns[field] else { return [] }
            return rows.map { $0.fields[position].trimmingSpaces() }.filter { !$0.isEmpty }
        }

        var notes: [String] = [], japaneseNotes: [String] = []
        func note(_ english: String, _ japanese: String) {
            notes.append(english)
            japaneseNotes.append(japanese)
        }
        // A column of the bank's own categories (Food & Drink) is not the catalogue's: rules must map it.
        for field in [ItemField.category, .categorySub] {
            guard let position = columns[field] else { continue }
            let values = cells(field)
            let foreign = values.first { value in
                field == .category ? (try? catalogue.resolve(value)) == nil : Int(value) == nil
            }
            if let foreign {
                columns[field] = nil
                note(
                    "columns.\(field.rawValue): not '\(header[position])', whose values ('\(foreign)') are not the catalogue's; "
                        + "add rules such as {\"column\": \"\(header[position])\", \"equals\": \"\(foreign)\", \"category\": 0}",
                    "columns.\(field.rawValue): 「\(header[position])」ではありません (値「\(foreign)」が一覧にない)。"
                        + "{\"column\": \"\(header[position])\", \"equals\": \"\(foreign)\", \"category\": 0} のような規則を加えてください"
                )
            }
        }
        if columns[.category] == nil { columns[.categorySub] = nil }
        var profile = ImportProfile(
            name: name,
            description: "Made by expense-log profile init from \(URL(fileURLWithPath: name).lastPathComponent)",
            columns: columns.mapValues { [header[$0]] })
        if decoded.encoding == .shiftJIS {
            profile.encoding = .shiftJIS
            note("encoding: the file is Shift_JIS (CP932)", "encoding: ファイルは Shift_JIS (CP932) です")
        }
        if let titles {
            profile.header = titles
            profile.skipsOtherShapes = true
            note(
                "header: the file has no header row, so its columns are named by what they hold (\(titles.joined(separator: ",")))"
                    + "; otherShapes: rows of another shape (a card-holder or total row) are left out",
                "header: 見出し行がないので、欄に中身で名前を付けました (\(titles.joined(separator: ",")))。otherShapes: 形の違う行 "
                    + "(カード名義や合計の行) は除外します")
        } else if headerIndex > 0 {
            profile.skipRows = headerIndex
            note(
                "skipRows: \(headerIndex) row\(headerIndex == 1 ? "" : "s") before the header",
                "skipRows: 見出しの前に\(headerIndex)行")
        }
        for field in ItemField.allCases where columns[field] != nil {
            note(
                "columns.\(field.rawValue): '\(header[columns[field] ?? 0])'",
                "columns.\(field.rawValue): 「\(header[columns[field] ?? 0])」")
        }
        let dates = cells(.date)
        if !dates.allSatisfy({ Day(written: $0) != nil }) {
            let fitting = layouts.compactMap(DatePattern.init).filter { pattern in
                dates.allSatisfy { pattern.day(from: $0) != nil }
            }
            if let layout = fitting.first {
                profile.dateFormat = layout
                // 11/03/2026 is the 11th of March or the 3rd of November: only the person knows.
                let others = fitting.dropFirst().filter { $0.description.count == layout.description.count }
                note(
                    "dateFormat: \(layout) (dates such as '\(dates.first ?? "")')"
                        + (others.isEmpty
                            ? ""
                            : "; they fit \(others.map(\.description).joined(separator: ", ")) too: check which it is"),
                    "dateFormat: \(layout) (「\(dates.first ?? "")」のような日付)"
                        + (others.isEmpty
                            ? "" : "。\(others.map(\.description).joined(separator: "、")) にも合います: どれか確かめてください"))
            } else {
                note(
                    "dateFormat: none fits dates such as '\(dates.first ?? "")'; set it by hand",
                    "dateFormat: 「\(dates.first ?? "")」のような日付に合うものがありません。手で設定してください")
            }
        }
        // Signs are counted on the cells as written: `-5.75` is spending even where a fraction of a yen cannot be stored.
        let prices = cells(.price)
        let negative = prices.filter { ["-", "−", "▲", "△"].contains($0.first ?? " ") }.count
        if negative * 2 > prices.count {
            profile.invertSign = true
            note(
                "invertSign: most amounts are negative, so spending is shown as negative",
                "invertSign: ほとんどの金額がマイナスなので、支出はマイナスで書かれています")
            if negative < prices.count, let price = columns[.price] {
                // A card's positive amount is a refund; a bank's is money in, which is no expense: only the person knows.
                note(
                    "positive amounts become refunds (negative items); if they are money in, add to \"skip\" "
                        + "{\"column\": \"\(header[price])\", \"regex\": \"^[0-9]\", \"reason\": \"money in\"}",
                    "プラスの金額は返金 (マイナスの項目) になります。入金なら \"skip\" に "
                        + "{\"column\": \"\(header[price])\", \"regex\": \"^[0-9]\", \"reason\": \"money in\"} を加えてください"
                )
            }
        }
        if let price = columns[.price], rows.contains(where: { $0.fields[price].trimmingSpaces().isEmpty }) {
            // A bank statement's 出金 column is empty on a deposit's row: such rows are not spending.
            profile.skip.append(
                SkipRule(
                    match: ColumnMatch(column: header[price], kind: .equals, values: [""]),
                    reason: "no amount in \(header[price]) (money in, not spent)"))
            note("skip: rows with an empty '\(header[price])' (money in)", "skip: 「\(header[price])」が空の行 (入金)")
        }
        if titles == nil, let date = columns[.date], rows.contains(where: { $0.fields[date].trimmingSpaces().isEmpty })
        {
            // A statement's total or note line has no date.
            profile.skip.append(
                SkipRule(
                    match: ColumnMatch(column: header[date], kind: .equals, values: [""]),
                    reason: "no date in \(header[date]) (a total or a note)"))
            note("skip: rows with an empty '\(header[date])' (totals, notes)", "skip: 「\(header[date])」が空の行 (合計、注記)")
        }
        if cells(.name).contains(where: { $0.count > ItemDraft.maxNameLength }) {
            profile.truncateNames = true
            note(
                "truncateNames: some names are longer than the app's \(ItemDraft.maxNameLength) characters",
                "truncateNames: アプリの上限\(ItemDraft.maxNameLength)文字より長い品名があります")
        }
        if columns[.category] == nil {
            profile.defaultCategory = defaultCategory
            if let first = cells(.name).first, let nameColumn = columns[.name] {
                // One rule, so the file shows the shape to copy; it gives the default category, changing nothing yet.
                profile.rules = [
                    CategoryRule(
                        match: ColumnMatch(column: header[nameColumn], kind: .contains, values: [first]),
                        category: defaultCategory, sub: nil, name: nil)
                ]
            }
            note(
                "defaultCategory: \(defaultCategory) for every row; add rules to give others",
                "defaultCategory: どの行も \(defaultCategory)。ほかにするには規則を加えてください")
        }
        return ProfileGuess(profile: profile, notes: notes, japaneseNotes: japaneseNotes)
    }

    static func builtinLayout(
        _ builtin: String, _ profile: ImportProfile, at location: SourceLocation
    ) -> ValidationProblem {
        ValidationProblem(
            location: location, field: nil,
            message:
                "this is the layout of the built-in \(builtin) profile (\(profile.description.prefix { $0 != "(" }.trimmingSpaces())): "
                + "import it as it is, or write a profile of {\"extends\": \"\(builtin)\"} and the keys to change")
    }

    /// Titles for a file with no header row, from what its columns hold in the rows of its commonest width: the first
    /// column mostly of dates (日付), the first other column mostly of amounts (金額), and the text column with the most different
    /// values (品名); the rest `列N`. Nil when no width has three such rows.
    static func headerless(_ records: [CSV.Record]) -> ([String], width: Int)? {
        let widths = Dictionary(grouping: records.filter { !$0.isBlank }, by: \.fields.count)
        guard let (width, rows) = widths.max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) }),
            rows.count >= 3, width >= 3
        else { return nil }
        func share(_ column: Int, _ test: (String) -> Bool) -> Double {
            Double(rows.filter { test($0.fields[column].trimmingSpaces()) }.count) / Double(rows.count)
        }
        let isDate = { (text: String) in Day(written: text) != nil }
        let isAmount = { (text: String) in !text.isEmpty && Day(written: text) == nil && PriceText.parse(text) != nil }
        guard let date = (0..<width).first(where: { share($0, isDate) >= 0.6 }),
            let price = (0..<width).first(where: { $0 != date && share($0, isAmount) >= 0.6 })
        else { return nil }
        let texts = (0..<width).filter {
            $0 != date && $0 != price && share($0, { !$0.isEmpty && PriceText.parse($0) == nil }) >= 0.5
        }
        guard
            let name = texts.max(by: { a, b in
                (Set(rows.map { $0.fields[a] }).count, b) < (Set(rows.map { $0.fields[b] }).count, a)
            })
        else { return nil }
        var titles = (1...width).map { "列\($0)" }
        (titles[date], titles[name], titles[price]) = ("日付", "品名", "金額")
        return (titles, width)
    }

    /// The first record (of the first 20) that names a date, a name and a price column, and where each field is.
    static func header(in records: [CSV.Record]) -> (Int, [ItemField: Int])? {
        for (index, record) in records.prefix(20).enumerated() {
            let folded = record.fields.map { CellFolding.fold($0.trimmingSpaces()) }
            var columns: [ItemField: Int] = [:]
            var used: Set<Int> = []
            for exact in [true, false] {
                // Only the free-text fields are found inside a longer name: `id` is in "paid", 項目 in 大項目.
                for (field, candidates) in names
                where columns[field] == nil && (exact || [.date, .name, .price].contains(field)) {
                    for candidate in candidates.map(CellFolding.fold) {
                        let hit = folded.indices.first {
                            !used.contains($0) && (exact ? folded[$0] == candidate : folded[$0].contains(candidate))
                        }
                        if let hit {
                            columns[field] = hit
                            used.insert(hit)
                            break
                        }
                    }
                }
            }
            if columns[.date] != nil, columns[.name] != nil, columns[.price] != nil { return (index, columns) }
        }
        return nil
    }
}
