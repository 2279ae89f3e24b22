import ExpenseLogFormats
import Foundation
import Testing

/// Issue 50: two partners each on their own machine, each their config's payer, settling a month through the binary
/// against the bundled script under the host.
@Suite struct CLISettleTests {
    static func run(_ arguments: [String], _ env: [String: String]) async throws -> CLIResult {
        try await CLI.run(arguments, environment: env)
    }

    /// The settlement of March 2027 as JSON: who owes whom how much.
    static func owes(_ env: [String: String], _ extra: [String] = []) async throws -> String {
        let settled = try await run(["settle", "2027-03", "--format", "json"] + extra, env)
        #expect(settled.status == 0, "\(settled.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(settled.stdout.utf8)) as? [String: Any]
        guard let owes = json?["owes"] as? [String: Any] else { return "even" }
        return "\(owes["from"] ?? "") → \(owes["to"] ?? "") \(owes["amount"] ?? "")"
    }

    @Test func sharedItemsPaidByEachSettleToWhatOneOwesTheOtherAndARecordMakesItZero() async throws {
        let taro = try TemporaryDirectory(), hanako = try TemporaryDirectory()
        defer {
            taro.remove()
            hanako.remove()
        }
        try await withScriptHost { host in
            let a = host.environment(home: taro), b = host.environment(home: hanako)
            #expect(try await Self.run(["config", "set", "payer", "太郎"], a).status == 0)
            #expect(try await Self.run(["config", "set", "payer", "花子"], b).status == 0)
            #expect(try await Self.run(["add", "食材", "10000", "-c", "食費", "-d", "2027-03-05"], a).status == 0)
            #expect(try await Self.run(["add", "日用品", "4000", "-c", "食費", "-d", "2027-03-06"], b).status == 0)
            #expect(
                try await Self.run(["add", "漫画", "3000", "-c", "娯楽費", "-d", "2027-03-07", "--personal"], a).status == 0)
            // The app's item has no payer: the household's, left out.
            _ = try await host.call(post: "[" + CLIScriptOnGoogleTests.item("APP", "20270308") + "]")

            #expect(try await Self.owes(a) == "花子 → 太郎 3000")
            #expect(try await Self.owes(b) == "花子 → 太郎 3000", "either machine says the same")
            #expect(try await Self.owes(a, ["--ratio", "60:40"]) == "花子 → 太郎 1600")
            let table = try await Self.run(["settle", "2027-03"], a)
            #expect(
                table.stdout.contains("花子 owes 太郎 ¥3,000 (shared items ¥14,000 (2); split 50:50"), "\(table.stdout)")

            let recorded = try await Self.run(["settle", "2027-03", "--record"], b)
            #expect(
                recorded.status == 0 && recorded.stderr.contains("Recorded: 花子 pays 太郎 ¥3,000"), "\(recorded.stderr)")
            #expect(try await Self.owes(a) == "even")
            let again = try await Self.run(["settle", "2027-03"], a)
            #expect(again.stdout.contains("Even: nobody owes anything, ¥0"), "\(again.stdout)")
            // Not an item: the month's items are as they were, and the app's GET answers its six keys.
            let month = try await host.call("?year=2027&month=3")
            #expect(try ItemCodec.items(Data(month.utf8)).count == 4 && !month.contains("payer"), "\(month)")
        }
    }

    @Test func aServerThatKeepsNoPayerCannotSettleAndTheItemsGoAsTheAppsSix() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let env = Samples.environment(
                home: home, ["EXPENSE_LOG_ENV": "development", "EXPENSE_LOG_BASE_URL": server.base])
            // The reference server refuses keys it does not know: a payer is kept on this machine's side only.
            let added = try await Self.run(["add", "食材", "1000", "-c", "食費", "-p", "太郎", "-d", "2027-03-05"], env)
            #expect(added.status == 0, "\(added.stderr)")
            let settled = try await Self.run(["settle", "2027-03"], env)
            #expect(
                settled.status == 69 && settled.stderr.contains("settle needs the bundled script"), "\(settled.stderr)")
        }
    }

    @Test func aSplitIsTwoWholeNumbersAndMoreThanTwoPayersIsNamed() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            let env = host.environment(home: home)
            let bad = try await Self.run(["settle", "2027-03", "--ratio", "sixty"], env)
            #expect(bad.status == 64 && bad.stderr.contains("--ratio takes two whole numbers such as 60:40"))
            for (payer, day) in [("太郎", "5"), ("花子", "6"), ("次郎", "7")] {
                #expect(
                    try await Self.run(["add", "食材", "1000", "-c", "食費", "-p", payer, "-d", "2027-03-0\(day)"], env)
                        .status == 0)
            }
            let three = try await Self.run(["settle", "2027-03"], env)
            #expect(
                three.status == 64
                    && three.stderr.contains("settle splits between two people, and the shared items name"),
                "\(three.stderr)")
        }
    }
}
