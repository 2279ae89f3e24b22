import ExpenseLogModel
import Foundation

/// `summary --format json` as docs/summary.md documents it, decoded strictly: a renamed or retyped key fails the test.
struct SummaryDocument: Decodable {
    struct Row: Decodable, Equatable {
        let category: Int
        let name: String
        let sub: Int?
        let subName: String?
        let count: Int
        let total: Int
        let share: Double?
    }

    struct Month: Decodable {
        let month: Int
        let count: Int?
        let total: Int?
        let categories: [Row]?
    }

    struct Source: Decodable {
        let month: String
        let source: String
        let fetchedAt: String?
        let complete: Bool
        let error: String?
    }

    let year: Int
    let month: Int?
    let by: String
    let count: Int
    let total: Int
    let categories: [Row]
    let months: [Month]?
    let sources: [Source]

    init(_ text: String) throws {
        self = try JSONDecoder().decode(SummaryDocument.self, from: Data(text.utf8))
    }

    /// The row of a category (and sub-category) among some rows.
    static func row(_ rows: [Row]?, _ category: Int, sub: Int? = nil) throws -> Row {
        guard let found = rows?.first(where: { $0.category == category && $0.sub == sub }) else {
            throw TestFailure("no row for category \(category) sub \(sub.map(String.init) ?? "none") in \(rows ?? [])")
        }
        return found
    }
}

/// Items across the first four months of 2024 (and one of 2023, never counted), with totals worked out by hand in the tests.
enum SummarySamples {
    static let items: [Item] = [
        Samples.item("J1", "20240105", "コーヒー", 178),
        Samples.item("J2", "20240115", "ラーメン", 1500, sub: 0),
        Samples.item("J3", "20240131", "映画", 1800, category: 1, sub: nil),
        Samples.item("F1", "20240201", "紅茶", 200),
        Samples.item("F2", "20240210", "電車", 400, category: 1, sub: 1),
        Samples.item("F3", "20240211", "返金", -150, category: 1, sub: 1),
        Samples.item("M1", "20240303", "本", 1200, category: 1, sub: 2),
        Samples.item("M2", "20240320", "寄付", 1000, category: 7, sub: nil),
        Samples.item("A1", "20240405", "返品", -800, sub: 0),
        Samples.item("X1", "20231231", "年越しそば", 900, sub: 0),
    ]

    /// The largest number of GETs the server was answering at once, from when each arrived and was answered.
    static func mostGETsInFlight(_ requests: [LoggedRequest]) -> Int {
        let events = requests.filter { $0.method == "GET" }.flatMap { request in
            [(request.time, 1), (request.answered ?? .infinity, -1)]
        }
        // At equal times an answer ends before the next request starts.
        var now = 0
        var most = 0
        for (_, change) in events.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
            now += change
            most = max(most, now)
        }
        return most
    }
}
