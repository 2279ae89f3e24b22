import ExpenseLogModel
import Foundation

/// One row of a server's answer that was left out or read with a guess, for the message that names it.
public struct SheetRowProblem: Sendable, Equatable {
    /// The row's 1-based position in the answer's array.
    public let position: Int
    /// The row as the server wrote it, as compact JSON (cut after 200 characters).
    public let raw: String
    /// What is wrong with it, or what was guessed.
    public let message: String
    /// The row's id as a Sheet key (`SheetText.key`), when that much could be read: the server holds an item with it.
    public let id: String?
    /// `message` in Japanese.
    public var japanese: String?
    /// Whether the row has its id but neither a price nor a category: what a write Google cut short between its two
    /// calls leaves, which the bundled script writes again whole when the item is sent again.
    public var withoutNumbers = false
}

/// The items of an answer as a Sheet-backed server gives them: readable rows as items, blank rows dropped, the rest named.
public struct SheetAnswer: Sendable, Equatable {
    /// The rows read as items, in the answer's order.
    public var items: [Item]
    /// Rows that could not be read as items (a price of text, a date that is no day…).
    public var unreadable: [SheetRowProblem] = []
    /// How many items are rows a person typed into the sheet by hand, with no id (`HandTypedRow`).
    public var handTyped = 0
    /// Rows read with a guess the user should know about (a name Sheets turned into a date).
    public var retyped: [SheetRowProblem] = []
    /// Rows whose every cell was empty (a row cleared by hand), skipped.
    public var blankRows = 0
    /// The ids the server had before this request (the bundled script's register action says which), so a report
    /// never claims it added them.
    public var existing: [String] = []

    /// An answer of readable items only.
    public init(items: [Item], unreadable: [SheetRowProblem] = [], retyped: [SheetRowProblem] = [], blankRows: Int = 0)
    {
        self.items = items
        self.unreadable = unreadable
        self.retyped = retyped
        self.blankRows = blankRows
    }

    /// The same answer without its items, to keep beside them; nil when no row was left out or guessed at.
    public var problemsOnly: SheetAnswer? {
        unreadable.isEmpty && retyped.isEmpty
            ? nil : SheetAnswer(items: [], unreadable: unreadable, retyped: retyped, blankRows: blankRows)
    }

    /// The Sheet keys of every id the server showed, readable rows and unreadable ones alike.
    public var idKeys: Set<String> {
        Set(items.map { SheetText.key($0.id) }).union(unreadable.compactMap(\.id))
    }
}

/// Reads an item array the way Google Sheets hands it back through `getValues()` and `JSON.stringify`: booleans and
/// numbers where text was written, dates as UTC instants, cleared rows as empty strings.
///
/// Where the meaning is certain it reads the value; where it is not, the row is left out and named, never guessed at.
public struct SheetRows: Sendable {
    /// The spreadsheet's time zone: a date cell comes back as the UTC instant of its midnight there.
    public let timeZone: TimeZone

    /// Asia/Tokyo, the zone of the original app's users and of most of their spreadsheets.
    public static let defaultTimeZone =
        TimeZone(identifier: "Asia/Tokyo") ?? TimeZone(secondsFromGMT: 32_400) ?? .current

    /// A reader for a spreadsheet in a time zone.
    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// The answer's rows, or nil when the body is not a JSON array at all (a protocol error, not a bad row).
    public func read(_ body: Data) -> SheetAnswer? {
        guard let value = try? JSONParser.parse(Array(body)), case .array(let rows, _) = value else { return nil }
        return read(rows: rows)
    }

    /// The bundled script's answer to its register action, `{"saved":[items],"existing":[ids]}`: the saved rows, and
    /// the ids that were already there; nil when the body is not such an object.
    public func read(registerAnswer body: Data) -> SheetAnswer? {
        guard let value = try? JSONParser.parse(Array(body)), case .object(let members, _) = value,
            case .array(let rows, _)? = members[member: "saved"]
        else { return nil }
        var answer = read(rows: rows)
        if case .array(let ids, _)? = members[member: "existing"] { answer.existing = ids.compactMap(Self.text) }
        return answer
    }

    private func read(rows: [JSONValue]) -> SheetAnswer {
        var answer = SheetAnswer(items: [])
        var handTyped: [String: Int] = [:]
        for (index, row) in rows.enumerated() {
            let position = index + 1
            guard case .object(let members, _) = row else {
                answer.unreadable.append(
                    problem(
                        position, row,
                        ("it is \(row.described), not an item object", "項目のオブジェクトではなく \(row.described) です"),
                        id: nil))
                continue
            }
            var fields: [String: JSONValue] = [:]
            for (key, value) in members where fields[key] == nil { fields[key] = value }
            let cells = ["id", "date", "name", "price", "category", "categorySub"].map { fields[$0] }
            if cells.allSatisfy({ $0 == nil || Self.isEmpty($0!) }) {
                answer.blankRows += 1
                continue
            }
            switch item(fields) {
            case .success(let (read, guess)):
                var item = read
                // A row typed by hand has no id: the app shows it, so it counts, under an id made from what it holds.
                if item.id.isEmpty {
                    let content = "\(item.date)\u{1F}\(item.name)\u{1F}\(item.price)"
                    handTyped[content, default: 0] += 1
                    item.id = HandTypedRow.id(
                        date: item.date, name: item.name, price: item.price, occurrence: handTyped[content] ?? 1)
                    answer.handTyped += 1
                }
                answer.items.append(item)
                if let guess { answer.retyped.append(problem(position, row, guess, id: SheetText.key(item.id))) }
            case .failure(let reason):
                answer.unreadable.append(
                    problem(
                        position, row, (reason.message, reason.japanese),
                        id: fields["id"].flatMap(Self.text).map(SheetText.key)))
            }
        }
        return answer
    }

