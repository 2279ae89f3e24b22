import Foundation
import TestSupport
import Testing

@testable import ExpenseLogConfig
@testable import ExpenseLogImport
@testable import ExpenseLogModel
@testable import ExpenseLogRendering
@testable import ExpenseLogUseCases

// Budgets from the config file's amounts, how a period did against them, and the report page's hand-drawn charts. Every
// SVG is read back by Python's xml.etree (not by the code under test), and each donut's angles are measured from the
// points its paths draw, so what is checked is the picture, not the arithmetic that made it.

// MARK: - Helpers

private typealias ParsedElement = XMLElementRead

/// Why a document or a path could not be read.
private struct ChartReadError: Error, CustomStringConvertible {
    let description: String
}

/// How many times `needle` occurs in `text`.
private func occurrences(of needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
}

/// The text between the first `from` and the next `to` after it.
private func section(of text: String, from: String, to: String) throws -> String {
    let start = try #require(text.range(of: from), "no \(from)")
    let end = try #require(text[start.upperBound...].range(of: to), "no \(to) after \(from)")
    return String(text[start.upperBound..<end.lowerBound])
}

/// A point of a path.
private struct PathPoint {
    let x: Double
    let y: Double
}

/// One ring segment as `SVGChart` draws it: `M outerFrom A R R 0 large 1 outerTo L innerTo A r r 0 large 0 innerFrom Z`.
private struct RingPiece {
    let outerFrom: PathPoint
    let outerTo: PathPoint
    let innerTo: PathPoint
    let innerFrom: PathPoint
    let outerRadius: Double
    let innerRadius: Double
    let outerLarge: Int
    let innerLarge: Int
    let outerSweepFlag: Int
    let innerSweepFlag: Int
}

/// The ring segments of a path's `d` (a whole ring is two of them).
private func ringPieces(_ d: String) throws -> [RingPiece] {
    let tokens = d.split(separator: " ").map(String.init)
    var index = 0
    func word(_ expected: String) throws {
        guard index < tokens.count, tokens[index] == expected else {
            throw ChartReadError(description: "expected \(expected) at token \(index) of '\(d)'")
        }
        index += 1
    }
    func number() throws -> Double {
        guard index < tokens.count, let value = Double(tokens[index]) else {
            throw ChartReadError(description: "expected a number at token \(index) of '\(d)'")
        }
        index += 1
        return value
    }
    func point() throws -> PathPoint {
        let x = try number()
        return PathPoint(x: x, y: try number())
    }
    func arc() throws -> (radius: Double, large: Int, sweep: Int, to: PathPoint) {
        try word("A")
        let rx = try number(), ry = try number(), rotation = try number()
        guard rx == ry, rotation == 0 else {
            throw ChartReadError(description: "an arc that is not circular in '\(d)'")
        }
        let large = try number(), sweep = try number()
        return (rx, Int(large), Int(sweep), try point())
    }
    var pieces: [RingPiece] = []
    while index < tokens.count {
        try word("M")
        let outerFrom = try point()
        let outer = try arc()
        try word("L")
        let innerTo = try point()
        let inner = try arc()
        try word("Z")
        pieces.append(
            RingPiece(
                outerFrom: outerFrom, outerTo: outer.to, innerTo: innerTo, innerFrom: inner.to,
                outerRadius: outer.radius, innerRadius: inner.radius, outerLarge: outer.large,
                innerLarge: inner.large, outerSweepFlag: outer.sweep, innerSweepFlag: inner.sweep))
    }
    return pieces
}

/// The angle of a point around the donut's centre (160, 160), clockwise from the top, in (-π, π].
private func clockwiseAngle(_ point: PathPoint) -> Double {
    atan2(point.x - 160, 160 - point.y)
}

/// The clockwise turn from one point to another around the centre, in [0, 2π): the arc a sweep-flag 1 draws.
private func clockwiseSweep(from start: PathPoint, to end: PathPoint) -> Double {
    let turn = (clockwiseAngle(end) - clockwiseAngle(start)).truncatingRemainder(dividingBy: 2 * .pi)
    return turn < 0 ? turn + 2 * .pi : turn
}

/// Whether a printed point is the exact point at `angle` on a circle of `radius`, to the two decimals it is printed with.
private func isPrinted(_ point: PathPoint, radius: Double, angle: Double) -> Bool {
    abs(point.x - (160 + radius * sin(angle))) <= 0.005 + 1e-9
        && abs(point.y - (160 - radius * cos(angle))) <= 0.005 + 1e-9
}

