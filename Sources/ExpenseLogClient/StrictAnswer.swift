import ExpenseLogFormats
import ExpenseLogModel
import Foundation

extension SheetAnswer {
    /// The error that refuses a month whole under `--strict` when rows were left out, else nil.
    public func strictFailure(url: URL, month: YearMonth?) -> APIError? {
        guard let first = unreadable.first else { return nil }
        let more =
            unreadable.count > 1 ? " (and \(unreadable.count - 1) more row\(unreadable.count == 2 ? "" : "s"))" : ""
        return .invalidResponse(
            url: url, status: 200,
            reason: "\(first.describe(in: month))\(more); with --strict such an answer is refused whole "
                + "(fix the row in the sheet, or run without --strict to leave it out)",
            snippet: "")
    }
}