    private struct Unreadable: Error { let message: String, japanese: String }

    /// An item from a row's cells, and a note when the name had to be read from a date.
    private func item(_ fields: [String: JSONValue]) -> Result<(Item, (String, String)?), Unreadable> {
        func fail(_ message: String, _ japanese: String) -> Result<(Item, (String, String)?), Unreadable> {
            .failure(Unreadable(message: message, japanese: japanese))
        }
        // No id: a row a person typed into the sheet by hand, read like any other (the caller gives it an id).
        let id = fields["id"].flatMap(Self.text) ?? ""
        guard let dateValue = fields["date"], let date = day(dateValue) else {
            return fail(
                "its date \(Self.shown(fields["date"])) is not a day (yyyyMMdd, or a date cell)",
                "日付 \(Self.shown(fields["date"])) は日ではありません (yyyyMMdd か日付のセル)")
        }
        guard let nameValue = fields["name"], var name = Self.text(nameValue), !name.isEmpty else {
            return fail("its name is missing or empty", "品名がないか空です")
        }
        var guess: (String, String)?
        // A name like `7-11` or `2024/2/3` became a date cell: what was typed is gone; the day is the best reading left.
        if case .string(let text, _) = nameValue, let instant = Self.instant(text) {
            name = displayed(instant) ?? text
            guess = (
                "its name \(text) is a date Sheets made of what was typed; it is shown as \(name) (format the sheet's "
                    + "name column as plain text to keep names like 7-11)",
                "品名 \(text) は入力を Sheets が日付にしたもので、\(name) と表示します (7-11 のような品名を保つには、シートの品名の列を書式なしテキストに)"
            )
        }
        guard let priceValue = fields["price"], let price = Self.integer(priceValue) else {
            return fail(
                "its price \(Self.shown(fields["price"])) is not a whole number of yen",
                "金額 \(Self.shown(fields["price"])) は整数の円ではありません")
        }
        guard let categoryValue = fields["category"], let category = Self.integer(categoryValue) else {
            return fail(
                "its category \(Self.shown(fields["category"])) is not a whole number",
                "項目 \(Self.shown(fields["category"])) は整数ではありません")
        }
        var categorySub: Int?
        if let subValue = fields["categorySub"], !Self.isEmpty(subValue) {
            guard let sub = Self.integer(subValue) else {
                return fail(
                    "its categorySub \(Self.shown(subValue)) is not a whole number",
                    "サブ項目 \(Self.shown(subValue)) は整数ではありません")
            }
            categorySub = sub
        }
        // Who paid, when the script was asked for it (`fields=payer`): a name, or none (the household's).
        var payer: String?
        if let value = fields["payer"], !Self.isEmpty(value) { payer = Self.text(value) }
        var personal = false, shared = false
        if case .bool(let value, _)? = fields["personal"] { (personal, shared) = (value, !value) }
        return .success(
            (
                Item(
                    id: id, date: date, name: name, price: price, category: category, categorySub: categorySub,
                    payer: payer, personal: personal, shared: shared), guess
            ))
    }

    /// A date cell: `yyyyMMdd` as text or number, the import forms, or an instant read as a day in the sheet's zone.
    private func day(_ value: JSONValue) -> Day? {
        switch value {
        case .string(let text, _): return Day(parsing: text) ?? Self.instant(text).flatMap(localDay)
        case .number(let text, _): return Day(parsing: text)
        default: return nil
        }
    }

