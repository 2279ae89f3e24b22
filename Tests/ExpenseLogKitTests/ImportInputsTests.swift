import ExpenseLogImport
import ExpenseLogStore
import ExpenseLogUseCases
import Foundation
import Testing

/// Reading an import's inputs in-process: valid rows to the spool, problems by FILE:LINE, a file refused whole undone.
@Suite struct ImportInputsTests {
    static func source(_ name: String, _ text: String, format: InputFormat? = nil) -> ImportSource {
        ImportSource(name: name, format: format) {
            var given = false
            return {
                defer { given = true }
                return given ? nil : Array(text.utf8)
            }
        }
    }

    @Test func validRowsAreSpooledAndAFileRefusedWholeLeavesNothingBehind() throws {
        let good = Self.source(
            "a.csv", "date,name,price,category\n20240105,本,900,1\n20240206,茶,150,0\n20240207,,abc,0\n")
        // Its first row is valid and read before the broken quote is met: the whole file is refused, that row too.
        let broken = Self.source("b.csv", "date,name,price,category\n20240301,x,1,0\n20240302,\"unclosed,1,0\n")
        var report = ImportRecord(files: ["a.csv", "b.csv"])
        var counts: [Int] = []
        let inputs = try ImportInputs.read(
            [good, broken], profile: nil, encoding: nil, into: try ItemSpool(), report: &report
        ) {
            counts.append($0)
        }
        #expect(inputs.spool.count == 2)
        #expect(inputs.months.map(\.description).sorted() == ["2024-01", "2024-02"])
        #expect(report.count == 2, "only the valid rows of a.csv have report rows")
        #expect(
            inputs.problems.filter { $0.location.file == "a.csv" }.map(\.field) == ["name", "price"],
            "\(inputs.problems)")
        #expect(inputs.problems.filter { $0.location.file == "b.csv" }.count == 1, "\(inputs.problems)")
        #expect(counts == [3, 3], "the refused file's rows are not counted as read")
    }
}
