import ExpenseLogModel
import Foundation
import Testing

/// Prompts on a pseudo-terminal: the line is edited as typed, and Ctrl-C stops the command with the terminal as it was.
@Suite struct CLIPromptTests {
    @Test func anArrowKeyAtTheNamePromptMovesTheCursorInsteadOfBecomingText() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let env = Samples.environment(home: home, server: server, ["TZ": "UTC"])
            let added = try await CLIEverydayTests.onTerminal(
                ["add", "--date", "2024-03-09", "--category", "food"],
                answering: [("Name", "ラメン\u{1B}[D\u{1B}[Dー"), ("Price", "1,100"), ("[Y/n]", "")], env)
            #expect(added.status == 0, "\(added.stdout)")
            #expect(!added.stdout.contains("control character"), "\(added.stdout)")
            #expect(try await server.items().map(\.name) == ["ラーメン"])
        }
    }

    @Test func ctrlCAtAPromptExits130SendsNothingAndRestoresTheTerminal() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let env = Samples.environment(home: home, server: server, ["TZ": "UTC"])
            // The shell runs stty after the command, on the same terminal: echo and line editing must be back.
            let script = "'\(try CLI.binary().path)' config set-token; echo \"status=$?\"; stty -a"
            let ptyRun = CLI.packageRoot.appendingPathComponent("Tests/ReferenceServer/pty_run.py").path
            let token = try await CLI.run(
                ["python3", ptyRun, "sh", "-c", script],
                environment: env.merging(["PTY_SCRIPT": #"[["Token (not shown", "secr\u0003"]]"#]) { _, new in new },
                binary: URL(fileURLWithPath: "/usr/bin/env"))
            #expect(token.stdout.contains("^C") && token.stdout.contains("status=130"), "\(token.stdout)")
            #expect(!token.stdout.contains("secr"), "the secret typed is never shown")
            let settings = token.stdout.split(whereSeparator: \.isWhitespace)
            #expect(
                settings.contains("echo") && settings.contains("icanon") && settings.contains("isig"), "\(token.stdout)"
            )
            #expect(
                try await CLI.run(["config", "show"], environment: env).stdout.contains("run config set-token"),
                "nothing saved")

            let add = try await CLIEverydayTests.onTerminal(
                ["add", "お茶", "--date", "2024-03-09", "--category", "food"],
                answering: [("Price", "15\u{03}")], env)
            #expect(add.status == 130, "\(add.stdout)")
            #expect(try await server.items().isEmpty, "nothing was sent")
        }
    }
}

extension CLIPromptTests {
    /// A person fixes a wrong price from the item's name alone, against the bundled script under the host: two items
    /// match, a numbered list is shown, the second is picked, and only it changes.
    @Test func severalItemsByNameAreNumberedAndTheOnePickedIsChanged() async throws {
        let month = YearMonth.current(in: try #require(TimeZone(identifier: "Asia/Tokyo")))
        let day = month.firstDay.compact
        let csv =
            "id,date,name,price,category\n"
            + "1a2b3c4d-0000-4000-8000-000000000001,\(day),ラーメン一蘭,980,0\n"
            + "9f8e7d6c-0000-4000-8000-000000000002,\(day),ラーメン二郎,1200,0\n"
        try await withRegistered(csv) { _, env in
            let env = env.merging(["TZ": "Asia/Tokyo"]) { _, new in new }
            let picked = try await CLIEverydayTests.onTerminal(
                ["edit", "ﾗｰﾒﾝ", "--price", "1,380", "--from", month.description],
                answering: [("Which one?", "3"), ("Which one?", "2")], env)
            #expect(picked.status == 0, "\(picked.stdout)")
            #expect(picked.stdout.contains("1) 1a2b  ") && picked.stdout.contains("2) 9f8e  "), "\(picked.stdout)")
            #expect(picked.stdout.contains("'3' is none of 1-2"), "\(picked.stdout)")
            let fetched = try await CLI.run(
                ["fetch", month.description, "--refresh", "--format", "ndjson"], environment: env)
            #expect(fetched.stdout.contains(#""name":"ラーメン二郎","price":1380"#), "\(fetched.stdout)")
            #expect(fetched.stdout.contains(#""name":"ラーメン一蘭","price":980"#), "\(fetched.stdout)")
        }
    }
}

extension CLIPromptTests {
    /// `add 餃子 450` with a name never seen: on a terminal the category is asked for (the catalogue shown once, a typo
    /// answered with the name it most likely meant), not refused.
    @Test func addWithANewNameAsksForTheCategoryShowingTheCatalogueOnce() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let env = Samples.environment(home: home, server: server, ["TZ": "UTC"])
            let added = try await CLIEverydayTests.onTerminal(
                ["add", "餃子", "450", "-d", "2024-03-09"],
                answering: [("Category", "Foood"), ("Category [Food]", ""), ("[Y/n]", "")], env)
            #expect(added.status == 0, "\(added.stdout)")
            #expect(added.stdout.components(separatedBy: "0 食費 Food").count == 2, "the catalogue once: \(added.stdout)")
            #expect(added.stdout.contains("no category is called 'Foood'. Did you mean 'Food'?"), "\(added.stdout)")
            #expect(
                try await server.items().map { "\($0.name) \($0.price) \($0.date) \($0.category)" } == [
                    "餃子 450 2024-03-09 0"
                ])
        }
    }
}

extension CLIPromptTests {
    /// On a terminal a large import ends with a line per month, not a row per item; `--format table` prints them all.
    @Test func aLargeImportOnATerminalEndsWithTotalsPerMonth() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        var csv = "id,date,name,price,category\n"
        for n in 1...30 {
            csv += "T\(n),2024\(n <= 20 ? "01" : "02")\(String(format: "%02d", n % 28 + 1)),item \(n),100,0\n"
        }
        let file = try home.write("thirty.csv", csv)
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let shown = try await CLIEverydayTests.onTerminal(["register", file], answering: [], env)
            let lines = shown.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map {
                $0.split(separator: " ").joined(separator: " ")
            }
            #expect(
                shown.status == 0 && lines.contains("2024-01 20 2,000") && lines.contains("2024-02 10 1,000")
                    && lines.contains("TOTAL 30 3,000"), "\(shown.stdout)")
            #expect(!shown.stdout.contains("item 7"), "no row per item")
            #expect(try await server.items().count == 30)
        }
    }
}

extension CLIPromptTests {
    /// A URL and a token pasted together (a line break between them): the token is kept for the question that follows.
    @Test func whatIsTypedAheadOfAQuestionIsKeptForIt() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let env = Samples.environment(home: home)
            let key = "ahead-\(UUID().uuidString)"
            let result = try await CLIEverydayTests.onTerminal(
                ["config", "init"], answering: [("(ends in /exec", server.base + "\r" + key)], env)
            #expect(result.status == 0 && result.stdout.contains("Saved the token"), "\(result.stdout)")
            #expect(!result.stdout.contains(key), "a secret typed ahead is not shown either")
            #expect(
                try await CLI.run(["config", "show"], environment: env).stdout.contains(
                    "(set, \(key.count) characters, redacted)"))
        }
    }
}
