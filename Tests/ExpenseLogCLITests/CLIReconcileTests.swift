import ExpenseLogFormats
import ExpenseLogModel
import Foundation
import Testing

/// A household's month, through the binary against the bundled script under the host: what a person typed (`add`, as
/// the partner's app would have it) and the card statement of the same purchases. Nothing is counted twice, nothing
/// is dropped without being listed, and importing the statement again changes nothing.
@Suite struct CLIReconcileTests {
    /// What the person typed, each with `add`: short names, on the day of the purchase.
    static let typed: [(name: String, price: String, day: String)] = [
        ("まいばすけっと", "1,280", "2026-11-19"), ("ラーメン", "980", "2026-11-10"), ("コーヒー", "150", "2026-11-19"),
        ("コーヒー", "150", "2026-11-19"), ("ランチ", "1200", "2026-11-09"), ("返品 ユニクロ", "-300", "2026-11-12"),
    ]

    /// The card statement (no ids: each row's is made from its content), with long names, booked up to a day later.
    /// Labels: matched (M), new (N), held for a person (H).
    static let statement = """
        date,name,price,category
        2026/11/20,まいばすけっと 中目黒1丁目店,1280,0
        2026/11/11,ﾗｰﾒﾝ一蘭 渋谷店,980,0
        2026/11/19,コーヒー,150,0
        2026/11/19,コーヒー,150,0
        2026/11/19,コーヒー,150,0
        2026/11/09,サイゼリヤ 渋谷店,1200,0
        2026/11/13,返品 ユニクロ 渋谷店,-300,1
        2026/11/13,ユニクロ 渋谷店,300,1
        2026/11/25,本,1500,1

        """
    static let labels = ["matched", "matched", "matched", "matched", "added", "held", "matched", "added", "added"]

    /// The month as the script's sheet holds it: names and prices, sorted.
    static func month(_ host: ScriptHost) async throws -> [String] {
        try ItemCodec.items(Data(try await host.call("?year=2026&month=11").utf8)).map { "\($0.name) \($0.price)" }
            .sorted()
    }