/// `#RRGGBB` as its three channels.
private func channels(_ hex: String) throws -> [Int] {
    let digits = Array(hex.dropFirst())
    try #require(hex.hasPrefix("#") && digits.count == 6, "\(hex) is not #RRGGBB")
    return try stride(from: 0, to: 6, by: 2).map { try #require(Int(String(digits[$0..<($0 + 2)]), radix: 16)) }
}

/// The error a list of config amounts makes, or nil when it is read.
private func budgetError(
    _ amounts: [(name: String, yen: Any)], _ catalogue: CategoryCatalogue = .standard
) -> BudgetError? {
    do {
        _ = try Budgets(amounts, catalogue: catalogue)
        return nil
    } catch {
        return error
    }
}

/// A month checked in range.
private func yearMonth(_ year: Int, _ month: Int) throws -> YearMonth {
    try #require(YearMonth(year: year, month: month))
}

/// March 2024: groceries ¥1,500, a drink ¥178 and its refund of ¥78, a train ¥3,000, entertainment with no sub ¥500,
/// and an unknown category #7 ¥1,000. Food 1,600 (drinks 100), Entertainment 3,500 (transport 3,000), all 6,100.
private func marchItems() throws -> [Item] {
    [
        Item(id: "b1", date: try day(2024, 3, 2), name: "米", price: 1500, category: 0, categorySub: 0),
        Item(id: "b2", date: try day(2024, 3, 5), name: "コーヒー", price: 178, category: 0, categorySub: 1),
        Item(id: "b3", date: try day(2024, 3, 6), name: "コーヒー返品", price: -78, category: 0, categorySub: 1),
        Item(id: "b4", date: try day(2024, 3, 9), name: "電車", price: 3000, category: 1, categorySub: 1),
        Item(id: "b5", date: try day(2024, 3, 12), name: "映画", price: 500, category: 1, categorySub: nil),
        Item(id: "b6", date: try day(2024, 3, 20), name: "寄付", price: 1000, category: 7, categorySub: nil),
    ]
}

/// A catalogue of eight categories, numbered out of order.
private let eightCategories = CategoryCatalogue(
    categories: [10, 3, 7, 0, 1, 2, 5, 4].map { id in
        Category(
            id: id, japanese: "項目\(id)", english: "Category \(id)",
            subs: [SubCategory(id: 0, japanese: "小\(id)", english: "Sub \(id)")])
    })

// MARK: - Budgets

@Suite("Budgets from the config file")
struct BudgetConfigTests {
    @Test(
        "names resolve to what they budget: the total, a category, a category/sub, by name or number, either language")
    func namesResolve() throws {
        let expected: [(String, BudgetKey)] = [
            ("total", .total), ("Total", .total), ("合計", .total),
            ("食費", .category(0)), ("0", .category(0)), ("food", .category(0)), ("Entertainment", .category(1)),
            ("娯楽費/交通費", .sub(1, 1)), ("food/drink", .sub(0, 1)), ("0/1", .sub(0, 1)), ("1/2", .sub(1, 2)),
        ]
        for (name, key) in expected {
            let budgets = try Budgets([(name: name, yen: 1000)], catalogue: .standard)
            #expect(budgets.entries.map(\.key) == [key], "\(name)")
            #expect(budgets.entries.first?.name == name, "the name is kept as the file gives it")
            #expect(budgets.entries.first?.monthly == 1000)
        }
    }

    @Test("the total first, then the catalogue's order, each category before its subs, whatever the file's order")
    func order() throws {
        let budgets = try Budgets(
            [("娯楽費/交通費", 10000), ("food/drink", 2000), ("娯楽費", 20000), ("total", 80000), ("食費", 30000)],
            catalogue: .standard)
        #expect(budgets.entries.map(\.key) == [.total, .category(0), .sub(0, 1), .category(1), .sub(1, 1)])
        #expect(budgets.entries.map(\.name) == ["total", "食費", "food/drink", "娯楽費", "娯楽費/交通費"])
        #expect(budgets.entries.map(\.monthly) == [80000, 30000, 2000, 20000, 10000])
        #expect(!budgets.isEmpty)
        #expect(try Budgets([], catalogue: .standard).isEmpty)

        // A configured catalogue's order (7 before 2), not the numbers'.
        let catalogue = CategoryCatalogue(categories: [
            Category(id: 7, japanese: "寄付", english: "Donations", subs: []),
            Category(
                id: 2, japanese: "書籍", english: "Books", subs: [SubCategory(id: 3, japanese: "小説", english: "Novels")]),
        ])
        let configured = try Budgets(
            [("books/novels", 1000), ("2", 3000), ("donations", 500), ("total", 9000)], catalogue: catalogue)
        #expect(configured.entries.map(\.key) == [.total, .category(7), .category(2), .sub(2, 3)])
    }

    @Test("amounts: whole yen above 0 as a number, a whole double or a price text such as \"30,000\"")
    func amounts() throws {
        let budgets = try Budgets(
            [("total", "80,000"), ("食費", "30,000"), ("food/drink", 2000.0), ("娯楽費", "¥12,000"), ("1/1", 5000)],
            catalogue: .standard)
        #expect(budgets.entries.map(\.monthly) == [80000, 30000, 2000, 12000, 5000])
    }

    @Test("an unknown name, an amount that is not whole yen above 0, and two names for one budget each name the key")
    func unreadable() throws {
        let unknown = try #require(budgetError([("total", 80000), ("nope", 1000)]))
        #expect(unknown.message.contains("'budgets.nope'"), "\(unknown.message)")
        #expect(
            unknown.message.contains("0 食費 Food, 1 娯楽費 Entertainment"), "the catalogue is named: \(unknown.message)")
        let unknownSub = try #require(budgetError([("食費/nope", 1000)]))
        #expect(unknownSub.message.contains("'budgets.食費/nope'"), "\(unknownSub.message)")

        let amounts: [(String, Any)] = [
            ("食費", 0), ("食費", -5), ("食費", 1.5), ("食費", 0.0), ("食費", -3000.0), ("食費", "1.5"),
            ("食費", "-5"), ("食費", "0"), ("食費", "lots"), ("食費", ""), ("食費", [1]), ("食費", 1e300),
        ]
        for (name, value) in amounts {
            let error = try #require(budgetError([(name: name, yen: value)]), "\(value) is not a budget")
            #expect(
                error.message.contains("'budgets.食費'") && error.message.contains("whole number of yen above 0"),
                "\(error.message)")
            #expect(error.description == error.message)
        }

        let twice = try #require(budgetError([("food", 1000), ("食費", 2000)]))
        #expect(twice.message.contains("'budgets.食費'") && twice.message.contains("'budgets.food'"), "\(twice.message)")
        let totals = try #require(budgetError([("total", 1000), ("合計", 2000)]))
        #expect(
            totals.message.contains("'budgets.合計'") && totals.message.contains("'budgets.total'"), "\(totals.message)")
        let subs = try #require(budgetError([("0/1", 1000), ("food/drink", 2000)]))
        #expect(
            subs.message.contains("'budgets.food/drink'") && subs.message.contains("'budgets.0/1'"), "\(subs.message)")
    }

    @Test("the config file's budgets are read by its own catalogue, numbers as JSON gives them")
    func configFile() async throws {
        try await withTemporaryDirectory { folder in
            let good = folder.appendingPathComponent("good.json")
            try writeText(#"{"budgets": {"total": 80000, "食費": "30,000", "娯楽費/交通費": 10000.0}}"#, to: good)
            let read = try #require(try ConfigFile.read(path: good.path).budgets)
            #expect(read.entries.map(\.key) == [.total, .category(0), .sub(1, 1)])
            #expect(read.entries.map(\.monthly) == [80000, 30000, 10000])

            let ownCatalogue = folder.appendingPathComponent("catalogue.json")
            try writeText(
                #"{"categories": [{"id": 7, "ja": "寄付", "en": "Donations"}], "budgets": {"donations": 500}}"#,
                to: ownCatalogue)
            #expect(try ConfigFile.read(path: ownCatalogue.path).budgets?.entries.map(\.key) == [.category(7)])

            for (name, json) in [
                ("fraction", #"{"budgets": {"食費": 1.5}}"#), ("unknown", #"{"budgets": {"食費": 1, "nope": 2}}"#),
                ("standard", #"{"categories": [{"id": 7, "ja": "寄付", "en": "Donations"}], "budgets": {"食費": 1}}"#),
                ("notObject", #"{"budgets": 80000}"#),
            ] {
                let file = folder.appendingPathComponent("\(name).json")
                try writeText(json, to: file)
                #expect(throws: ConfigError.self, "\(name)") { try ConfigFile.read(path: file.path) }
            }
        }
    }
}

// MARK: - Budget reports

@Suite("How a period did against its budgets")
struct BudgetReportTests {
    func budgets() throws -> Budgets {
        try Budgets([("total", 5000), ("食費", 1000), ("food/drink", 50), ("娯楽費/交通費", 4000)], catalogue: .standard)
    }

    @Test("spent sums the items each budget counts, refunds reduce it; left, used and over for one month")
    func oneMonth() throws {
        let report = BudgetReport(items: try marchItems(), budgets: try budgets(), months: 1)
        #expect(report.months == 1)
        #expect(report.lines.map(\.entry.key) == [.total, .category(0), .sub(0, 1), .sub(1, 1)])
        // Total: 1,500 + 178 - 78 + 3,000 + 500 + 1,000 = 6,100 of 5,000. Food: 1,500 + 178 - 78 = 1,600 of 1,000.
        // Drinks: 178 - 78 = 100 of 50. Transport: 3,000 of 4,000 (the film, with no sub, is not transport).
        #expect(report.lines.map(\.spent) == [6100, 1600, 100, 3000])
        #expect(report.lines.map(\.budget) == [5000, 1000, 50, 4000])
        #expect(report.lines.map(\.left) == [-1100, -600, -50, 1000])
        // 6,100 / 5,000 = 122.0 %; 1,600 / 1,000 = 160.0 %; 100 / 50 = 200.0 %; 3,000 / 4,000 = 75.0 %.
        #expect(report.lines.map(\.usedTenths) == [1220, 1600, 2000, 750])
        #expect(report.lines.map(\.isOver) == [true, true, true, false])
        #expect(report.isOver)
    }

    @Test("a budget is the monthly amount times the months; months of 0 or less count once")
    func severalMonths() throws {
        let report = BudgetReport(items: try marchItems(), budgets: try budgets(), months: 3)
        #expect(report.months == 3)
        #expect(report.lines.map(\.budget) == [15000, 3000, 150, 12000])
        #expect(report.lines.map(\.left) == [8900, 1400, 50, 9000])
        // 6,100 / 15,000 = 40.67 % → 40.7; 1,600 / 3,000 = 53.33 % → 53.3; 100 / 150 = 66.67 % → 66.7; 3,000 / 12,000 = 25.0 %.
        #expect(report.lines.map(\.usedTenths) == [407, 533, 667, 250])
        #expect(!report.isOver)

        for months in [0, -2] {
            let once = BudgetReport(items: try marchItems(), budgets: try budgets(), months: months)
            #expect(once.months == 1 && once.lines.map(\.budget) == [5000, 1000, 50, 4000], "\(months)")
        }
    }

    @Test("spending exactly the budget is not over; no items spend nothing")
    func edges() throws {
        let budget = try Budgets([("total", 1000)], catalogue: .standard)
        let exact = BudgetReport(
            items: [Item(id: "e", date: try day(2024, 3, 1), name: "x", price: 1000, category: 0, categorySub: nil)],
            budgets: budget, months: 1)
        #expect(exact.lines.map(\.usedTenths) == [1000] && exact.lines.map(\.left) == [0] && !exact.isOver)
        let none = BudgetReport(items: [], budgets: budget, months: 1)
        #expect(none.lines.map(\.spent) == [0] && none.lines.map(\.usedTenths) == [0] && !none.isOver)
        #expect(BudgetReport(items: [], budgets: try Budgets([], catalogue: .standard), months: 1).lines.isEmpty)
    }

    @Test(
        "the share used is in tenths of a percent, rounded half away from zero",
        arguments: [
            (2078, 1000, Int128(2078)),  // 207.8 %
            (1, 3, Int128(333)),  // 33.33 %
            (2, 3, Int128(667)),  // 66.67 %
            (1, 2000, Int128(1)),  // 0.05 % → 0.1
            (1, 8, Int128(125)),  // 12.5 % exactly
            (999_999, 1_000_000, Int128(1000)),  // 99.9999 % → 100.0
        ])
    func usedRounding(spent: Int, budget: Int, tenths: Int128) throws {
        let report = BudgetReport(
            items: [Item(id: "u", date: try day(2024, 3, 1), name: "x", price: spent, category: 0, categorySub: nil)],
            budgets: try Budgets([("total", budget)], catalogue: .standard), months: 1)
        #expect(report.lines.first?.usedTenths == tenths)
    }

    @Test("more refunded than spent: the share used is negative and exact")
    func refundsOnly() throws {
        // A refund of ¥500 against a ¥1,000 budget: -500 / 1,000 = -50.0 % exactly, -500 tenths.
        let report = BudgetReport(
            items: [Item(id: "r", date: try day(2024, 3, 1), name: "返品", price: -500, category: 0, categorySub: nil)],
            budgets: try Budgets([("食費", 1000)], catalogue: .standard), months: 1)
        #expect(report.lines.first?.spent == -500)
        #expect(report.lines.first?.left == 1500)
        #expect(report.lines.first?.usedTenths == -500)
    }

    @Test("a year's months: all twelve of a past year, this year's up to this month, one for a later year")
    func monthsOfAYear() throws {
        let now = try yearMonth(2026, 11)
        #expect(BudgetReport.months(ofYear: 2024, now: now) == 12)
        #expect(BudgetReport.months(ofYear: 2025, now: now) == 12)
        #expect(BudgetReport.months(ofYear: 2026, now: now) == 11)
        #expect(BudgetReport.months(ofYear: 2027, now: now) == 1)
        #expect(BudgetReport.months(ofYear: 2026, now: try yearMonth(2026, 1)) == 1)
        #expect(BudgetReport.months(ofYear: 2026, now: try yearMonth(2026, 12)) == 12)
    }

    @Test("the months a period's budget counts: one for a month, a year's loaded months up to this one")
    func monthsOfAPeriod() throws {
        let now = try yearMonth(2026, 11)
        let past = try (1...12).map { try yearMonth(2024, $0) }, this = try (1...12).map { try yearMonth(2026, $0) }
        #expect(BudgetReport.months(of: [try yearMonth(2024, 3)], missing: [], now: now) == 1)
        #expect(BudgetReport.months(of: past, missing: [], now: now) == 12)
        #expect(
            BudgetReport.months(of: past, missing: [past[4], past[7]], now: now) == 10,
            "missing months spent nothing countable")
        #expect(BudgetReport.months(of: this, missing: [], now: now) == 11)
        #expect(
            BudgetReport.months(of: this, missing: [this[11]], now: now) == 11, "December is not counted yet anyway")
        #expect(BudgetReport.months(of: this, missing: [this[0]], now: now) == 10)
        #expect(BudgetReport.months(of: try (1...12).map { try yearMonth(2027, $0) }, missing: [], now: now) == 1)
        #expect(BudgetReport.months(of: past, missing: Set(past), now: now) == 1, "at least once")
    }

    @Test("a year's summary counts every month's items against the budgets times the months")
    func yearSummary() throws {
        let march = try marchItems()
        let loaded = try (1...12).map { month in
            LoadedMonth(month: try yearMonth(2024, month), items: month == 3 ? march : [], source: .server)
        }
        let summary = Summary(
            period: .year(2024), grouping: .category, catalogue: .standard, loaded: loaded, budgets: try budgets(),
            budgetMonths: BudgetReport.months(ofYear: 2024, now: try yearMonth(2026, 11)))
        let report = try #require(summary.budget)
        #expect(report.months == 12)
        #expect(report.lines.map(\.budget) == [60000, 12000, 600, 48000])
        #expect(report.lines.map(\.spent) == [6100, 1600, 100, 3000])
        #expect(Summary(period: .year(2024), grouping: .category, catalogue: .standard, loaded: loaded).budget == nil)
    }
}

// MARK: - Donuts

@Suite("SVG donuts")
struct DonutChartTests {
    @Test("each drawn part's arc is its share of the circle, clockwise from the top, and the arcs close the circle")
    func arcsAreProportional() throws {
        let parts = [
            ChartPart(label: "Food", value: 5000, colour: "#E69F00"),
            ChartPart(label: "Entertainment", value: 1678, colour: "#56B4E9"),
            ChartPart(label: "Nothing", value: 0, colour: "#009E73"),
            ChartPart(label: "Refunds", value: -300, colour: "#F0E442"),
            ChartPart(label: "#7", value: 1000, colour: "#0072B2"),
            ChartPart(label: "Gifts", value: 322, colour: "#D55E00"),
        ]
        // Drawn: 5,000 + 1,678 + 1,000 + 322 = 8,000; Food's 5,000 is 62.5 %, more than half (a large arc).
        let svg = SVGChart.donut(title: "Spending", description: "by category", parts: parts, centre: "¥7,700")
        let elements = try parsedByPython(svg)
        let paths = elements.filter { $0.tag == "path" }
        #expect(
            paths.map { $0.attrs["data-label"] } == ["Food", "Entertainment", "#7", "Gifts"],
            "parts of 0 or less are not drawn")
        #expect(paths.map { $0.attrs["fill"] } == ["#E69F00", "#56B4E9", "#0072B2", "#D55E00"])
        #expect(paths.map { $0.attrs["data-value"] } == ["5000", "1678", "1000", "322"])
        #expect(paths.allSatisfy { $0.attrs["stroke"] == "#FFFFFF" }, "white between parts")
        #expect(paths.map(\.text) == ["Food ¥5,000", "Entertainment ¥1,678", "#7 ¥1,000", "Gifts ¥322"])

        let values: [Double] = [5000, 1678, 1000, 322]
        var total = 0.0
        var before = 0.0
        for (path, value) in zip(paths, values) {
            let pieces = try ringPieces(try #require(path.attrs["d"]))
            let piece = try #require(pieces.first)
            #expect(pieces.count == 1, "a part less than the whole is one segment")
            #expect(piece.outerRadius == 150 && piece.innerRadius == 88)
            #expect(
                piece.outerSweepFlag == 1 && piece.innerSweepFlag == 0, "clockwise out, back counter-clockwise inside")
            let sweep = clockwiseSweep(from: piece.outerFrom, to: piece.outerTo)
            let share = value / 8000 * 2 * .pi
            // The points are printed with two decimals: about 5e-5 rad at the outer radius, so 2e-4 for a sweep.
            #expect(abs(sweep - share) < 2e-4, "\(path.attrs["data-label"] ?? ""): \(sweep) rad, not \(share)")
            // The large-arc flag must say which of the two arcs between the points is meant, or a renderer draws the other.
            #expect(
                abs(sweep - .pi) < 1e-3 || (piece.outerLarge == 1) == (sweep > .pi), "large-arc flag of \(sweep) rad")
            #expect(piece.innerLarge == piece.outerLarge)
            #expect(
                abs(clockwiseSweep(from: piece.innerFrom, to: piece.innerTo) - sweep) < 5e-4,
                "the inner edge spans the same angle")
            // Every end is the exact point to the printed precision.
            let start = before / 8000 * 2 * .pi, end = (before + value) / 8000 * 2 * .pi
            #expect(
                isPrinted(piece.outerFrom, radius: 150, angle: start)
                    && isPrinted(piece.outerTo, radius: 150, angle: end))
            #expect(
                isPrinted(piece.innerFrom, radius: 88, angle: start) && isPrinted(piece.innerTo, radius: 88, angle: end)
            )
            before += value
            total += sweep
        }
        let first = try ringPieces(try #require(paths.first?.attrs["d"])).first
        #expect(first?.outerFrom.x == 160 && first?.outerFrom.y == 10, "the first part starts at the top")
        #expect(abs(total - 2 * .pi) < 1e-6, "the arcs sum to \(total) rad")
        #expect(elements.contains { $0.tag == "text" && $0.text == "¥7,700" }, "the whole in the middle")
    }

    @Test("one part is a whole ring of two half arcs, with no white stroke")
    func wholeRing() throws {
        let svg = SVGChart.donut(
            title: "t", description: "d",
            parts: [
                ChartPart(label: "Food", value: 1234, colour: "#E69F00"),
                ChartPart(label: "Empty", value: 0, colour: "#56B4E9"),
            ],
            centre: "¥1,234", legend: false)
        let paths = try parsedByPython(svg).filter { $0.tag == "path" }
        #expect(paths.count == 1)
        let path = try #require(paths.first)
        #expect(path.attrs["stroke"] == nil && path.attrs["stroke-width"] == nil, "no neighbour to be told from")
        let pieces = try ringPieces(try #require(path.attrs["d"]))
        #expect(pieces.count == 2)
        let sweeps = pieces.map { clockwiseSweep(from: $0.outerFrom, to: $0.outerTo) }
        #expect(sweeps.allSatisfy { abs($0 - .pi) < 2e-4 }, "\(sweeps)")
        #expect(abs(sweeps.reduce(0, +) - 2 * .pi) < 1e-6)
        #expect(pieces.allSatisfy { $0.outerRadius == 150 && $0.innerRadius == 88 })
        #expect(svg.contains("viewBox=\"0 0 320 320\""), "no room for a legend when the page has its own")
    }

    @Test("nothing to draw: a grey ring and no parts")
    func nothing() throws {
        let svg = SVGChart.donut(
            title: "t", description: "d", parts: [ChartPart(label: "Refund", value: -800, colour: "#E69F00")],
            centre: "¥-800")
        let elements = try parsedByPython(svg)
        #expect(!elements.contains { $0.tag == "path" })
        #expect(elements.contains { $0.tag == "circle" && $0.attrs["stroke"] == "#DDDDDD" })
    }

    @Test("a <title> and a <desc>, and names with <&\" and control characters escaped so that the XML parses")
    func escaped() throws {
        let title = "Food & <drinks> \"2024\" 'x'\u{07}"
        let label = "A<B&C\"D\u{1B}[31m"
        let svg = SVGChart.donut(
            title: title, description: "line\none\ttab \u{0}nul \u{7F}del",
            parts: [
                ChartPart(label: label, value: 10, colour: "#E69F00"),
                ChartPart(label: "plain", value: 5, colour: "#56B4E9"),
            ], centre: "¥<15>")
        #expect(svg.contains("<title>Food &amp; &lt;drinks&gt; &quot;2024&quot; &#39;x&#39;\u{FFFD}</title>"))
        #expect(
            !svg.unicodeScalars.contains {
                ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
            })
        let elements = try parsedByPython(svg)
        #expect(elements.first?.tag == "svg" && elements.first?.ns == "http://www.w3.org/2000/svg")
        #expect(elements.first?.attrs["role"] == "img")
        #expect(
            elements.dropFirst().first?.tag == "title" && elements.dropFirst(2).first?.tag == "desc",
            "title and desc come first")
        #expect(elements.dropFirst().first?.text == "Food & <drinks> \"2024\" 'x'\u{FFFD}")
        #expect(
            elements.dropFirst(2).first?.text == "line\none\ttab \u{FFFD}nul \u{FFFD}del", "newlines and tabs are kept")
        let path = try #require(elements.first { $0.tag == "path" })
        #expect(path.attrs["data-label"] == "A<B&C\"D\u{FFFD}[31m")
        #expect(path.text == "A<B&C\"D\u{FFFD}[31m ¥10")
        #expect(elements.contains { $0.tag == "text" && $0.text == "¥<15>" })
        #expect(SVGChart.escaped("a\r\nb") == "a\u{FFFD}b")
    }

    @Test("characters XML never allows (U+FFFE, U+FFFF) do not break the document either")
    func noncharacters() throws {
        // A catalogue's name is whatever the config file holds; "\uFFFF" is valid JSON.
        let svg = SVGChart.donut(
            title: "食\u{FFFF}費", description: "\u{FFFE}",
            parts: [ChartPart(label: "x\u{FFFF}", value: 1, colour: "#E69F00")],
            centre: "¥1")
        do {
            _ = try parsedByPython(svg)
        } catch {
            Issue.record("the SVG is not well-formed XML: \(error)")
        }
    }
}

