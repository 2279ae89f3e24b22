import ExpenseLogFormats
import Foundation
import TestSupport
import Testing

/// Issue 51: a year of items exported for hledger, Ledger, Beancount and a spreadsheet, each read by the program that
/// reads it (`make test-deps` installs them), its totals compared with `summary`'s.
@Suite struct CLIExportTests {
    /// A year of items: every month, both categories, sub-categories and none, refunds, and names that trip a journal's
    /// syntax (quotes, `;`, `#`, a leading digit, a full-width space, a backslash).
    static func year() -> String {
        let names = [
            "スーパー", "\"引用\"の本", "a;b 店", "#タグ", "3時のおやつ", "全角　スペース", "back\\slash", "(株)ABC", "(x",
            "a|b", "返品",
        ]
        var items: [String] = []
        for month in 1...12 {
            for (index, name) in names.enumerated() {
                let price = name == "返品" ? -(100 * month) : 1_000 * month + 37 * index
                let category = index % 2, sub = index % 3 == 0 ? "null" : String(index % 3 - 1)
                let day = String(format: "2026%02d%02d", month, 1 + (index * 3) % 28)
                items.append(
                    "{\"id\":\"X\(month)-\(index)\",\"date\":\"\(day)\",\"name\":\(ItemJSON.string(name)),"
                        + "\"price\":\(price),\"category\":\(category),\"categorySub\":\(sub)}")
            }
        }
        return "[" + items.joined(separator: ",\n") + "]"
    }

    /// A program's stdout, which must exit 0; a tool that is missing fails the test (make test-deps installs it).
    static func tool(_ arguments: [String]) throws -> String {
        let process = try ChildProcess("/usr/bin/env", arguments, stdout: .pipe)
        let output = process.output?.readDataToEndOfFile() ?? Data()
        let status = process.waitBlocking()
        guard status == 0 else {
            throw TestFailure("\(arguments.joined(separator: " ")) exited \(status) (make test-deps installs it)")
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `summary`'s totals: "category month" → yen, and "category" → the year's yen, by Japanese category name.
    static func summary(_ env: [String: String]) async throws -> (monthly: [String: Int], year: [String: Int]) {
        let result = try await CLI.run(["summary", "2026", "--format", "json"], environment: env)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let names = ["Food": "食費", "Entertainment": "娯楽費"]
        var monthly: [String: Int] = [:], year: [String: Int] = [:]
        for month in json["months"] as? [[String: Any]] ?? [] {
            for line in month["categories"] as? [[String: Any]] ?? [] {
                let name = names[line["name"] as? String ?? ""] ?? "?"
                let total = line["total"] as? Int ?? 0
                monthly["\(name) \(month["month"] ?? "")"] = total
                year[name, default: 0] += total
            }
        }
        return (monthly, year)
    }

    @Test func aYearExportedIsReadByHledgerLedgerAndBeancountWithSummarysTotals() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            let env = host.environment(home: home)
            let file = try home.write("year.json", Self.year())
            let registered = try await CLI.run(["register", file], environment: env)
            #expect(registered.status == 0, "\(registered.stderr)")
            let (monthly, year) = try await Self.summary(env)
            #expect(
                year.count == 2 && monthly.count == 24 && registered.stderr.contains("Rows: 132 added"), "\(monthly)")

            for format in ["hledger", "ledger", "beancount", "csv"] {
                let path = home.url.appendingPathComponent("export.\(format)").path
                let first = try await CLI.run(["export", "2026", "--format", format, "-o", path], environment: env)
                #expect(first.status == 0, "\(format): \(first.stderr)")
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                let again = try await CLI.run(["export", "2026", "--format", format], environment: env)
                #expect(Data(again.stdout.utf8) == bytes, "\(format): a second export is byte-identical")
            }
            let dir = home.url.path

            // hledger: each category and month as summary has it.
            let hledger = try Self.tool([
                "hledger", "-f", "\(dir)/export.hledger", "bal", "-M", "expenses", "--depth", "2", "-O", "csv",
            ])
            let rows = try CSV.parse(hledger)
            let header = rows[0].fields
            var fromHledger: [String: Int] = [:]
            for row in rows.dropFirst() where row.fields[0].hasPrefix("expenses:") {
                let name = String(row.fields[0].dropFirst("expenses:".count))
                for (index, cell) in row.fields.enumerated().dropFirst() where header[index].hasPrefix("2026-") {
                    let month = Int(header[index].dropFirst(5)) ?? 0
                    fromHledger["\(name) \(month)"] = Int(cell.replacingOccurrences(of: " JPY", with: "")) ?? 0
                }
            }
            #expect(fromHledger == monthly, "hledger: \(hledger)")

            // Ledger: every posting, totalled by category and month as summary totals them.
            let ledger = try Self.tool([
                "ledger", "-f", "\(dir)/export.ledger", "reg", "expenses", "--format",
                "%(date)|%(account)|%(quantity(amount))\n",
            ])
            var fromLedger: [String: Int] = [:]
            for line in ledger.split(separator: "\n") {
                let cells = line.split(separator: "|").map(String.init)
                guard cells.count == 3, let amount = Int(cells[2]) else { continue }
                let month = Int(cells[0].split(separator: "/")[1]) ?? 0
                fromLedger["\(cells[1].split(separator: ":")[1]) \(month)", default: 0] += amount
            }
            #expect(fromLedger == monthly, "ledger: \(ledger)")

            // Beancount: bean-check passes, and bean-query's totals per category agree.
            _ = try Self.tool(["bean-check", "\(dir)/export.beancount"])
            let query = try Self.tool([
                "bean-query", "-f", "csv", "\(dir)/export.beancount",
                "SELECT root(account, 2) AS a, sum(number) AS n WHERE account ~ '^Expenses' GROUP BY a ORDER BY a",
            ])
            var fromBeancount: [String: Int] = [:]
            for row in try CSV.parse(query).dropFirst() {
                let name = ["Expenses:Food": "食費", "Expenses:Entertainment": "娯楽費"][row.fields[0]] ?? row.fields[0]
                fromBeancount[name] = Int(row.fields[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
            #expect(fromBeancount == year, "bean-query: \(query)")

            // CSV: Python's csv module, as Excel would read it (UTF-8 with a BOM, CRLF), gives every item as fetched.
            let script = """
                import csv, sys
                with open(sys.argv[1], newline="", encoding="utf-8-sig") as f:
                    for row in csv.DictReader(f):
                        sys.stdout.write("\\t".join([row["id"], row["date"], row["name"], row["price"]]) + "\\n")
                """
            let read = try Self.tool(["python3", "-c", script, "\(dir)/export.csv"])
            let fetched = try await CLI.run(["fetch", "2026", "--format", "json"], environment: env)
            let expected = try ItemCodec.items(Data(fetched.stdout.utf8)).sorted { ($0.date, $0.id) < ($1.date, $1.id) }
                .map { "\($0.id)\t\($0.date)\t\($0.name)\t\($0.price)" }
            #expect(read.split(separator: "\n").map(String.init) == expected)
            let raw = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/export.csv"))
            #expect(raw.starts(with: [0xEF, 0xBB, 0xBF]) && raw.contains(Data("\r\n".utf8)))
        }
    }
}
