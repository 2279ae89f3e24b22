import ExpenseLogFormats
import ExpenseLogModel
import Foundation
import Testing

/// Finding an item as a person remembers it and fixing it, in-process against `FakeWebApp`: bulk changes by name,
/// months searched with --from/--to, short ids for waiting items, and periods as people type them.
extension CommandExitCodeTests {
    static func bought(_ id: String, _ month: Int, _ day: Int, _ name: String, _ price: Int) -> Item {
        Item(
            id: id, date: Day(year: 2024, month: month, day: day)!, name: name, price: price, category: 0,
            categorySub: 0)
    }

    @Test func editAllRecategorisesEveryMatchInTheMonthsSearchedFetchingThemFirst() async throws {
        try await withTool([
            Self.bought("A1", 1, 5, "AMAZON.CO.JP", 1_200), Self.bought("A2", 2, 9, "Amazon マーケットプレイス", 3_400),
            Self.bought("A4", 2, 11, "Amazon", 700), Self.bought("A3", 3, 1, "amazon", 500),
            Self.bought("B1", 2, 10, "ラーメン", 980),
        ]) { tool in
            // Nothing was fetched before: the months searched are read from the server first. Full-width letters match.
            let several = await tool("edit", "ＡＭＡ", "--category", "娯楽費/雑貨", "--from", "2024-01", "--to", "2024-02")
            #expect(
                several.code == 65
                    && several.stderr.contains("3 items match ＡＭＡ (by id, or by name in 2024-01 to 2024-02)"),
                "\(several.stderr)")
            #expect(several.stderr.contains("or --all for every one"), "\(several.stderr)")
            // One thing meant: the item called exactly so wins over the names holding it.
            let exact = await tool("edit", "ａｍａｚｏｎ", "--price", "701", "--from", "2024-01", "--to", "2024-02", "--yes")
            #expect(exact.code == 0 && tool.app.items.filter { $0.price == 701 }.map(\.id) == ["A4"], "\(exact.stderr)")
            let unconfirmed = await tool(
                "edit", "amazon", "--all", "-c", "娯楽費/雑貨", "--from", "2024-01", "--to", "2024-02")
            #expect(unconfirmed.code == 64 && unconfirmed.stderr.contains("give --yes"), "\(unconfirmed.stderr)")
            #expect(tool.app.items.allSatisfy { $0.category == 0 }, "nothing changed without --yes")
            // Every thing (--all): every name holding the text, the exact one too.
            let all = await tool(
                "edit", "amazon", "--all", "-c", "娯楽費/雑貨", "--yes", "--from", "2024-01", "--to", "2024-02")
            #expect(all.code == 0, "\(all.stderr)")
            let changed = tool.app.items.filter { $0.category == 1 && $0.categorySub == 2 }.map(\.id).sorted()
            #expect(
                changed == ["A1", "A2", "A4"],
                "March's amazon is outside the range, and ラーメン is no match: \(tool.app.items)")
        }
    }

    @Test func deleteAllTakesEveryMatchAndPendingDropTakesAShortID() async throws {
        try await withTool([Self.bought("C1", 1, 5, "コンビニ", 300), Self.bought("C2", 1, 6, "コンビニ", 450)]) { tool in
            let deleted = await tool("delete", "コンビニ", "--all", "--yes", "--from", "2024-01")
            #expect(deleted.code == 0 && deleted.stderr.contains("Deleted: 2024-01-06 コンビニ ¥450"), "\(deleted.stderr)")
            #expect(tool.app.items.isEmpty)

            tool.app.setDown(true)
            #expect(await tool("add", "たこ焼き", "600", "-c", "food", "-d", "2024-01-07").code == 75)
            #expect(await tool("add", "たい焼き", "200", "-c", "food", "-d", "2024-01-07").code == 75)
            let listed = await tool("pending", "--format", "json")
            let waiting = try ItemCodec.items(Data(listed.stdout.utf8)).map(\.id)
            #expect(waiting.count == 2, "\(listed.stdout)")
            // The table shows each waiting item's short id, which `pending drop` takes (in any case).
            let table = await tool("pending")
            let row = try #require(table.stdout.split(separator: "\n").first { $0.contains("たこ焼き") }, "\(table.stdout)")
            let short = String(try #require(row.split(separator: " ").first)).lowercased()
            #expect(short.count >= 4 && short.count < 36 && waiting[0].lowercased().hasPrefix(short), "\(table.stdout)")
            let dropped = await tool("pending", "drop", short, "--yes")
            #expect(dropped.code == 0 && dropped.stderr.contains("Removed \(waiting[0])"), "\(dropped.stderr)")
            let left = await tool("pending", "--format", "json")
            #expect(!left.stdout.contains(waiting[0]) && left.stdout.contains(waiting[1]), "\(left.stdout)")
        }
    }

    @Test func summaryOfARangeCountsOnlyItsDaysAndSaysWhichDaysInJSON() async throws {
        try await withTool([
            Self.bought("R1", 1, 10, "本", 1_000), Self.bought("R2", 1, 20, "茶", 200),
            Self.bought("R3", 2, 3, "水", 100), Self.bought("R4", 2, 28, "傘", 800),
        ]) { tool in
            let json = await tool("summary", "--from", "2024-01-15", "--to", "2024-02-10", "--format", "json")
            #expect(json.code == 0, "\(json.stderr)")
            #expect(
                json.stdout.hasPrefix(
                    #"{"year":2024,"month":null,"from":"2024-01-15","to":"2024-02-10","by":"category","count":2,"total":300,"#
                ),
                "\(json.stdout)")
            #expect(json.stdout.contains(#"{"year":2024,"month":2,"count":1,"total":100,"#), "\(json.stdout)")
            let month = await tool("summary", "2024年2月", "--format", "json")
            #expect(
                month.stdout.hasPrefix(#"{"year":2024,"month":2,"from":"2024-02-01","to":"2024-02-29","#),
                "\(month.stdout)")
            let cut = await tool("summary", "--from", "2024-01-15", "--to", "2024-02", "--budget")
            #expect(cut.code == 64 && cut.stderr.contains("--budget compares whole months"), "\(cut.stderr)")
            let impossible = await tool("summary", "--from", "2024-02-30")
            #expect(
                impossible.code == 64
                    && impossible.stderr.contains("--from 2024-02-30 is no day: 2024-02 has days 1 to 29"),
                "\(impossible.stderr)")
        }
    }
}

