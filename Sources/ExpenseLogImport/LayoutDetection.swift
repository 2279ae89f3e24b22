import ExpenseLogFormats
import ExpenseLogModel

/// Which layout a CSV input is, when no `--profile` says.
public enum DetectedLayout: Sendable {
    /// expense-log's own, or none recognised (the native reader then says what the header lacks).
    case native
    /// The one built-in profile that fits.
    case builtin(name: String, profile: ImportProfile)
    /// More than one built-in profile fits: the person chooses.
    case several([String])
}

extension ImportProfile {
    /// How to read CSV text (already UTF-8) when no profile was given: with the one built-in profile its layout fits
    /// (learning what this profile learned), also given as `detected`; with this profile when none fits; or not at all
    /// when several fit (`refusal`, the input refused whole, naming them).
    func reading(
        _ text: [UInt8], file: String
    )
        -> (profile: ImportProfile, detected: (name: String, profile: ImportProfile)?, refusal: ReadOutcome?)
    {
        switch Self.detect(text) {
        case .native:
            return (self, nil, nil)
        case .builtin(let name, var layout):
            layout.learned = learned
            layout.keepsTransfers = keepsTransfers
            layout.shopRules = shopRules
            layout.account = account ?? layout.account
            return (layout, (name, layout), nil)
        case .several(let names):
            let refusal = ReadOutcome(
                problems: [
                    .wholeFile(
                        SourceLocation(file: file, line: 1),
                        "its layout fits the built-in profiles "
                            + names.joined(separator: " and ") + "; pass --profile with the right one",
                        japanese: "組み込みのプロファイル " + names.joined(separator: " と ")
                            + " のどれにも合います。正しい方を --profile で指定してください")
                ],
                refusedWhole: true)
            return (self, nil, refusal)
        }
    }

    /// The layout of CSV text (already UTF-8), from its first records: expense-log's own header first; else the
    /// built-in profiles whose header fits (titles that name a month are not read, so they never stop a fit), or, for a
    /// header-less layout, whose rows do (a date and an amount where its columns say).
    public static func detect(_ text: [UInt8]) -> DetectedLayout {
        var reader = CSV.Reader(text)
        var records: [CSV.Record] = []
        while records.count < 30, let record = try? reader.next() { records.append(record) }
        guard let first = records.first(where: { !$0.isBlank }), Layout.resolve(first, profile: .native).0 == nil else {
            return .native
        }
        let fitting = builtins.compactMap { name, profile in profile.fitted(to: records).map { (name, $0) } }
        if fitting.count == 1, let (name, profile) = fitting.first { return .builtin(name: name, profile: profile) }
        return fitting.isEmpty ? .native : .several(fitting.map(\.0))
    }

    /// This profile as it reads a file whose first records are these (a header found after a few title lines is read
    /// from there), or nil when the file is not of its layout.
    func fitted(to records: [CSV.Record]) -> ImportProfile? {
        guard header == nil else { return fits(records) ? self : nil }
        // Banks put a few lines about the account before the header, and not always as many.
        guard
            let index = records.prefix(12).firstIndex(where: {
                !$0.isBlank && Layout.resolve($0, profile: self).0 != nil
            })
        else { return nil }
        var found = self
        found.skipRows = index
        return found
    }

    /// Whether a file whose first records (blank ones left out) are these is of this layout.
    func fits(_ records: [CSV.Record]) -> Bool {
        let records = records.filter { !$0.isBlank }
        guard let header else {
            return records.prefix(12).contains { Layout.resolve($0, profile: self).0 != nil }
        }
        // A header-less layout: rows of its width with a date and an amount where it reads them, and no row of titles first.
        guard let layout = Layout.resolve(CSV.Record(line: 0, fields: header), profile: self).0 else { return false }
        func isRow(_ record: CSV.Record) -> Bool {
            guard record.fields.count == header.count, let date = layout.cell(.date, of: record.fields),
                let price = layout.cell(.price, of: record.fields)
            else { return false }
            return (dateFormat?.day(from: date) ?? Day(written: date)) != nil && PriceText.parse(price) != nil
        }
        // Before its first row, no record of its width that is no row: that would be another layout's header (ゆうちょ's
        // 取引日,入出金明細ＩＤ,受入金額（円）,… is as wide as Vpass's rows, and its rows have a date and an amount there too).
        guard let first = records.firstIndex(where: isRow) else { return false }
        return !records[..<first].contains { $0.fields.count == header.count }
    }
}