    /// The calendar day an instant falls on in the spreadsheet's time zone.
    func localDay(_ instant: Date) -> Day? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
        return Day(year: year, month: month, day: day)
    }

    /// A date cell as a Japanese sheet shows it: `2026/7/11`, a time alone (a date on Sheets' day zero, 1899-12-30) as
    /// `12:30`, both as `2026/7/11 12:30:00`.
    func displayed(_ instant: Date) -> String? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let p = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
        guard let year = p.year, let month = p.month, let day = p.day, let hour = p.hour, let minute = p.minute,
            let second = p.second
        else { return nil }
        let date = "\(year)/\(month)/\(day)"
        let time = "\(hour):" + Day.pad(minute, 2) + (second == 0 ? "" : ":" + Day.pad(second, 2))
        if (year, month, day) == (1899, 12, 30) { return time }
        return hour == 0 && minute == 0 && second == 0 ? date : "\(date) \(time)"
    }

    /// Whether text has the shape of an instant (`yyyy-MM-ddT…`), checked without copying it: most names are not.
    public static func mayBeInstant(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count >= 20 else { return false }
        return utf8[utf8.index(utf8.startIndex, offsetBy: 10)] == UInt8(ascii: "T")
    }

    /// An ISO 8601 instant as `JSON.stringify` writes a Date (`2024-02-02T15:00:00.000Z`), or with an offset.
    static func instant(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let day = Day(parsing: String(decoding: bytes[0..<10], as: UTF8.self)),
            let hour = Day.number(bytes[11..<13]), let minute = Day.number(bytes[14..<16]),
            let second = Day.number(bytes[17..<19]),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var rest = bytes[19...]
        var fraction = 0.0
        if rest.first == UInt8(ascii: ".") {
            let digits = rest.dropFirst().prefix { (0x30...0x39).contains($0) }
            guard !digits.isEmpty else { return nil }
            fraction = Double("0." + String(decoding: digits, as: UTF8.self)) ?? 0
            rest = rest.dropFirst(1 + digits.count)
        }
        var offset = 0
        switch rest.first {
        case UInt8(ascii: "Z") where rest.count == 1: break
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let zone = Array(rest.dropFirst())
            guard zone.count == 5, zone[2] == UInt8(ascii: ":"), let h = Day.number(zone[0..<2]),
                let m = Day.number(zone[3..<5]),
                h <= 14, m < 60
            else { return nil }
            offset = (h * 60 + m) * 60 * (rest.first == UInt8(ascii: "-") ? -1 : 1)
        default: return nil
        }
        let seconds = day.daysSinceEpoch * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// A text cell as the Sheet shows it: text as is, numbers as JavaScript writes them, booleans as TRUE/FALSE.
    static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text, _): return text
        case .number(let text, _): return Double(text).map(SheetText.display) ?? text
        case .bool(let flag, _): return SheetText.display(flag)
        default: return nil
        }
    }

    /// A whole number, written as a number (`980`, `980.0`) or as text of one (`"980"`, `"1,500"`).
    static func integer(_ value: JSONValue) -> Int? {
        switch value {
        case .number(let text, _):
            if let whole = Int(text) { return whole }
            guard let double = Double(text), double == double.rounded(), abs(double) < 9e15 else { return nil }
            return Int(double)
        case .string(let text, _):
            let trimmed = text.trimmingSpaces()
            if let whole = Int(trimmed) { return whole }
            return SheetText.number(typed: trimmed).flatMap { $0 == $0.rounded() && abs($0) < 9e15 ? Int($0) : nil }
        default: return nil
        }
    }

    static func isEmpty(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return true
        case .string(let text, _): return text.isEmpty
        default: return false
        }
    }

    static func shown(_ value: JSONValue?) -> String {
        value.map(\.described) ?? "(missing)"
    }

    private func problem(_ position: Int, _ row: JSONValue, _ message: (String, String), id: String?) -> SheetRowProblem
    {
        let raw = JSONText.compact(row)
        var found = SheetRowProblem(
            position: position, raw: raw.count > 200 ? String(raw.prefix(200)) + "…" : raw, message: message.0,
            id: id, japanese: message.1)
        if case .object(let members, _) = row {
            found.withoutNumbers =
                id != nil && ["price", "category"].allSatisfy { key in members[member: key].map(Self.isEmpty) ?? true }
        }
        return found
    }
}

/// JSON values written back as compact text, to quote a server's row in a message.
enum JSONText {
    static func compact(_ value: JSONValue) -> String {
        switch value {
        case .object(let members, _):
            return "{" + members.map { string($0.key) + ":" + compact($0.value) }.joined(separator: ",") + "}"
        case .array(let elements, _): return "[" + elements.map(compact).joined(separator: ",") + "]"
        case .string(let text, _): return string(text)
        case .number(let text, _): return text
        case .bool(let flag, _): return flag ? "true" : "false"
        case .null: return "null"
        }
    }

    private static func string(_ text: String) -> String {
        var out = ""
        ItemJSON.appendString(text, to: &out)
        return out
    }
}

extension SheetRowProblem {
    /// The same in Japanese (`2024-01、サーバーの応答の3行目: …`), its message in English where it has no Japanese one.
    public func japaneseDescription(in month: YearMonth?) -> String {
        (month.map { "\($0)、" } ?? "") + "サーバーの応答の\(position)行目: \(japanese ?? message): \(raw)"
    }

    /// `2024-01, row 3 of the server's answer: its price "abc" is not a whole number of yen: {"id":…}`.
    public func describe(in month: YearMonth?) -> String {
        (month.map { "\($0), " } ?? "") + "row \(position) of the server's answer: \(message): \(raw)"
    }
}
