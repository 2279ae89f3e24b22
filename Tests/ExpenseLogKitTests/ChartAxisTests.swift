import Testing

@testable import ExpenseLogRendering

/// The year chart's axis: lines at round values a person would draw, reaching just past the largest bar.
@Suite struct ChartAxisTests {
    @Test(arguments: [
        (562_572, 200_000), (140_643, 50_000), (80_000, 20_000), (99_999, 25_000), (1_000_001, 500_000), (3, 1), (1, 1),
    ])
    func theStepIsOneTwoTwoAndAHalfOrFiveTimesAPowerOfTen(largest: Int, step: Int) {
        #expect(SVGChart.roundStep(Int128(largest)) == Int128(step))
    }

    @Test func theLinesOfTheYearChartAreLabelledWithRoundValues() {
        let bars = [
            ChartBar(label: "1", parts: [ChartPart(label: "Food", value: 562_572, colour: "#000000")], total: 562_572)
        ]
        let svg = SVGChart.stackedBars(title: "t", description: "d", bars: bars, legend: [])
        for label in ["200,000", "400,000", "600,000"] { #expect(svg.contains(">\(label)</text>"), "\(label)") }
        #expect(!svg.contains(">140,643</text>") && !svg.contains(">562,572</text><line"))
    }
}