// MARK: - Stacked bars and budget bars

@Suite("SVG bars")
struct BarChartTests {
    static let food = "#E69F00", fun = "#56B4E9"
    /// Food and entertainment per month; May is missing. Totals 3,500 4,000 4,000 1,800 – 8,000 3,000 4,000 2,200 6,200 2,800 3,900.
    static let foodValues: [Int128?] = [3000, 2500, 4000, 1000, nil, 6000, 2000, 3500, 1500, 5000, 2500, 3000]
    static let funValues: [Int128] = [500, 1500, 0, 800, 0, 2000, 1000, 500, 700, 1200, 300, 900]

    static func bars() -> [ChartBar] {
        (0..<12).map { index in
            guard let food = foodValues[index] else { return ChartBar(label: "\(index + 1)月", parts: [], total: nil) }
            return ChartBar(
                label: "\(index + 1)月",
                parts: [
                    ChartPart(label: "食費", value: food, colour: Self.food),
                    ChartPart(label: "娯楽費", value: funValues[index], colour: Self.fun),
                ],
                total: food + funValues[index])
        }
    }

    static let legend = [
        ChartPart(label: "食費", value: 39000, colour: food), ChartPart(label: "娯楽費", value: 9400, colour: fun),
    ]

    /// The month (0–11) whose slot an x falls in.
    static func slot(_ x: Double) -> Int { Int(((x - 70) / (640.0 / 12)).rounded(.down)) }

