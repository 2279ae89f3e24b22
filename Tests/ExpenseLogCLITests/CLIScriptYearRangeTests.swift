import Foundation
import Testing

/// Issue 45, defect 7: the bundled script takes the years a household's log can hold (2000 to 2100) and refuses the
/// rest as a bad request, so a date without its century makes no spreadsheet of its own.
@Suite struct CLIScriptYearRangeTests {
    @Test func aDateOutsideTheYearsTheLogHoldsIsRefusedWholeAndMakesNoSpreadsheet() async throws {
        try await withScriptHost { host in
            let posted = try await host.call(
                post: #"[{"id":"Y1","date":"20240203","name":"本","price":1500,"category":1,"categorySub":null},"#
                    + #"{"id":"Y2","date":"00240203","name":"本","price":1500,"category":1,"categorySub":null}]"#)
            #expect(
                posted.contains(#""kind":"bad-request""#) && posted.contains("in the years 2000 to 2100"), "\(posted)")
            let books = try await host.state().compactMap { $0["name"] as? String }
            #expect(books.isEmpty, "nothing written, no 家計簿_24 nor 家計簿_2024: \(books)")
            for year in ["24", "1999", "2101", "9999"] {
                let answer = try await host.call("?year=\(year)&month=1")
                #expect(
                    answer.contains(#""kind":"bad-request""#)
                        && answer.contains("year must be a whole number from 2000 to 2100"), "\(year): \(answer)")
            }
            #expect(try await host.call("?year=2100&month=12") == "[]")
        }
    }
}
