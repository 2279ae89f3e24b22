import ExpenseLogConfig
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogRendering
import Foundation
import TestSupport
import Testing

/// Budgets through the built binary: `config set|get|unset budgets.NAME`, `summary --budget` (exit 3 when one is
/// overspent), `summary --format svg` and `report`. The config file is read back by Python's json module and every SVG by
/// Python's xml.etree, so neither the writer nor the checker is the code under test.
@Suite struct CLIBudgetTests {
    /// March 2024: food ¥32,000 in four items (over a ¥30,000 budget), transport ¥4,000 in two; ¥36,000 in all.
    static let march: [Item] = [
        Samples.item("B1", "20240302", "スーパー", 12000, category: 0, sub: 0),
        Samples.item("B2", "20240309", "米", 8000, category: 0, sub: 0),
        Samples.item("B3", "20240316", "外食", 7000, category: 0, sub: nil),
        Samples.item("B4", "20240325", "飲み物", 5000, category: 0, sub: 1),
        Samples.item("B5", "20240305", "電車", 2500, category: 1, sub: 1),
        Samples.item("B6", "20240320", "バス", 1500, category: 1, sub: 1),
    ]

    /// ¥80,000 in all, ¥30,000 for food, ¥10,000 for transport, a month.
    static let budgets = [("total", "80000"), ("食費", "30000"), ("娯楽費/交通費", "10000")]

    /// `summary --budget --format json`'s budget object, decoded strictly.
    struct BudgetDocument: Decodable {
        struct Line: Decodable, Equatable {
            let name: String
            let category: Int?
            let sub: Int?
            let budget: Int
            let spent: Int
            let left: Int
            let used: Double
            let over: Bool
        }

        struct Budget: Decodable {
            let months: Int
            let over: Bool
            let lines: [Line]
        }

        let year: Int
        let month: Int?
        let total: Int
        let budget: Budget

        init(_ text: String) throws {
            self = try JSONDecoder().decode(BudgetDocument.self, from: Data(text.utf8))
        }
    }

    /// An element of an XML document as Python's `xml.etree` read it.
    typealias Element = XMLElementRead

    /// Sets budgets through `config set`, each expected to succeed.
    static func setBudgets(_ budgets: [(String, String)], _ env: [String: String]) async throws {
        for (name, yen) in budgets {
            let result = try await CLI.run(["config", "set", "budgets.\(name)", yen], environment: env)
            #expect(result.status == 0, "budgets.\(name): \(result.stderr)")
        }
    }

    /// The config file's budgets as Python's json module reads the file: name → whole yen as text (`!` and Python's repr
    /// for anything that is not a whole number).
    static func budgetsByPython(_ path: String) throws -> [String: String] {
        let script = """
            import json, sys
            with open(sys.argv[1], encoding="utf-8") as f:
                root = json.load(f)
            out = {}
            for name, value in root.get("budgets", {}).items():
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    out[name] = "!" + repr(value)
                elif float(value).is_integer():
                    out[name] = str(int(value))
                else:
                    out[name] = "!" + repr(value)
            sys.stdout.buffer.write(json.dumps(out, ensure_ascii=False).encode("utf-8"))
            """
        let process = try ChildProcess("/usr/bin/env", ["python3", "-c", script, path], stdout: .pipe)
        let output = process.output?.readDataToEndOfFile() ?? Data()
        guard process.waitBlocking() == 0 else { throw TestFailure("python3's json could not read \(path)") }
        return try JSONDecoder().decode([String: String].self, from: output)
    }

    static func parsedByPython(_ xml: String) throws -> [Element] { try TestSupport.parsedByPython(xml) }

    static func svgDocuments(in html: String) -> [String] { TestSupport.svgDocuments(in: html) }