    @Test("twelve bars: twelve month labels, a total above each month that is not missing, heights in proportion")
    func twelveBars() throws {
        let svg = SVGChart.stackedBars(title: "月別", description: "2024", bars: Self.bars(), legend: Self.legend)
        let elements = try parsedByPython(svg)
        let texts = elements.filter { $0.tag == "text" }
        let labels = texts.filter { $0.attrs["text-anchor"] == "middle" && $0.attrs["font-size"] == "12" }
        #expect(labels.map(\.text) == (1...12).map { "\($0)月" })
        let totals = texts.filter { $0.attrs["class"] == "bar-total" }
        #expect(
            totals.map(\.text) == [
                "3,500", "4,000", "4,000", "1,800", "8,000", "3,000", "4,000", "2,200", "6,200", "2,800", "3,900",
            ])
        #expect(texts.filter { $0.text == "–" }.count == 1, "the missing month is marked, not drawn")
        #expect(!elements.contains { $0.attrs["class"] == "budget-line" })
        #expect(
            elements.first?.tag == "svg" && elements.dropFirst().first?.tag == "title"
                && elements.dropFirst(2).first?.tag == "desc")

        let rects = elements.filter { $0.tag == "rect" && $0.attrs["data-value"] != nil }
        // 11 food parts and 10 entertainment parts above 0 (March's is 0, May is missing).
        #expect(rects.count == 21)
        // The largest month, June's ¥8,000, fills the 260 units of the plot.
        for rect in rects {
            let value = try #require(rect.number("data-value")), height = try #require(rect.number("height"))
            #expect(abs(height - value / 8000 * 260) < 1e-9, "\(rect.attrs)")
        }
        var stacks: [Int: (top: Double, height: Double)] = [:]
        for rect in rects {
            let x = try #require(rect.number("x")), y = try #require(rect.number("y")),
                height = try #require(rect.number("height"))
            let month = Self.slot(x)
            // Each part sits on the one below it, the first on the axis at 290.
            #expect(abs(y + height - (stacks[month]?.top ?? 290)) < 1e-9, "month \(month + 1)")
            stacks[month] = (y, (stacks[month]?.height ?? 0) + height)
        }
        #expect(stacks.keys.sorted() == [0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11])
        let tallest = try #require(stacks.max { $0.value.height < $1.value.height })
        #expect(
            tallest.key == 5 && abs(tallest.value.height - 260) < 1e-9, "June, the largest total, is the tallest bar")
        for (month, stack) in stacks {
            let total = Double(try #require(Self.foodValues[month]) + Self.funValues[month])
            #expect(abs(stack.height - total / 8000 * 260) < 1e-9, "month \(month + 1)")
        }
        // June's total sits 5 above its bar.
        #expect(totals.dropFirst(4).first?.number("y") == 25)
    }

    @Test("a budget draws a dashed line at its height, and one above every month sets the scale")
    func budgetLine() throws {
        let below = try parsedByPython(
            SVGChart.stackedBars(
                title: "t", description: "d", bars: Self.bars(), legend: Self.legend,
                budget: (5000, "月の予算 ¥5,000")))
        let line = try #require(below.first { $0.attrs["class"] == "budget-line" })
        #expect(below.filter { $0.attrs["class"] == "budget-line" }.count == 1)
        // 290 - 5,000 / 8,000 × 260 = 127.5.
        #expect(line.number("y1") == 127.5 && line.number("y2") == 127.5)
        #expect(line.number("x1") == 70 && line.number("x2") == 710)
        #expect(line.attrs["stroke-dasharray"] != nil)
        #expect(below.contains { $0.tag == "text" && $0.text == "月の予算 ¥5,000" })

        let above = try parsedByPython(
            SVGChart.stackedBars(
                title: "t", description: "d", bars: Self.bars(), legend: Self.legend,
                budget: (10000, "月の予算 ¥10,000")))
        #expect(
            above.first { $0.attrs["class"] == "budget-line" }?.number("y1") == 30, "the budget is the top of the plot")
        // June: 8,000 / 10,000 × 260 = 208.
        let june = above.filter {
            $0.tag == "rect" && $0.attrs["data-value"] != nil && Self.slot($0.number("x") ?? 0) == 5
        }
        #expect(abs(june.compactMap { $0.number("height") }.reduce(0, +) - 208) < 1e-9)
    }

    @Test("a month whose refunds leave a category below 0 still keeps its bar inside the plot")
    func refundedCategoryStaysInside() throws {
        // March: food ¥30,000 and an entertainment refund of ¥5,000: ¥25,000, the year's largest total, but its food part
        // alone is ¥30,000 tall.
        let bars = [
            ChartBar(label: "1月", parts: [ChartPart(label: "食費", value: 10000, colour: Self.food)], total: 10000),
            ChartBar(
                label: "3月",
                parts: [
                    ChartPart(label: "食費", value: 30000, colour: Self.food),
                    ChartPart(label: "娯楽費", value: -5000, colour: Self.fun),
                ], total: 25000),
        ]
        let elements = try parsedByPython(
            SVGChart.stackedBars(title: "t", description: "d", bars: bars, legend: Self.legend))
        for rect in elements where rect.tag == "rect" && rect.attrs["data-value"] != nil {
            #expect((rect.number("y") ?? -1) >= 30 - 1e-9, "a bar runs above the plot (y = \(rect.attrs["y"] ?? "?"))")
        }
        for text in elements where text.attrs["class"] == "bar-total" {
            #expect(
                (text.number("y") ?? -1) >= 0, "a total is drawn outside the picture (y = \(text.attrs["y"] ?? "?"))")
        }
    }

    @Test(
        "budget bars: each row on its own scale, what was spent against a mark at its budget, the share used and over")
    func budgetBars() throws {
        let svg = SVGChart.budgetBars(
            title: "予算と支出", description: "食費: ¥32,000 / ¥30,000（超過）",
            lines: [
                (label: "合計", spent: 36000, budget: 80000, colour: "#666666", used: "45.0%", over: nil),
                (label: "食費", spent: 32000, budget: 30000, colour: Self.food, used: "106.7%", over: "超過"),
                (label: "娯楽費/交通費", spent: 4000, budget: 10000, colour: Self.fun, used: "40.0%", over: nil),
                (
                    label: "Entertainment/Transportation", spent: 0, budget: 5000, colour: Self.fun, used: "0.0%",
                    over: nil
                ),
            ])
        let elements = try parsedByPython(svg)
        #expect(elements.first?.attrs["class"] == "chart budget")
        #expect(
            elements.dropFirst().first?.text == "予算と支出"
                && elements.dropFirst(2).first?.text == "食費: ¥32,000 / ¥30,000（超過）")
        // Each row's scale is the larger of its budget and its spending, 180 wide from x = 200: 36,000 / 80,000 = 81;
        // food fills the row (32,000 spent), its budget at 30,000 / 32,000 × 180 = 168.75; 4,000 / 10,000 = 72; nothing.
        let spent = elements.filter { $0.tag == "rect" && $0.attrs["fill"] != "#F2F2F2" }
        #expect(spent.map { $0.attrs["fill"] } == ["#666666", Self.food, Self.fun, Self.fun])
        let widths = spent.compactMap { $0.number("width") }
        #expect(
            widths.count == 4 && zip(widths, [81.0, 180.0, 72.0, 0.0]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(widths)")
        let marks = elements.filter { $0.attrs["class"] == "budget-line" }.compactMap { $0.number("x1") }
        #expect(
            marks.count == 4 && zip(marks, [380.0, 368.75, 380.0, 380.0]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(marks)"
        )
        let texts = elements.filter { $0.tag == "text" }
        #expect(texts.map(\.own) == ["合計", "45.0%", "食費", "106.7% 超過", "娯楽費/交通費", "40.0%", "Entertainme…", "0.0%"])
        #expect(
            texts.filter { $0.attrs["font-weight"] == "bold" }.map(\.own) == ["106.7% 超過"],
            "only the overspent row is bold")
        // A shortened name keeps its whole in a tooltip.
        #expect(texts.dropFirst(6).first?.text == "Entertainme…Entertainment/Transportation")
    }
}

