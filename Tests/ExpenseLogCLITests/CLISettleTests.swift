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
        let json = try #require(try JSONSerialization.jsonObject(with: Data(settled.stdout.utf8)) as? [String: Any])
        guard let owes = json["owes"] as? [String: Any] else { return json["owes"] is NSNull ? "even" : "no owes" }
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
                table.stdout.contains(
                    "花子 owes 太郎 ¥3,000 (shared items ¥14,000 (2); split 太郎 50 : 花子 50, shares rounded to the "
                        + "yen half away from zero; left out: ¥250 with no payer (1) and ¥3,000 personal (1))"),
                "\(table.stdout)")

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
            #expect(bad.status == 64 && bad.stderr.contains("--ratio takes two whole numbers of 0 to 10000"))
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

/// Issue 50's defaults and views: a statement's payer, the app's payer, personal categories, the config's split, and
/// the totals per payer.
@Suite struct CLIPayerDefaultsTests {
    @Test func aStatementsRowsTakeItsPayerAndTheAppsItemsTheConfiguredOne() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            let env = host.environment(home: home)
            for (key, value) in [("payer", "太郎"), ("payer.app", "花子"), ("ratio", "60:40"), ("personal", "娯楽費")] {
                let set = try await CLISettleTests.run(["config", "set", key, value], env)
                #expect(set.status == 0, "\(key): \(set.stderr)")
            }
            // 花子's card: every row of the file is hers.
            let card = try home.write(
                "card.csv", "date,name,price,category\n2027-03-10,スーパー,6000,0\n2027-03-11,映画,1800,1\n")
            let imported = try await CLISettleTests.run(["register", card, "--payer", "花子"], env)
            #expect(imported.status == 0, "\(imported.stderr)")
            // The app's item (a UUID, no payer) is 花子's by the config; 太郎 paid rent on this machine.
            let app = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
            _ = try await host.call(post: "[" + CLIScriptOnGoogleTests.item(app, "20270312") + "]")
            #expect(
                try await CLISettleTests.run(["add", "家賃", "10000", "-c", "食費", "-d", "2027-03-01"], env).status == 0)

            let fetched = try await CLISettleTests.run(["fetch", "2027-03", "--payer", "花子", "--format", "json"], env)
            #expect(
                try ItemCodec.items(Data(fetched.stdout.utf8)).map(\.name) == ["スーパー", "映画", "パン"],
                "the app's item is 花子's by the config: \(fetched.stdout)")
            let household = try await CLISettleTests.run(
                ["fetch", "2027-03", "--payer", "none", "--format", "json"], env)
            #expect(try ItemCodec.items(Data(household.stdout.utf8)).isEmpty, "\(household.stdout)")
            let byPayer = try await CLISettleTests.run(
                ["summary", "2027-03", "--by", "payer", "--format", "json"], env)
            let json = try JSONSerialization.jsonObject(with: Data(byPayer.stdout.utf8)) as? [String: Any]
            let payers = (json?["payers"] as? [[String: Any]])?.map {
                "\($0["payer"] ?? "") \($0["count"] ?? "") \($0["total"] ?? "") \($0["personal"] ?? "")"
            }
            #expect(payers == ["太郎 1 10000 0", "花子 3 8050 1800"], "\(byPayer.stdout)")
            // Shared: 太郎 10,000; 花子 6,000 + the app's 250 (映画 is 娯楽費, personal); at 60:40 of 16,250:
            // 太郎 9,750, 花子 6,500; 花子 paid 6,250, so she owes 250.
            #expect(try await CLISettleTests.owes(env) == "花子 → 太郎 250")
            let page = try await CLISettleTests.run(["report", "2027-03", "-o", "-"], env).stdout
            #expect(
                page.contains("<h2>By payer</h2>") && page.contains("<tr><td>花子</td><td class=\"n\">3</td>"),
                "\(page)")
        }
    }
}

/// `edit --payer`, `--personal` and `--shared` change who paid an item on the server, and nothing else of it.
@Suite struct CLIEditPayerTests {
    @Test func anEditChangesWhoPaidAndWhetherItIsPersonal() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            let env = host.environment(home: home)
            let added = try await CLISettleTests.run(
                ["add", "食材", "5000", "-c", "食費", "-p", "太郎", "-d", "2027-03-05", "--id", "E1"], env)
            #expect(added.status == 0, "\(added.stderr)")
            let edited = try await CLISettleTests.run(["edit", "E1", "--payer", "花子", "--personal", "--yes"], env)
            #expect(edited.status == 0, "\(edited.stderr)")
            let read = try await host.call("?year=2027&month=3&fields=payer")
            #expect(
                read.contains(#""price":5000,"category":0,"categorySub":null,"payer":"花子","personal":true"#), "\(read)")
            #expect(
                try await CLISettleTests.run(["edit", "E1", "--shared", "--payer", "none", "--yes"], env).status == 0)
            let after = try await host.call("?year=2027&month=3&fields=payer")
            #expect(after.contains(#""payer":null,"personal":false"#), "\(after)")
            let both = try await CLISettleTests.run(["edit", "E1", "--shared", "--personal", "--yes"], env)
            #expect(both.status == 64)

            // A category the config calls personal, and an item said to be shared in it: the item counts.
            #expect(try await CLISettleTests.run(["config", "set", "personal", "娯楽費"], env).status == 0)
            let shared = try await CLISettleTests.run(
                ["add", "映画", "1800", "-c", "娯楽費", "-p", "太郎", "-d", "2027-04-05", "--shared"], env)
            #expect(shared.status == 0, "\(shared.stderr)")
            #expect(
                try await CLISettleTests.run(["add", "本", "1000", "-c", "娯楽費", "-p", "花子", "-d", "2027-04-06"], env)
                    .status == 0)
            let settled = try await CLISettleTests.run(["settle", "2027-04", "--with", "花子", "--format", "json"], env)
            #expect(settled.stdout.contains(#""shared":1800,"count":1"#), "\(settled.stdout) \(settled.stderr)")
            let cells = try await host.rows(book: "家計簿_2027", sheet: "4").dropFirst().map { "\($0[2])|\($0[7])" }
            #expect(cells == ["映画|共有", "本|"], "\(cells)")
        }
    }
}

/// Who paid survives the outbox: an item added with the web app down keeps its payer through `sync`.
@Suite struct CLIPayerOfflineTests {
    @Test func anItemQueuedOfflineKeepsWhoPaidThroughSync() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            let env = host.environment(home: home)
            try await host.setDown(true)
            let queued = try await CLISettleTests.run(
                ["add", "食材", "2000", "-c", "食費", "-p", "花子", "-d", "2027-03-05", "--retries", "0"], env)
            #expect(queued.status == 75, "\(queued.stderr)")
            try await host.setDown(false)
            let synced = try await CLISettleTests.run(["sync"], env)
            #expect(synced.status == 0, "\(synced.stderr)")
            let read = try await host.call("?year=2027&month=3&fields=payer")
            #expect(read.contains(#""name":"食材","price":2000,"category":0,"categorySub":null,"payer":"花子""#), "\(read)")
        }
    }
}