extension CommandExitCodeTests {
    @Test func theConfigLanguageWinsOverLANGAndTimesAreLocalWithTheirOffset() async throws {
        try await withTool([Self.item("L1")]) { tool in
            #expect(await tool("fetch", "2024-01").code == 0)
            #expect(await tool("config", "set", "language", "ja").code == 0)
            // Cron gives no LANG (the tool's environment has LANG=C): the words stay Japanese.
            let table = await tool("fetch", "2024-01", "--offline")
            #expect(table.stdout.hasPrefix("日付"), "\(table.stdout)")
            let refused = await tool("config", "set", "language", "jp")
            #expect(refused.code == 78 && refused.stderr.contains("'language' must be ja or en"), "\(refused.stderr)")
            let typo = await tool("config", "set", "baseurl", "https://example.com/exec")
            #expect(typo.code == 64 && typo.stderr.contains("Did you mean 'baseURL'?"), "\(typo.stderr)")
        }
    }
}

extension CommandExitCodeTests {
    @Test func aMonthsReportShowsShortIDsAndCountsAndMarksTheItemsWaiting() async throws {
        try await withTool([Self.bought("7B2A0000-0000-4000-8000-000000000001", 1, 5, "ラーメン", 980)]) { tool in
            #expect(await tool("fetch", "2024-01").code == 0)
            tool.app.setDown(true)
            #expect(await tool("add", "たこ焼き", "600", "-c", "food", "-d", "2024-01-07").code == 75)
            let page = await tool("report", "2024-01", "--offline", "-o", "-")
            #expect(page.code == 0, "\(page.stderr)")
            #expect(
                page.stdout.contains("<td class=\"id\">7B2A</td><td class=\"d\">2024-01-05</td><td>ラーメン</td>"),
                "\(page.stdout)")
            #expect(page.stdout.contains("たこ焼き <span class=\"waiting\">⧗waiting</span>"), "\(page.stdout)")
            #expect(page.stdout.contains("<strong>¥1,580</strong> (2 items)"), "the waiting item is counted")
            let sent = await tool("report", "2024-01", "--offline", "--sent-only", "-o", "-")
            #expect(
                sent.stdout.contains("<strong>¥980</strong> (1 item)") && !sent.stdout.contains("たこ焼き"),
                "\(sent.stdout)")
        }
    }
}

extension CommandExitCodeTests {
    @Test func aSyncOfManyItemsPrintsALinePerMonthAndFormatPrintsThemAll() async throws {
        try await withTool { tool in
            var csv = "id,date,name,price,category\n"
            for n in 1...30 {
                csv += "S\(n),2024\(n <= 20 ? "01" : "02")\(String(format: "%02d", n % 28 + 1)),item \(n),100,0\n"
            }
            let file = try tool.file("thirty.csv", csv)
            tool.app.setDown(true)
            #expect(await tool("register", file).code == 75)
            tool.app.setDown(false)
            let synced = await tool("sync")
            #expect(synced.code == 0, "\(synced.stderr)")
            let lines = synced.stdout.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
            #expect(
                lines.contains("2024-01 20 2,000") && lines.contains("2024-02 10 1,000")
                    && lines.contains("TOTAL 30 3,000"), "\(synced.stdout)")
            #expect(!synced.stdout.contains("item 7") && synced.stdout.contains("--format table prints all 30 items"))
            tool.app.setDown(true)
            #expect(
                await tool("register", try tool.file("more.csv", csv.replacingOccurrences(of: "S", with: "T"))).code
                    == 75)
            tool.app.setDown(false)
            let all = await tool("sync", "--format", "table")
            #expect(
                all.code == 0 && all.stdout.contains("item 7") && all.stdout.split(separator: "\n").count > 30,
                "\(all.stdout)")
        }
    }
}
