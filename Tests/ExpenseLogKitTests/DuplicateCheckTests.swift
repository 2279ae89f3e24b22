import Foundation
import Testing

@testable import ExpenseLogClient
@testable import ExpenseLogImport
@testable import ExpenseLogModel
@testable import ExpenseLogStore
@testable import ExpenseLogUseCases

/// `register`'s duplicate check in-process, over a fake server and a real outbox.
@Suite struct DuplicateCheckTests {
    /// The rows of `input` spooled and recorded as `in.csv` lines 2, 3…
    func spooled(_ input: [Item]) throws -> (ItemSpool, ImportRecord) {
        let spool = try ItemSpool()
        var report = ImportRecord(files: ["in.csv"])
        for (line, item) in input.enumerated() {
            let offset = try spool.append(item, tag: Int32(line))
            _ = report.appendSpooled(at: SourceLocation(file: "in.csv", line: line + 2), offset: offset)
        }
        return (spool, report)
    }

    func ids(_ spool: ItemSpool) throws -> [String] {
        var reader = try spool.reader()
        var ids: [String] = []
        while let (item, _) = try reader.next() { ids.append(item.id) }
        return ids
    }

    @Test func skipsKnownIDsMatchesStatementRowsAndKeepsTypedOnes() async throws {
        try await withTemporaryDirectory { root in
            let onServer = Item(
                id: "S1", date: try day(2024, 1, 5), name: "コーヒー", price: 178, category: 0, categorySub: 1)
            let waiting = Item(
                id: "5D0F1C2A-0000-4000-8000-000000000001", date: try day(2024, 1, 6), name: "ラーメン", price: 980,
                category: 0, categorySub: 0)
            let outbox = releasePaths(root).outbox
            try outbox.append([OutboxBatch(key: "WAIT-1", items: [waiting])])
            // Rows 1 and 3 are statement rows; row 2 has the same content as the waiting ramen but is typed: it is kept.
            // The waiting ramen was typed (a random id): a statement row may be it.
            let input = [
                Item(id: "S1", date: try day(2024, 1, 5), name: "coffee", price: 1, category: 0, categorySub: nil),
                Item(id: "N2", date: try day(2024, 1, 7), name: "ﾗｰﾒﾝ一蘭 渋谷店", price: 980, category: 0, categorySub: 0),
                Item(id: "T3", date: try day(2024, 1, 6), name: "ラーメン", price: 980, category: 0, categorySub: 0),
                Item(id: "N4", date: try day(2024, 1, 7), name: "本", price: 900, category: 1, categorySub: 2),
            ]
            var (spool, report) = try spooled(input)
            var events: [String] = []
            let check = DuplicateCheck(
                loader: MonthLoader(
                    client: try client(monthServer([onServer])),
                    repository: LocalRepository(directory: root.appendingPathComponent("cache"))),
                journal: outbox, matcher: StatementMatcher())
            let found = try await check.run(
                months: [try #require(YearMonth(year: 2024, month: 1))], spool: spool,
                isStatementRow: { $0 != 2 }, today: try day(2026, 11, 25), report: &report,
                decide: { _ in nil }
            ) { event in
                events.append("\(event)")
            }
            #expect(try ids(found.items) == ["T3", "N4"])
            try #require(found.skipped.map(\.status) == [.duplicate, .matched])
            #expect(found.skipped[0].reasons == ["id S1 is already on the server"])
            #expect(
                found.skipped[1].reasons == [
                    "the same purchase as 2024-01-06 ラーメン ¥980 (id 5D0F1C2A-0000-4000-8000-000000000001) waiting in the outbox "
                        + "(run `expense-log sync`): the same amount, 1 day apart, a related name"
                ])
            #expect(
                found.decisions == [
                    "N2": RowDecision(.same, item: "5D0F1C2A-0000-4000-8000-000000000001", by: .rule, on: "2026-11-25")
                ])
            #expect(found.held.isEmpty && found.waiting == 1)
            #expect(found.skipped.map(\.location.line) == [2, 3], "each skipped row is named at its line")
            #expect(events.first == "comparing(months: 1)" && events.contains("compared"))
        }
    }

    @Test func aRowMatchingCannotSettleIsAskedAboutHeldOrDecidedAndAKeptDecisionIsFollowed() async throws {
        try await withTemporaryDirectory { root in
            // Typed under another name on the same day, for the same amount: maybe the same purchase.
            let typed = Item(
                id: "A9910000-0000-4000-8000-000000000001", date: try day(2024, 1, 9), name: "ランチ", price: 1_200,
                category: 0, categorySub: 0)
            let row = Item(
                id: "ROW-1", date: try day(2024, 1, 9), name: "サイゼリヤ 渋谷店", price: 1_200, category: 0, categorySub: 0)
            let check = DuplicateCheck(
                loader: MonthLoader(
                    client: try client(monthServer([typed])),
                    repository: LocalRepository(directory: root.appendingPathComponent("cache"))),
                journal: releasePaths(root).outbox, matcher: StatementMatcher())
            let month = try #require(YearMonth(year: 2024, month: 1))
            for (choice, status, sent) in [
                (nil, ImportRecord.Status.held, false), (.skip, .skipped, false), (.new, nil, true),
                (HeldChoice.same(KnownItem(item: typed, place: .server)), .matched, false),
            ] {
                var (spool, report) = try spooled([row])
                var asked: [[String]] = []
                let found = try await check.run(
                    months: [month], spool: spool, isStatementRow: { _ in true }, today: try day(2026, 11, 25),
                    report: &report,
                    decide: { held in
                        asked.append(held.candidates.map(\.item.id))
                        return choice
                    }
                ) { _ in }
                #expect(asked == [["A9910000-0000-4000-8000-000000000001"]])
                #expect(try ids(found.items) == (sent ? ["ROW-1"] : []), "\(String(describing: choice))")
                #expect((found.held + found.skipped).map(\.status) == (status.map { [$0] } ?? []))
                #expect(
                    found.decisions["ROW-1"]?.decision
                        == choice.map { c in
                            switch c {
                            case .same: .same
                            case .new: .new
                            case .skip: .skip
                            }
                        })
            }
            // A decision kept from an earlier run is followed without asking.
            let decided = DuplicateCheck(
                loader: check.loader, journal: check.journal, matcher: StatementMatcher(),
                decided: ["ROW-1": RowDecision(.skip, item: nil, by: .person, on: "2026-11-01")])
            var (spool, report) = try spooled([row])
            let found = try await decided.run(
                months: [month], spool: spool, isStatementRow: { _ in true }, today: try day(2026, 11, 25),
                report: &report,
                decide: { _ in
                    Issue.record("a decided row is not asked about")
                    return nil
                }
            ) { _ in }
            #expect(found.skipped.map(\.reasons) == [["decided by you on 2026-11-01: skip this row"]])
        }
    }

    @Test func aStatementRowIsNeverTakenForAnotherStatementsRowAndTwoDoubtfulRowsNeverTakeOneItem() async throws {
        try await withTemporaryDirectory { root in
            // Last week's PayPay import (a bank's own id) and a card statement's row (a made, version 5, id).
            let imported = [
                Item(
                    id: "04000000000000000002", date: try day(2024, 1, 2), name: "すき家 中目黒店", price: 880, category: 0,
                    categorySub: nil),
                Item(
                    id: "3C1F0000-0000-5000-8000-000000000001", date: try day(2024, 1, 3), name: "松屋", price: 390,
                    category: 0, categorySub: nil),
            ]
            // Two typed lunches the same day, and two statement rows under other names: each row may be either.
            let typed = [
                Item(
                    id: "A9910000-0000-4000-8000-000000000001", date: try day(2024, 1, 9), name: "ランチ", price: 1_200,
                    category: 0, categorySub: nil)
            ]
            let rows = [
                Item(id: "R1", date: try day(2024, 1, 4), name: "すき家 中目黒店", price: 880, category: 0, categorySub: nil),
                Item(id: "R2", date: try day(2024, 1, 4), name: "松屋", price: 390, category: 0, categorySub: nil),
                Item(id: "R3", date: try day(2024, 1, 9), name: "サイゼリヤ", price: 1_200, category: 0, categorySub: nil),
                Item(id: "R4", date: try day(2024, 1, 9), name: "ガスト", price: 1_200, category: 0, categorySub: nil),
            ]
            var (spool, report) = try spooled(rows)
            let check = DuplicateCheck(
                loader: MonthLoader(
                    client: try client(monthServer(imported + typed)),
                    repository: LocalRepository(directory: root.appendingPathComponent("cache"))),
                journal: releasePaths(root).outbox, matcher: StatementMatcher())
            var asked: [String] = []
            let found = try await check.run(
                months: [try #require(YearMonth(year: 2024, month: 1))], spool: spool, isStatementRow: { _ in true },
                today: try day(2026, 11, 25), report: &report,
                decide: { held in
                    asked.append(held.item.id)
                    return held.candidates.first.map(HeldChoice.same)
                }
            ) { _ in }
            #expect(
                try ids(found.items) == ["R1", "R2", "R4"],
                "the repeat purchases are new; one lunch is the typed one, the other new")
            #expect(asked == ["R3"], "once R3 took the lunch, R4 has nothing left it could be")
            #expect(found.skipped.map(\.status) == [.matched])
        }
    }
}
