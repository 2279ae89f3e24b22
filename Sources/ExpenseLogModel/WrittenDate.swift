import Foundation

extension Day {
    /// A day as people and spreadsheets write it: `yyyyMMdd`, `yyyy-M-d`, `yyyy/M/d`, `yyyy.M.d` or `yyyy年M月d日`, in
    /// full-width digits too, and with a time after it (`2026/11/3 0:00`, Excel's date-time) whose date part is the day.
    public init?(written text: String) {
        // The common form, eight ASCII digits (20240122), read from the bytes at once.
        if text.utf8.count == 8, let value = text.withUTF8Bytes(Self.eightDigits) {
            self.init(year: value / 10000, month: value / 100 % 100, day: value % 100)
            return
        }
        guard let bytes = WrittenDateParts.ascii(text),
            let date = WrittenDateParts.dropTime(WrittenDateParts.trimmed(bytes[...])),
            let parts = WrittenDateParts(date), let year = parts.year
        else { return nil }
        self.init(year: year, month: parts.month, day: parts.day)
    }

    /// The number eight ASCII digits spell, or nil.
    private static func eightDigits(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard byte &- 0x30 < 10 else { return nil }
            value = value * 10 + Int(byte &- 0x30)
        }
        return value
    }
}

/// The numbers of a written date, before they are checked as a real day.
struct WrittenDateParts {
    /// The year, when it has four digits (nil for a year-less `1/5` or a short `24/1/5`).
    let year: Int?
    let month: Int
    let day: Int

    init?(_ bytes: ArraySlice<UInt8>) {
        if bytes.count == 8, let value = Day.number(bytes) {
            (year, month, day) = (value / 10000, value / 100 % 100, value % 100)
            return
        }
        guard let separator = bytes.first(where: Self.separators.contains) else { return nil }
        let parts = bytes.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
            let y = Day.number(parts[0]), let m = Day.number(parts[1]), let d = Day.number(parts[2])
        else { return nil }
        (year, month, day) = (y, m, d)
    }

    /// The text in ASCII: full-width digits and separators folded (NFKC), and `yyyy年M月d日` written `yyyy/M/d`; nil
    /// when 年, 月 and 日 are not all there, in that order.
    static func ascii(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard bytes.contains(where: { $0 >= 0x80 }) else { return bytes }
        let folded = text.precomposedStringWithCompatibilityMapping
        guard folded.contains(where: { "年月日".contains($0) }) else { return Array(folded.utf8) }
        guard let year = folded.firstIndex(of: "年"), let month = folded.firstIndex(of: "月"),
            let day = folded.firstIndex(of: "日"),
            year < month, month < day
        else { return nil }
        let date = folded[..<day].replacingOccurrences(of: "年", with: "/").replacingOccurrences(of: "月", with: "/")
        return Array((date + folded[folded.index(after: day)...]).utf8)
    }

    /// The bytes between a date's numbers: `-`, `/` and `.`.
    static let separators: [UInt8] = [UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: ".")]

    /// The ends without spaces.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else {
            return bytes[bytes.startIndex..<bytes.startIndex]
        }
        return bytes[first...last]
    }

    /// The date before a time of day (` 0:00`, ` 12:34:56`, `T00:00:00.000`), or the whole when there is none; nil when
    /// what follows the date is not a time.
    static func dropTime(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let cut = bytes.firstIndex(where: { $0 == 0x20 || $0 == UInt8(ascii: "T") }) else { return bytes }
        var time = trimmed(bytes[(cut + 1)...])
        // A zone after the time (`Z`, `+09:00`) does not move the day written before it.
        if time.last == UInt8(ascii: "Z") { time = time.dropLast() }
        if let sign = time.lastIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }) {
            let zone = time[(sign + 1)...].split(separator: UInt8(ascii: ":"))
            guard (1...2).contains(zone.count), zone.allSatisfy({ $0.count == 2 && Day.number($0) != nil }) else {
                return nil
            }
            time = time[..<sign]
        }
        let fields = time.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count), (1...2).contains(fields[0].count), Day.number(fields[0]) != nil,
            fields.dropFirst().allSatisfy({ field in
                let whole = field.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
                return whole[0].count == 2 && Day.number(whole[0]) != nil
                    && (whole.count == 1 || Day.number(whole[1]) != nil)
            })
        else { return nil }
        return trimmed(bytes[..<cut])
    }
}