// MARK: - Palette

@Suite("Chart colours")
struct ChartPaletteTests {
    @Test("a category keeps its colour whatever the summary holds")
    func stable() throws {
        let page = ReportPage(catalogue: .standard, japanese: false)
        let month = try yearMonth(2024, 3)
        let onlyFun = [Item(id: "f", date: try day(2024, 3, 9), name: "電車", price: 3000, category: 1, categorySub: 1)]
        func fills(_ items: [Item]) throws -> [String: String] {
            let summary = Summary(
                period: .month(try #require(YearMonth(year: 2024, month: 3))), grouping: .category,
                catalogue: .standard,
                loaded: [LoadedMonth(month: month, items: items, source: .server)])
            var found: [String: String] = [:]
            for path in try parsedByPython(page.chart(summary)) where path.tag == "path" {
                found[path.attrs["data-label"] ?? ""] = path.attrs["fill"]
            }
            return found
        }
        let alone = try fills(onlyFun), together = try fills(try marchItems())
        #expect(alone == ["Entertainment": "#56B4E9"])
        #expect(together["Entertainment"] == "#56B4E9" && together["Food"] == "#E69F00")
        #expect(ChartPalette.colour(ofCategory: 1, in: .standard) == "#56B4E9")
        #expect(ChartPalette.colour(ofCategory: 0, in: .standard) == ChartPalette.colours[0])
    }

    @Test("eight categories have eight different colours, in the catalogue's order")
    func distinct() {
        let colours = eightCategories.categories.map { ChartPalette.colour(ofCategory: $0.id, in: eightCategories) }
        #expect(Set(colours).count == 8)
        #expect(colours == ChartPalette.colours)
        #expect(Set(ChartPalette.colours.map { $0.uppercased() }).count == ChartPalette.colours.count)
    }

    @Test("a sub-category's colour is lighter than its category's and never the category's own")
    func subsAreLighter() throws {
        for category in eightCategories.categories {
            let own = try channels(ChartPalette.colour(ofCategory: category.id, in: eightCategories))
            var seen: Set<String> = []
            for place in 0..<12 {
                let hex = ChartPalette.colour(ofSub: place, inCategory: category.id, in: eightCategories)
                let sub = try channels(hex)
                #expect(
                    hex != ChartPalette.colour(ofCategory: category.id, in: eightCategories),
                    "\(category.id) place \(place)")
                #expect(
                    zip(sub, own).allSatisfy { $0 >= $1 } && sub.reduce(0, +) > own.reduce(0, +),
                    "\(hex) is not lighter than \(own) (category \(category.id), place \(place))")
                // No lighter than two thirds of the way to white, so it still shows on a white page.
                #expect(zip(sub, own).allSatisfy { Double($0) <= Double($1) + Double(255 - $1) * 0.67 + 0.5 })
                if place < 6 { seen.insert(hex) }
            }
            #expect(seen.count == 6, "the first six subs of category \(category.id) differ")
        }
        #expect(ChartPalette.lightened("#000000", by: 0.5) == "#808080")
        #expect(
            ChartPalette.lightened("#E69F00", by: 0) == "#E69F00"
                && ChartPalette.lightened("#E69F00", by: 1) == "#FFFFFF")
    }

    @Test("the sub-category donut's parts of a category with several lines are its colour lightened, never its own")
    func subDonutParts() throws {
        let page = ReportPage(catalogue: .standard, japanese: false)
        let parts = page.subParts([LoadedMonth(month: try yearMonth(2024, 3), items: try marchItems(), source: .server)]
        )
        let food = try channels(ChartPalette.colour(ofCategory: 0, in: .standard))
        let foodSubs = parts.filter { $0.label.hasPrefix("Food/") }
        #expect(foodSubs.map(\.label) == ["Food/Grocery", "Food/Drink", "Food/Sweets", "Food/Supplement"])
        for part in foodSubs {
            let sub = try channels(part.colour)
            #expect(part.colour != ChartPalette.colour(ofCategory: 0, in: .standard))
            #expect(zip(sub, food).allSatisfy { $0 >= $1 } && sub.reduce(0, +) > food.reduce(0, +), "\(part)")
        }
        #expect(parts.first { $0.label == "Food/Drink" }?.value == 100)
        #expect(parts.first { $0.label == "Entertainment/none" }?.value == 500)
    }
}