    @Test func aStatementOfWhatWasTypedAddsOnlyItsNewPurchasesAndHoldsTheDoubtfulOneUntilDecided() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("card.csv", Self.statement)
        let report = home.url.appendingPathComponent("report.json").path
        try await withScriptHost { host in
            let env = host.environment(home: home)
            for purchase in Self.typed {
                let added = try await CLI.run(
                    ["add", purchase.name, purchase.price, "--date", purchase.day, "--category", "0"], environment: env)
                #expect(added.status == 0, "\(added.stderr)")
            }
            let typed = try await Self.month(host)
            #expect(typed.filter { $0 == "コーヒー 150" }.count == 2, "add twice gives two rows: \(typed)")

            let first = try await CLI.run(["register", file, "--record", report], environment: env)
            #expect(first.status == 4, "held rows end with 4: \(first.stderr)")
            #expect(try ReportDocument(path: report).rows.map(\.status) == Self.labels)
            #expect(
                first.stderr.contains(
                    "Held 1 row that may be items already there; it was not sent:\n"
                        + "  \(file):7: 2026-11-09 サイゼリヤ 渋谷店 ¥1,200 may be 2026-11-09 ランチ ¥1,200 (on the server, id "),
                "\(first.stderr)")
            #expect(
                first.stderr.contains(
                    "Decide on a terminal with `expense-log register \(file) --review`, or all at once with --ambiguous"
                ))
            let afterFirst = try await Self.month(host)
            #expect(
                afterFirst == (typed + ["コーヒー 150", "ユニクロ 渋谷店 300", "本 1500"]).sorted(),
                "only the new purchases were sent")

            // Again, and an overlapping statement: nothing more is sent, and the doubtful row is still held.
            let again = try await CLI.run(["register", file], environment: env)
            #expect(again.status == 4 && again.stderr.contains("Nothing else to send"), "\(again.stderr)")
            let overlap = try home.write(
                "card-next.csv",
                "date,name,price,category\n2026/11/19,コーヒー,150,0\n2026/11/19,コーヒー,150,0\n"
                    + "2026/11/19,コーヒー,150,0\n2026/11/25,本,1500,1\n2026/11/27,まいばすけっと 中目黒1丁目店,640,0\n")
            let next = try await CLI.run(["register", overlap], environment: env)
            #expect(next.status == 0, "\(next.stderr)")
            #expect(try await Self.month(host) == (afterFirst + ["まいばすけっと 中目黒1丁目店 640"]).sorted())

            // A script decides: a purchase of its own. Sent once; every later import agrees.
            let decided = try await CLI.run(
                ["register", file, "--ambiguous", "new", "--record", report], environment: env)
            #expect(decided.status == 0, "\(decided.stderr)")
            #expect(try ReportDocument(path: report).rows.map(\.status)[5] == "added")
            let final = try await Self.month(host)
            #expect(final.filter { $0.hasPrefix("サイゼリヤ") }.count == 1)
            for _ in 0..<2 {
                let rerun = try await CLI.run(["register", file, "--explain"], environment: env)
                #expect(
                    rerun.status == 0 && rerun.stderr.contains("Nothing to send: every valid row is already there."),
                    "\(rerun.stderr)")
                #expect(
                    rerun.stderr.contains("\(file):2: matched, not sent: decided by the matching rule on "),
                    "\(rerun.stderr)")
            }
            #expect(try await Self.month(host) == final, "re-running the import changes nothing")
        }
    }

    @Test func aPersonOnATerminalDecidesEachDoubtfulRowAndIsNotAskedAgain() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write(
            "lunch.csv", "date,name,price,category\n2026/11/09,サイゼリヤ 渋谷店,1200,0\n2026/11/10,ドトール,250,0\n")
        try await withScriptHost { host in
            let env = host.environment(home: home)
            #expect(
                try await CLI.run(["add", "ランチ", "1200", "--date", "2026-11-09", "--category", "0"], environment: env)
                    .status == 0)
            let asked = try await CLIEverydayTests.onTerminal(
                ["register", file], answering: [("skip this row (s)?", "1")], env)
            #expect(asked.status == 0, "\(asked.stdout)")
            #expect(asked.stdout.contains("サイゼリヤ 渋谷店 ¥1,200 may be the same purchase as:"), "\(asked.stdout)")
            #expect(asked.stdout.contains("1) 2026-11-09 ランチ ¥1,200 (on the server, id "))
            #expect(try await Self.month(host) == ["ドトール 250", "ランチ 1200"], "the same purchase: not sent")
            let again = try await CLIEverydayTests.onTerminal(["register", file, "--explain"], answering: [], env)
            #expect(again.status == 0 && !again.stdout.contains("may be the same purchase as:"), "\(again.stdout)")
            #expect(again.stdout.contains("matched, not sent: decided by you on "), "\(again.stdout)")
        }
    }

    @Test func addOnATerminalAsksBeforeASecondIdenticalPurchaseAndAddsItByDefault() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            let env = host.environment(home: home)
            #expect(try await CLI.run(["add", "コーヒー", "150", "--category", "0"], environment: env).status == 0)
            let second = try await CLIEverydayTests.onTerminal(
                ["add", "コーヒー", "150", "--category", "0"],
                answering: [("add another [Y/n]", "")], env)
            #expect(second.status == 0, "\(second.stdout)")
            #expect(second.stdout.contains("コーヒー ¥150 is already registered once on "), "\(second.stdout)")
            let declined = try await CLIEverydayTests.onTerminal(
                ["add", "コーヒー", "150", "--category", "0"],
                answering: [("add another [Y/n]", "n")], env)
            #expect(
                declined.status == 1 && declined.stdout.contains("Not added; nothing was sent."), "\(declined.stdout)")
            let today = Day.today()
            let items = try ItemCodec.items(Data(try await host.call("?year=\(today.year)&month=\(today.month)").utf8))
            #expect(items.map(\.name) == ["コーヒー", "コーヒー"])
        }
    }
}