    /// The rows of the budget table under `BUDGET  AMOUNT …`, split into words: its heading, then a row per budget.
    static func budgetTable(_ stdout: String) throws -> (heading: [String], rows: [[String]]) {
        let lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("BUDGET ") }, "no budget table in:\n\(stdout)")
        func words(_ line: String) -> [String] { line.split(separator: " ").map(String.init) }
        let rows = lines[(start + 1)...].prefix { !$0.isEmpty }.map(words).filter { $0.first != "Budgets" }
        return (words(lines[start]), rows)
    }

    /// The words of the summary table's row for a name (the first such row: the totals, not the budgets).
    static func summaryRow(_ stdout: String, _ name: String) throws -> [String] {
        let line = try #require(
            stdout.split(separator: "\n").first { $0.hasPrefix(name + " ") }, "no \(name) row in:\n\(stdout)")
        return line.split(separator: " ").map(String.init)
    }

    static func bar(_ cells: Int) -> String { String(repeating: "█", count: cells) }

    // MARK: - config

    @Test func configSetWritesBudgetsThatGetAndUnsetReadBack() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Samples.environment(home: home)
        try await Self.setBudgets(Self.budgets, env)
        let path = try await CLI.run(["config", "path"], environment: env).stdout.trimmingCharacters(in: .newlines)
        #expect(path == home.url.appendingPathComponent("expense-log/config/config.json").path)
        #expect(try Self.budgetsByPython(path) == ["total": "80000", "食費": "30000", "娯楽費/交通費": "10000"])

        let food = try await CLI.run(["config", "get", "budgets.食費"], environment: env)
        #expect(food.status == 0 && food.stdout == "30000\n", "\(food.stdout)\(food.stderr)")
        #expect(try await CLI.run(["config", "get", "budgets.娯楽費/交通費"], environment: env).stdout == "10000\n")
        #expect(try await CLI.run(["config", "get", "budgets.total"], environment: env).stdout == "80000\n")

        // A name the catalogue lacks: 78, naming the key and what the catalogue has; the file is left as it was.
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let nope = try await CLI.run(["config", "set", "budgets.nope", "1"], environment: env)
        #expect(nope.status == 78)
        #expect(nope.stderr.contains("budgets.nope"), "\(nope.stderr)")
        #expect(nope.stderr.contains("0 食費 Food, 1 娯楽費 Entertainment"), "the catalogue is named: \(nope.stderr)")
        #expect(nope.stderr.contains("expense-log categories"))
        #expect(nope.stdout.isEmpty)
        // A fraction of a yen, no yen, not a number: refused the same way.
        for (key, value) in [
            ("budgets.食費", "1.5"), ("budgets.total", "0"), ("budgets.食費", "lots"), ("budgets.0/nope", "100"),
        ] {
            let refused = try await CLI.run(["config", "set", key, value], environment: env)
            #expect(refused.status == 78, "\(key) \(value): \(refused.stderr)")
            #expect(refused.stderr.contains("\(key) was not changed in \(path)"), "\(refused.stderr)")
        }
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: path)) == before, "a refused budget leaves the file as it was")

        // Another name for a budgeted category changes that budget, under the name the file gives it.
        let renamed = try await CLI.run(["config", "set", "budgets.food", "25000"], environment: env)
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(try Self.budgetsByPython(path) == ["total": "80000", "食費": "25000", "娯楽費/交通費": "10000"])
        #expect(try await CLI.run(["config", "get", "budgets.Food"], environment: env).stdout == "25000\n")
        #expect(try await CLI.run(["config", "set", "budgets.食費", "30000"], environment: env).status == 0)

        let unset = try await CLI.run(["config", "unset", "budgets.食費"], environment: env)
        #expect(unset.status == 0, "\(unset.stderr)")
        #expect(try Self.budgetsByPython(path) == ["total": "80000", "娯楽費/交通費": "10000"])
        let gone = try await CLI.run(["config", "get", "budgets.食費"], environment: env)
        #expect(gone.status == 1 && gone.stdout.isEmpty)

        // A price as people write it is kept as written and read as yen.
        #expect(try await CLI.run(["config", "set", "budgets.食費", "30,000"], environment: env).status == 0)
        #expect(try Self.budgetsByPython(path)["食費"] == "!'30,000'")
        #expect(try await CLI.run(["config", "get", "budgets.食費"], environment: env).stdout == "30,000\n")
    }

    // MARK: - summary --budget

    @Test func anOverspentBudgetExits3AfterTheBudgetTable() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed(Self.march)
            let env = Samples.environment(home: home, server: server)
            try await Self.setBudgets(Self.budgets, env)

            let result = try await CLI.run(["summary", "2024-03", "--budget"], environment: env)
            #expect(result.status == 3, "\(result.stderr)")
            // The summary comes first, whole: food 32,000 / 36,000 = 88.9 %.
            #expect(result.stdout.hasPrefix("CATEGORY "))
            #expect(try Self.summaryRow(result.stdout, "Food") == ["Food", "4", "32,000", "88.9%"])
            #expect(try Self.summaryRow(result.stdout, "TOTAL") == ["TOTAL", "6", "36,000", "100.0%"])
            let table = try Self.budgetTable(result.stdout)
            #expect(table.heading == ["BUDGET", "AMOUNT", "SPENT", "LEFT", "USED"])
            // Total 36,000 / 80,000 = 45.0 % (9 of 20 cells); food 32,000 / 30,000 = 106.7 %, over, a full bar;
            // transport 4,000 / 10,000 = 40.0 % (8 cells).
            #expect(
                table.rows == [
                    ["Total", "80,000", "36,000", "44,000", "45.0%", Self.bar(9)],
                    ["Food", "30,000", "32,000", "-2,000", "106.7%", Self.bar(20), "over"],
                    ["Entertainment/Transportation", "10,000", "4,000", "6,000", "40.0%", Self.bar(8)],
                ])

            // Within every budget: 0, and no "over".
            try await Self.setBudgets([("食費", "40000")], env)
            let within = try await CLI.run(["summary", "2024-03", "--budget"], environment: env)
            #expect(within.status == 0, "\(within.stderr)")
            #expect(
                try Self.budgetTable(within.stdout).rows.dropFirst().first == [
                    "Food", "40,000", "32,000", "8,000", "80.0%", Self.bar(16),
                ])
            #expect(!within.stdout.contains(" over"))

            // Without --budget the budgets are not shown, and an overspent one is no error.
            try await Self.setBudgets([("食費", "30000")], env)
            let plain = try await CLI.run(["summary", "2024-03"], environment: env)
            #expect(plain.status == 0 && !plain.stdout.contains("BUDGET"))
        }
    }

    @Test func jsonHasABudgetObjectAndAYearCountsTwelveMonths() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed(Self.march)
            let env = Samples.environment(home: home, server: server)
            try await Self.setBudgets(Self.budgets, env)

            let month = try await CLI.run(["summary", "2024-03", "--budget", "--format", "json"], environment: env)
            #expect(month.status == 3, "\(month.stderr)")
            let doc = try BudgetDocument(month.stdout)
            #expect(doc.year == 2024 && doc.month == 3 && doc.total == 36000)
            #expect(doc.budget.months == 1 && doc.budget.over)
            #expect(
                doc.budget.lines == [
                    .init(
                        name: "total", category: nil, sub: nil, budget: 80000, spent: 36000, left: 44000, used: 45.0,
                        over: false),
                    .init(
                        name: "食費", category: 0, sub: nil, budget: 30000, spent: 32000, left: -2000, used: 106.7,
                        over: true),
                    .init(
                        name: "娯楽費/交通費", category: 1, sub: 1, budget: 10000, spent: 4000, left: 6000, used: 40.0,
                        over: false),
                ])
            // The documented key order: the budget after the categories, before the sources.
            let budgetKey = try #require(month.stdout.range(of: "\"budget\":{\"months\":1,\"over\":true,\"lines\":["))
            let categoriesKey = try #require(month.stdout.range(of: "\"categories\":["))
            let sourcesKey = try #require(month.stdout.range(of: "\"sources\":["))
            #expect(categoriesKey.lowerBound < budgetKey.lowerBound && budgetKey.lowerBound < sourcesKey.lowerBound)

            // 2024 is a past year: each monthly budget counts twelve times, and ¥36,000 is within all of them.
            let year = try await CLI.run(["summary", "2024", "--budget"], environment: env)
            #expect(year.status == 0, "\(year.stderr)")
            let rows = try Self.budgetTable(year.stdout).rows
            #expect(
                rows.map { Array($0.prefix(5)) } == [
                    ["Total", "960,000", "36,000", "924,000", "3.8%"],
                    ["Food", "360,000", "32,000", "328,000", "8.9%"],
                    ["Entertainment/Transportation", "120,000", "4,000", "116,000", "3.3%"],
                ])
            #expect(year.stdout.contains("\nBudgets (monthly × 12 months)\n"))
            #expect(!year.stdout.contains(" over"))

            let yearJSON = try await CLI.run(["summary", "2024", "--budget", "--format", "json"], environment: env)
            #expect(yearJSON.status == 0)
            let yearDoc = try BudgetDocument(yearJSON.stdout)
            #expect(yearDoc.month == nil && yearDoc.budget.months == 12 && !yearDoc.budget.over)
            #expect(yearDoc.budget.lines.map(\.budget) == [960000, 360000, 120000])
            #expect(yearDoc.budget.lines.map(\.spent) == [36000, 32000, 4000])
        }
    }

    @Test func budgetUsageAndConfigurationErrors() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // Nothing here reaches a server: the checks come first.
        let env = try Samples.offlineEnvironment(home: home)

        let none = try await CLI.run(["summary", "2024-03", "--budget"], environment: env)
        #expect(none.status == 78)
        #expect(none.stdout.isEmpty)
        #expect(none.stderr.contains("sets no budgets"), "\(none.stderr)")
        #expect(
            none.stderr.contains("expense-log config set budgets.total 80000"), "says how to set one: \(none.stderr)")

        try await Self.setBudgets(Self.budgets, env)
        for format in ["csv", "svg"] {
            let result = try await CLI.run(["summary", "2024-03", "--budget", "--format", format], environment: env)
            #expect(result.status == 64, "\(format): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("--format \(format)"), "\(result.stderr)")
        }
    }

    // MARK: - summary --format svg

    @Test func aMonthAsSVGIsOneDocumentWithAnArcPerCategoryThatSpent() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            // Besides March's food and transport: a donation in category 7, and a category 5 that only has a refund.
            try await server.seed(
                Self.march + [
                    Samples.item("S1", "20240311", "寄付", 1000, category: 7, sub: nil),
                    Samples.item("S2", "20240312", "返品", -500, category: 5, sub: nil),
                ])
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(["summary", "2024-03", "--format", "svg"], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("<svg ") && result.stdout.hasSuffix("</svg>\n"))
            #expect(result.stdout.components(separatedBy: "<svg").count == 2, "one document")
            let elements = try Self.parsedByPython(result.stdout)
            #expect(elements.first?.tag == "svg")
            #expect(
                elements.dropFirst().first?.tag == "title"
                    && elements.dropFirst().first?.text == "Spending by category Mar 2024")
            let paths = elements.filter { $0.tag == "path" }
            #expect(
                paths.compactMap { $0.attrs["data-label"] } == ["Food", "Entertainment", "#7"],
                "no arc for the refund-only category")
            #expect(paths.compactMap { $0.attrs["data-value"] } == ["32000", "4000", "1000"])
            #expect(
                paths.compactMap { $0.attrs["fill"] }
                    == [0, 1, 7].map { ChartPalette.colour(ofCategory: $0, in: .standard) })
            // 36,000 + 1,000 - 500 = 36,500 in the middle.
            #expect(elements.contains { $0.tag == "text" && $0.text == "¥36,500" })
        }
    }

    // MARK: - report

    @Test func aReportIsWrittenToAFileOrStdoutAndShowsTheBudgets() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed(Self.march)
            let env = Samples.environment(home: home, server: server)

            let written = try await CLI.run(["report", "2024-03", "-o", "page.html"], environment: env, in: home.url)
            #expect(written.status == 0, "\(written.stderr)")
            #expect(written.stdout.isEmpty)
            let file = home.url.appendingPathComponent("page.html")
            #expect(
                written.stderr.contains("Wrote \(file.path)")
                    || written.stderr.contains("Wrote \(file.resolvingSymlinksInPath().path)"),
                "\(written.stderr)")
            let page = try String(contentsOf: file, encoding: .utf8)
            #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
            #expect(page.contains("<title>Expenses Mar 2024</title>"))
            #expect(page.contains("<strong>¥36,000</strong> (6 items)"))
            let charts = Self.svgDocuments(in: page)
            #expect(charts.count == 2 && charts.allSatisfy { $0.contains("class=\"chart donut\"") })
            for chart in charts { _ = try Self.parsedByPython(chart) }
            #expect(!page.contains("class=\"chart budget\""), "no budgets, no budget chart")
            #expect(!page.contains("<script") && !page.contains("<link"))

            let printed = try await CLI.run(["report", "2024-03", "-o", "-"], environment: env, in: home.url)
            #expect(printed.status == 0, "\(printed.stderr)")
            #expect(printed.stdout == page, "the same page on stdout")
            #expect(!printed.stderr.contains("Wrote"))

            try await Self.setBudgets(Self.budgets, env)
            let budgeted = try await CLI.run(["report", "2024-03", "-o", "-"], environment: env)
            #expect(budgeted.status == 0, "\(budgeted.stderr)")
            let budgetCharts = Self.svgDocuments(in: budgeted.stdout)
            #expect(budgetCharts.count == 3)
            let budgetChart = try #require(budgetCharts.last)
            #expect(
                budgetChart.contains("class=\"chart budget\"")
                    && budgeted.stdout.contains("<figcaption>Budgets</figcaption>"))
            let elements = try Self.parsedByPython(budgetChart)
            #expect(
                elements.contains { $0.tag == "desc" && $0.text.contains("Food: ¥32,000 / ¥30,000 (over)") },
                "\(budgetChart)")
            #expect(
                elements.filter { $0.tag == "text" && $0.own.contains("%") }.map(\.own) == [
                    "45.0%", "106.7% over", "40.0%",
                ])

            let year = try await CLI.run(["report", "2024", "-o", "y.html"], environment: env, in: home.url)
            #expect(year.status == 0, "\(year.stderr)")
            let yearPage = try String(contentsOf: home.url.appendingPathComponent("y.html"), encoding: .utf8)
            #expect(yearPage.contains("<title>Expenses 2024</title>"))
            let yearCharts = Self.svgDocuments(in: yearPage)
            #expect(yearCharts.filter { $0.contains("class=\"chart bars\"") }.count == 1)
            #expect(!yearCharts.contains { $0.contains("class=\"chart donut\"") })
            let bars = try Self.parsedByPython(try #require(yearCharts.first))
            #expect(
                bars.filter { $0.attrs["class"] == "bar-total" }.map(\.text) == ["0", "0", "36,000"]
                    + Array(repeating: "0", count: 9))
            #expect(
                bars.contains { $0.attrs["class"] == "budget-line" }
                    && bars.contains { $0.text == "monthly budget ¥80,000" })
            let months = try #require(yearPage.range(of: "<table class=\"months\">"))
            let body = yearPage[months.upperBound...]
            let bodyStart = try #require(body.range(of: "<tbody>"))
            let bodyEnd = try #require(body.range(of: "</tbody>"))
            #expect(
                body[bodyStart.upperBound..<bodyEnd.lowerBound].components(separatedBy: "<tr>").count - 1 == 12,
                "a row per month")
        }
    }

    @Test func theDummyEnvironmentWritesAReportWithNoServer() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        let result = try await CLI.run(["--env", "dummy", "report", "2024-01"], environment: env, in: home.url)
        #expect(result.status == 0, "\(result.stderr)")
        let file = home.url.appendingPathComponent("expense-log-2024-01.html")
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(result.stderr.contains("expense-log-2024-01.html"), "\(result.stderr)")
        let page = try String(contentsOf: file, encoding: .utf8)
        // The fixture's January: 178 + 200 + 200 + 1,500 = 2,078 in four items.
        #expect(page.contains("<strong>¥2,078</strong> (4 items)"))
        for name in ["コーヒー", "紅茶", "コーラ", "ラーメン"] { #expect(page.contains(name), "\(name)") }
    }

    @Test func aReportOfACachedMonthSaysSoWhenTheServerIsDown() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let (env, gone) = try await withServerGoingDown { server in
            try await server.seed(Self.march)
            let env = Samples.environment(home: home, server: server)
            let fetched = try await CLI.run(["summary", "2024-03"], environment: env)
            #expect(fetched.status == 0, "\(fetched.stderr)")
            return env
        }
        defer { gone.stop() }
        // The server now refuses every connection at the same URL, so the same cache.
        let result = try await CLI.run(["report", "2024-03", "-o", "-", "--retries", "0"], environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("<ul class=\"sources\"><li>2024-03: from the cache, as fetched 20"),
            "\(result.stdout.prefix(2000))")
        #expect(result.stdout.contains("<strong>¥36,000</strong> (6 items)"), "the cached items are shown")
        #expect(result.stderr.contains("connection refused"), "\(result.stderr)")
        #expect(result.stderr.contains("2024-03 could not be fetched; the cached copy is used instead"))

        let japanese = try await CLI.run(
            ["report", "2024-03", "-o", "-", "--offline"],
            environment: env.merging(["LANG": "ja_JP.UTF-8"]) { _, new in new })
        #expect(japanese.status == 0, "\(japanese.stderr)")
        #expect(japanese.stdout.contains("<html lang=\"ja\">"))
        #expect(japanese.stdout.contains("<li>2024-03: キャッシュ（20"), "\(japanese.stdout.prefix(2000))")
    }
}