// MARK: - The report page

@Suite("The HTML report page")
struct ReportPageTests {
    /// March's items, out of date order, one named like markup.
    static func items() throws -> [Item] {
        [
            Item(id: "m3", date: try day(2024, 3, 20), name: "電車", price: 4000, category: 1, categorySub: 1),
            Item(id: "m1", date: try day(2024, 3, 2), name: "米", price: 8000, category: 0, categorySub: 0),
            Item(id: "m4", date: try day(2024, 3, 9), name: "パン", price: 500, category: 0, categorySub: 0),
            Item(id: "m2", date: try day(2024, 3, 9), name: "コーヒー", price: 700, category: 0, categorySub: 1),
            Item(
                id: "m5", date: try day(2024, 3, 28), name: "<script>alert(1)</script>", price: 300, category: 7,
                categorySub: nil),
        ]
    }

    static func monthPage(japanese: Bool, source: MonthSource = .server, budgets: Budgets? = nil) throws -> String {
        let loaded = [LoadedMonth(month: try yearMonth(2024, 3), items: try items(), source: source)]
        let summary = Summary(
            period: .month(try #require(YearMonth(year: 2024, month: 3))), grouping: .category, catalogue: .standard,
            loaded: loaded, budgets: budgets)
        return ReportPage(catalogue: .standard, japanese: japanese).render(summary, loaded: loaded)
    }

    /// Nothing the page could fetch: no script, no stylesheet or font link, no URL but the SVG namespace.
    static func expectSelfContained(_ html: String) {
        let lowered = html.lowercased()
        for banned in ["<script", "<link", "<iframe", "<img", "@import", "url("] {
            #expect(!lowered.contains(banned), "the page has \(banned)")
        }
        let withoutNamespace = lowered.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        #expect(!withoutNamespace.contains("http://") && !withoutNamespace.contains("https://"), "a URL in the page")
        #expect(!withoutNamespace.contains("//www.") && !withoutNamespace.contains("src="))
    }

    @Test("a month in Japanese: two donuts, the totals, the items by date, Japanese words, nothing fetched")
    func japaneseMonth() throws {
        let html = try Self.monthPage(japanese: true)
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"ja\">\n"))
        #expect(html.contains("<meta charset=\"utf-8\">") && html.contains("name=\"viewport\""))
        #expect(html.contains("<title>家計簿 2024年3月</title>") && html.contains("<h1>家計簿 2024年3月</h1>"))
        for word in [
            "合計", "明細", "日付", "品名", "項目", "件数", "金額", "割合", "食費", "娯楽費", "食費/食品", "娯楽費/交通費",
            "項目別の支出", "サブ項目別の支出",
        ] {
            #expect(html.contains(word), "\(word)")
        }
        #expect(!html.contains("Total") && !html.contains("Items"), "no English words")
        // 8,000 + 500 + 700 + 4,000 + 300 = 13,500 in 5 items.
        #expect(html.contains("<strong>¥13,500</strong> (5件)"))

