import ExpenseLogModel
import ExpenseLogRendering
import Foundation
import TestSupport
import Testing

/// The report page in a real browser: Debian's Chromium, headless, loads the file the binary wrote, takes a screenshot,
/// and `browser_check.py` says what a person would see: the chart's colours and how much of each, whether the page
/// logged a console error, whether it is wider than the window, and whether a chart's text runs out of the chart.
@Suite(.serialized) struct CLIReportBrowserTests {
    /// March 2024: food ¥6,000 (groceries and drinks), entertainment ¥3,000, so the donut is two thirds food.
    static let march: [Item] = [
        Samples.item("R1", "20240303", "スーパーでまとめ買い", 4000, category: 0, sub: 0),
        Samples.item("R2", "20240305", "コーヒー豆", 2000, category: 0, sub: 1),
        Samples.item("R3", "20240310", "電車（ＩＣカード チャージ）", 3000, category: 1, sub: 1),
    ]

    /// What `browser_check.py` found.
    struct Seen: Decodable {
        struct Probe: Decodable {
            let outside: [String]
            let wide: Bool
            let width: Int
        }

        let consoleErrors: [String]
        let probe: Probe?
        let counts: [String: Int]
        let width: Int
        let height: Int
    }

    static func look(at page: String, shot: String, width: Int, height: Int, colours: [String]) async throws -> Seen {
        let script = CLI.packageRoot.appendingPathComponent("Tests/ReferenceServer/browser_check.py").path
        let process = try ChildProcess(
            "/usr/bin/env", ["python3", script, page, shot, String(width), String(height)] + colours,
            stdin: .null, stdout: .pipe)
        // Read on a thread of its own: two looks run side by side, and a blocking read must not hold a pool thread.
        let output: Data = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: process.output?.readDataToEndOfFile() ?? Data()) }
        }
        guard await process.wait() == 0 else {
            throw TestFailure(
                "browser_check.py failed; Chromium (or Google Chrome on a Mac) is needed: make test-deps installs it")
        }
        return try JSONDecoder().decode(Seen.self, from: output)
    }

    @Test func aMonthsPageShowsTheCategoriesInTheirColoursInProportionToTheirTotals() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let page = home.url.appendingPathComponent("march.html").path
        let shot = home.url.appendingPathComponent("march.png").path
        try await withServer { server in
            try await server.seed(Self.march)
            let env = Samples.environment(home: home, server: server, ["LANG": "ja_JP.UTF-8"])
            let configured = try await CLI.run(["config", "set", "budgets.食費", "5000"], environment: env)
            #expect(configured.status == 0, "\(configured.stderr)")
            let written = try await CLI.run(["report", "2024-03", "-o", page], environment: env)
            #expect(written.status == 0, "\(written.stderr)")
            #expect(written.stderr.contains(page))
        }
        let food = ChartPalette.colour(ofCategory: 0, in: .standard)
        let fun = ChartPalette.colour(ofCategory: 1, in: .standard)
        // The category donut is the first chart: the left half of the page's top, above the budget chart.
        // The window of a computer and a phone's width, looked at side by side.
        async let wideLook = Self.look(
            at: page, shot: shot, width: 1000, height: 1500, colours: ["crop=0,0,500,440", food, fun])
        async let narrowLook = Self.look(
            at: page, shot: home.url.appendingPathComponent("narrow.png").path, width: 390, height: 1500,
            colours: [])
        let (seen, narrow) = try await (wideLook, narrowLook)
        #expect(seen.consoleErrors.isEmpty, "\(seen.consoleErrors)")
        #expect(seen.probe?.wide == false, "the page is no wider than the window")
        #expect(seen.probe?.outside == [], "every chart's text stays inside its chart")
        // The donut's ring is nearly all of these pixels; its legend's swatches, the same size for each category, add a
        // little to both.
        let foodPixels = try #require(seen.counts[food]), funPixels = try #require(seen.counts[fun])
        #expect(funPixels > 5000, "the entertainment part is drawn: \(seen.counts)")
        let ratio = Double(foodPixels) / Double(funPixels)
        #expect(ratio > 1.8 && ratio < 2.3, "food is twice entertainment, as ¥6,000 is to ¥3,000: \(seen.counts)")

        // A phone's width: nothing runs off the side.
        #expect(narrow.probe?.wide == false && narrow.probe?.outside == [], "\(String(describing: narrow.probe))")
        #expect(narrow.consoleErrors.isEmpty)

        // `UPDATE_SCREENSHOTS=1 make test` refreshes docs/report.md's picture from this very page.
        if ProcessInfo.processInfo.environment["UPDATE_SCREENSHOTS"] == "1" {
            let docs = CLI.packageRoot.appendingPathComponent("docs/report-month.png")
            _ = try? FileManager.default.removeItem(at: docs)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: shot), to: docs)
        }
    }

    @Test func aYearsPageShowsItsBarsWithoutAConsoleErrorOrTextOutsideTheChart() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let page = home.url.appendingPathComponent("year.html").path
        let shot = home.url.appendingPathComponent("year.png").path
        try await withServer { server in
            try await server.seed(Self.march + Samples.seed)
            let env = Samples.environment(home: home, server: server)
            let written = try await CLI.run(["report", "2024", "-o", page], environment: env)
            #expect(written.status == 0, "\(written.stderr)")
        }
        let food = ChartPalette.colour(ofCategory: 0, in: .standard)
        let seen = try await Self.look(at: page, shot: shot, width: 1000, height: 1400, colours: [food])
        #expect(seen.consoleErrors.isEmpty, "\(seen.consoleErrors)")
        #expect(seen.probe?.wide == false && seen.probe?.outside == [], "\(String(describing: seen.probe))")
        #expect((seen.counts[food] ?? 0) > 1000, "the bars are drawn in the categories' colours")
        if ProcessInfo.processInfo.environment["UPDATE_SCREENSHOTS"] == "1" {
            let docs = CLI.packageRoot.appendingPathComponent("docs/report-year.png")
            _ = try? FileManager.default.removeItem(at: docs)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: shot), to: docs)
        }
    }
}