/// What is wrong with a date that `Day(written:)` cannot read, in words that name the forms it reads.
public enum DateText {
    /// The forms `Day(written:)` reads, for messages.
    public static let forms = "yyyyMMdd, yyyy-M-d, yyyy/M/d, yyyy.M.d or yyyy年M月d日"

    /// What is wrong with a date, whatever the words.
    private enum Problem {
        case noSuchMonth(year: Int, month: Int)
        case noSuchDay(YearMonth, days: Int)
        case noYear
        case noFourDigitYear
        case otherForm
    }

    private static func problemKind(_ text: String) -> Problem {
        let date =
            WrittenDateParts.ascii(text).flatMap { WrittenDateParts.dropTime(WrittenDateParts.trimmed($0[...])) } ?? []
        if let parts = WrittenDateParts(date), let year = parts.year {
            guard (1...12).contains(parts.month), (1...9999).contains(year) else {
                return .noSuchMonth(year: year, month: parts.month)
            }
            return .noSuchDay(
                YearMonth(uncheckedYear: year, month: parts.month), days: Day.daysIn(year: year, month: parts.month))
        }
        let numbers = date.split { !(0x30...0x39).contains($0) }
        if date.allSatisfy({ (0x30...0x39).contains($0) || WrittenDateParts.separators.contains($0) }),
            (2...3).contains(numbers.count), numbers.allSatisfy({ $0.count <= 2 })
        {
            return numbers.count == 3 ? .noFourDigitYear : .noYear
        }
        return .otherForm
    }

    /// `problem`'s words in Japanese.
    public static func japaneseProblem(_ text: String) -> String {
        let shown = "「\(text)」"
        switch problemKind(text) {
        case let .noSuchMonth(year, month): return "\(shown)は実在する日ではありません (\(year)年に\(month)月はありません)"
        case let .noSuchDay(month, days): return "\(shown)は実在する日ではありません (\(month) は\(days)日までです)"
        case .noYear: return "\(shown)には年がなく、どの年のシートかわかりません。年つきで書き出してください"
        case .noFourDigitYear:
            return "\(shown)には4桁の年がありません。2桁の年なら、プロファイルの \"dateFormat\" で書き方を指定してください (yy/M/d、d/M/yy…)"
        case .otherForm:
            return "\(shown)はここで読める形の日付ではありません (\(forms)、後ろの時刻は無視)。ほかの書き方はプロファイルの \"dateFormat\" で読めます"
        }
    }

    /// Why `text` is not a day: not a real day, no year (with what to do), or a form not read here.
    public static func problem(_ text: String) -> String {
        let shown = "'\(text)'"
        switch problemKind(text) {
        case let .noSuchMonth(year, month):
            return "\(shown) is not a real day (there is no month \(month) in year \(year))"
        case let .noSuchDay(month, days): return "\(shown) is not a real day (\(month) has \(days) days)"
        case .noYear:
            return
                "\(shown) has no year, so which year's sheet it belongs to cannot be known; export the dates with their year"
        case .noFourDigitYear:
            return
                "\(shown) has no four-digit year; if it is a two-digit one, give a profile whose \"dateFormat\" says the layout "
                + "(yy/M/d, d/M/yy…)"
        case .otherForm:
            return
                "\(shown) is not a date in a form read here (\(forms), a time after it ignored); a profile's \"dateFormat\" "
                + "reads other layouts"
        }
    }
}