        let charts = svgDocuments(in: html)
        try #require(charts.count == 2)
        #expect(charts.allSatisfy { $0.contains("class=\"chart donut\"") })
        for chart in charts {
            let elements = try parsedByPython(chart)
            #expect(elements.first?.tag == "svg" && elements.dropFirst().first?.tag == "title")
        }
        let categoryArcs = try parsedByPython(charts[0]).filter { $0.tag == "path" }.compactMap {
            $0.attrs["data-label"]
        }
        #expect(categoryArcs == ["食費", "娯楽費", "#7"])
        let subArcs = try parsedByPython(charts[1]).filter { $0.tag == "path" }.compactMap { $0.attrs["data-label"] }
        // A category with one line (#7, all without a sub) is named and coloured as the category.
        #expect(subArcs == ["食費/食品", "食費/飲料", "娯楽費/交通費", "#7"])

        let totals = try section(of: html, from: "<table class=\"totals\">", to: "</table>")
        #expect(occurrences(of: "<tr>", in: totals) == 5, "a heading, three categories and the total")
        #expect(
            totals.contains("<td>食費</td><td class=\"n\">3</td><td class=\"n\">¥9,200</td><td class=\"n\">68.1%</td>"))
        #expect(totals.contains("<tfoot><tr><td></td><td>合計</td><td class=\"n\">5</td><td class=\"n\">¥13,500</td>"))

        let itemRows = try section(of: html, from: "<table class=\"items\">", to: "</table>")
        let dates = itemRows.components(separatedBy: "<td class=\"d\">").dropFirst().map { String($0.prefix(10)) }
        #expect(dates == ["2024-03-02", "2024-03-09", "2024-03-09", "2024-03-20", "2024-03-28"])
        let coffee = try #require(itemRows.range(of: "コーヒー")), bread = try #require(itemRows.range(of: "パン"))
        #expect(coffee.lowerBound < bread.lowerBound, "items of one day by name")
        #expect(itemRows.contains("<td>&lt;script&gt;alert(1)&lt;/script&gt;</td><td>#7</td>"))
        #expect(itemRows.contains("<td>食費/飲料</td><td class=\"n\">¥700</td>"))
        #expect(!html.contains("class=\"sources\""), "every month from the server: no note")
        Self.expectSelfContained(html)
    }

    @Test("in English: lang en and English words")
    func englishMonth() throws {
        let html = try Self.monthPage(japanese: false)
        #expect(html.contains("<html lang=\"en\">"))
        #expect(html.contains("<title>Expenses Mar 2024</title>"))
        for word in ["Total", "Items", "Date", "Name", "Category", "Spending by category", "Food/Grocery"] {
            #expect(html.contains(word), "\(word)")
        }
        #expect(!html.contains("合計"))
        Self.expectSelfContained(html)
    }

    @Test("a month from the cache is named with the time it was fetched")
    func cachedMonth() throws {
        let fetchedAt = Date(timeIntervalSince1970: 1_711_000_000)
        let english = try Self.monthPage(japanese: false, source: .cache(fetchedAt: fetchedAt, complete: true))
        // In the local time zone, with its offset: a page read in Japan names Japan's time.
        let local = LocalTime.text(fetchedAt)
        #expect(
            local.hasSuffix(TimeZone.current.secondsFromGMT() == 0 ? "Z" : ":00") && local.hasPrefix("2024-03-21 "),
            "\(local)")
        #expect(english.contains("<ul class=\"sources\"><li>2024-03: from the cache, as fetched \(local)</li></ul>"))
        let japanese = try Self.monthPage(japanese: true, source: .cache(fetchedAt: fetchedAt, complete: false))
        #expect(japanese.contains("<li>2024-03: キャッシュ（\(local) 取得）、ここで登録した分のみ</li>"))
        let never = try Self.monthPage(japanese: false, source: .cache(fetchedAt: nil, complete: false))
        #expect(never.contains("<li>2024-03: from the cache"), "a copy never fetched is still named")
    }

    @Test("with budgets, a budget chart follows the donuts")
    func monthWithBudgets() throws {
        let budgets = try Budgets([("total", 20000), ("食費", 9000), ("娯楽費/交通費", 5000)], catalogue: .standard)
        let html = try Self.monthPage(japanese: true, budgets: budgets)
        let charts = svgDocuments(in: html)
        #expect(charts.count == 3)
        let budget = try #require(charts.last)
        #expect(budget.contains("class=\"chart budget\""))
        #expect(html.contains("<figcaption>予算</figcaption>"))
        let elements = try parsedByPython(budget)
        // Food: 8,000 + 500 + 700 = 9,200 of 9,000, over; transport 4,000 of 5,000; all 13,500 of 20,000.
        #expect(
            elements.dropFirst(2).first?.text
                == "合計: ¥13,500 / ¥20,000; 食費: ¥9,200 / ¥9,000（超過）; 娯楽費/交通費: ¥4,000 / ¥5,000")
        #expect(
            elements.filter { $0.tag == "text" }.map(\.own) == ["合計", "67.5%", "食費", "102.2% 超過", "娯楽費/交通費", "80.0%"])
        Self.expectSelfContained(html)
    }

    @Test("a year: one stacked bar chart, a row per month, the budget line at the monthly total budget")
    func year() throws {
        var loaded = try (1...12).map { month -> LoadedMonth in
            let items = try (0..<(month % 4 + 1)).map { index in
                Item(
                    id: "y\(month)-\(index)", date: try day(2024, month, index + 1), name: "品\(index)",
                    price: 1000 * (index + 1),
                    category: index % 2, categorySub: nil)
            }
            return LoadedMonth(month: try yearMonth(2024, month), items: items, source: .server)
        }
        loaded[2] = LoadedMonth(
            month: try yearMonth(2024, 3), items: [], source: .missing(.notCached(try yearMonth(2024, 3))))
        let budgets = try Budgets([("total", 8000)], catalogue: .standard)
        let summary = Summary(
            period: .year(2024), grouping: .category, catalogue: .standard, loaded: loaded, budgets: budgets,
            budgetMonths: 12)
        let html = ReportPage(catalogue: .standard, japanese: false).render(summary, loaded: loaded)
        #expect(html.contains("<title>Expenses 2024</title>"))
        let charts = svgDocuments(in: html)
        #expect(charts.filter { $0.contains("class=\"chart bars\"") }.count == 1)
        #expect(!charts.contains { $0.contains("class=\"chart donut\"") })
        try #require(charts.count == 2)
        #expect(charts[1].contains("class=\"chart budget\""))
        let bars = try parsedByPython(charts[0])
        #expect(
            bars.filter { $0.tag == "text" && $0.attrs["text-anchor"] == "middle" && $0.attrs["font-size"] == "12" }
                .map(\.text)
                == ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"])
        #expect(bars.filter { $0.attrs["class"] == "bar-total" }.count == 11, "March is missing")
        // Months with month % 4 == 3 hold 1,000 + 2,000 + 3,000 + 4,000 = 10,000, the largest: 290 - 8,000 / 10,000 × 260 = 82.
        let line = try #require(bars.first { $0.attrs["class"] == "budget-line" })
        #expect(abs((line.number("y1") ?? 0) - 82) < 1e-9)
        #expect(bars.contains { $0.tag == "text" && $0.text == "monthly budget ¥8,000" })

        let months = try section(of: html, from: "<table class=\"months\">", to: "</table>")
        let body = try section(of: months, from: "<tbody>", to: "</tbody>")
        #expect(occurrences(of: "<tr>", in: body) == 12)
        #expect(body.contains("<td class=\"d\">2024-03</td><td class=\"n\">–</td>"))
        #expect(html.contains("<li>2024-03: could not be loaded (not counted)</li>"))
        #expect(!html.contains("<table class=\"items\">"))
        Self.expectSelfContained(html)

        let japanese = ReportPage(catalogue: .standard, japanese: true).render(summary, loaded: loaded)
        #expect(
            japanese.contains("<h1>家計簿 2024年</h1>") && japanese.contains(">1月</text>")
                && japanese.contains(">12月</text>"))
    }
}
