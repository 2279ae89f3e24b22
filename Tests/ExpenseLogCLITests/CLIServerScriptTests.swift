import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogModel
import Foundation
import Testing

/// The bundled web app, `Resources/server/Code.gs`, run unmodified under Node.js, against the client as users run it.
@Suite struct CLIServerScriptTests {
    @Test func serverScriptPrintsTheBundledCodeGs() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let printed = try await CLI.run(["server", "script"], environment: Samples.environment(home: home))
        #expect(printed.status == 0, "\(printed.stderr)")
        let bundled = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("Resources/server/Code.gs"), encoding: .utf8)
        #expect(printed.stdout == bundled)
        #expect(printed.stdout.contains("function doGet(e)") && printed.stdout.contains("function doPost(e)"))
    }

    @Test func theScriptAnswersTheOriginalProtocolAndKeepsTextAsText() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // Names and ids a sheet would retype if its columns were left automatic.
        let file = try home.write(
            "items.csv",
            """
            id,date,name,price,category,categorySub
            0120,20240105,0120,178,0,1
            TRUE,20240106,TRUE,200,0,
            X3,20240207,2024/1/5,1500,1,2

            """)
        try await withScriptHost { host in
            let env = host.environment(home: home)
            let registered = try await CLI.run(["register", file], environment: env)
            #expect(registered.status == 0, "\(registered.stderr)")
            #expect(registered.stderr.contains("Rows: 3 added."), "\(registered.stderr)")

            let january = try await CLI.run(["fetch", "2024-01", "--format", "json"], environment: env)
            #expect(january.status == 0, "\(january.stderr)")
            let items = try ItemCodec.items(Data(january.stdout.utf8))
            #expect(items.map(\.id) == ["0120", "TRUE"])
            #expect(items.map(\.name) == ["0120", "TRUE"])
            #expect(items.map(\.categorySub) == [1, nil])
            let february = try ItemCodec.items(
                Data(try await CLI.run(["fetch", "2024-02", "--format", "json"], environment: env).stdout.utf8))
            #expect(february.map(\.name) == ["2024/1/5"], "a name that looks like a date stays the text written")

            // The sheet itself: one spreadsheet for the year, a sheet per month, the header, text kept as text.
            let rows = try await host.rows(book: "家計簿_2024", sheet: "1")
            #expect(rows.first as? [String] == ["ID", "日付", "品名", "金額", "項目", "サブ項目"])
            #expect(rows.dropFirst().map { $0[0] as? String } == ["0120", "TRUE"])
            #expect(rows.dropFirst().map { $0[3] as? Int } == [178, 200])
        }
    }

    @Test func registeringTheSameItemsTwiceAppendsThemOnceAndInfoNamesTheExtensions() async throws {
        try await withScriptHost { host in
            let body = #"[{"id":"A1","date":"20240301","name":"パン","price":250,"category":0,"categorySub":0}]"#
            let first = try await host.call(post: body)
            let second = try await host.call(post: body)
            #expect(first == second, "a retried POST gets the same answer")
            #expect(try ItemCodec.items(Data(second.utf8)).map(\.id) == ["A1"])
            #expect(try await host.rows(book: "家計簿_2024", sheet: "3").count == 2, "the header and one row, not two")

            // The register action says which were already there (A1), beside what it saved.
            let reported = try await host.call(
                post:
                    #"{"action":"register","items":[{"id":"A2","date":"20240302","name":"牛乳","price":200,"category":0,"categorySub":0},"#
                    + #"{"id":"A1","date":"20240301","name":"パン (again)","price":250,"category":0,"categorySub":0}]}"#)
            let answer = try JSONSerialization.jsonObject(with: Data(reported.utf8)) as? [String: Any]
            #expect(answer?["existing"] as? [String] == ["A1"], "\(reported)")
            #expect(
                (answer?["saved"] as? [[String: Any]])?.map { $0["name"] as? String } == ["牛乳", "パン"],
                "A1 as the sheet holds it")
            #expect(
                try await host.rows(book: "家計簿_2024", sheet: "3").dropFirst().map { $0[0] as? String } == ["A1", "A2"])

            let info =
                try JSONSerialization.jsonObject(with: Data(try await host.call("?action=info").utf8)) as? [String: Any]
            #expect(info?["app"] as? String == "expense-log" && info?["version"] as? Int == 5)
            #expect(
                info?["actions"] as? [String] == [
                    "info", "fetch", "register", "delete", "update", "adopt", "check", "rules", "payer", "settle",
                ])

            let bad = try await host.call("?year=2024&month=13")
            #expect(
                bad.contains(#""kind":"bad-request""#) && bad.contains("month must be a whole number from 1 to 12"),
                "\(bad)")
        }
    }

    @Test func aKeyInTheScriptPropertiesIsRequiredAndNeverEchoed() async throws {
        try await withScriptHost(["--key", "s3cret-key"]) { host in
            let refused = try await host.call("?year=2024&month=1")
            #expect(refused.contains(#""kind":"unauthorized""#), "\(refused)")
            #expect(!refused.contains("s3cret-key"))
            let wrong = try await host.call("?year=2024&month=1&key=s3cret-kez")
            #expect(wrong.contains(#""kind":"unauthorized""#) && !wrong.contains("s3cret"))
            #expect(try await host.call("?year=2024&month=1&key=s3cret-key") == "[]")
        }
    }

    @Test func deleteAndUpdateChangeTheSheetAndMoveAnItemToItsNewMonth() async throws {
        try await withScriptHost { host in
            _ = try await host.call(
                post:
                    #"[{"id":"B1","date":"20240310","name":"本","price":1200,"category":1,"categorySub":2},{"id":"B2","date":"20240311","name":"傘","price":800,"category":1,"categorySub":2}]"#
            )
            let updated = try await host.call(
                post: #"{"action":"update","id":"B1","date":"20240310","changes":{"price":1300,"date":"20240402"}}"#)
            #expect(try ItemCodec.items(Data("[\(updated)]".utf8)).map(\.price) == [1300])
            #expect(try await host.rows(book: "家計簿_2024", sheet: "3").count == 2, "B1 left March")
            #expect(try await host.rows(book: "家計簿_2024", sheet: "4").dropFirst().map { $0[0] as? String } == ["B1"])
            let deleted = try await host.call(
                post: #"{"action":"delete","items":[{"id":"B2","date":"20240311"},{"id":"ZZ","date":"20240311"}]}"#)
            #expect(deleted == #"{"deleted":["B2"],"missing":["ZZ"]}"#)
            #expect(try await host.rows(book: "家計簿_2024", sheet: "3").count == 1, "only the header is left")
        }
    }
}

extension CLIServerScriptTests {
    @Test func theClientSendsItsTokenAsTheScriptsKeyAndNeverShowsIt() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let key = "k3y+with&odd=chars"
        let file = try home.write("one.csv", "id,date,name,price,category\nK1,20240401,パン,250,0\n")
        try await withScriptHost(["--key", key]) { host in
            let base = host.environment(home: home)
            let refused = try await CLI.run(["fetch", "2024-04", "--retries", "0"], environment: base)
            #expect(refused.status == 77, "\(refused.stderr)")
            #expect(
                refused.stderr.contains("EXPENSE_LOG_KEY") && refused.stderr.contains("config set-token"),
                "\(refused.stderr)")

            var env = base
            env["EXPENSE_LOG_TOKEN"] = key
            let registered = try await CLI.run(["register", file, "--verbose"], environment: env)
            #expect(registered.status == 0, "\(registered.stderr)")
            let fetched = try await CLI.run(["fetch", "2024-04", "--format", "json", "--verbose"], environment: env)
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(try ItemCodec.items(Data(fetched.stdout.utf8)).map(\.id) == ["K1"])
            for output in [registered.stderr, fetched.stderr, fetched.stdout] {
                #expect(
                    !output.contains("k3y") && !output.contains("odd%3Dchars") && !output.contains("odd=chars"),
                    "\(output)")
            }
            #expect(
                fetched.stderr.contains("key=***"),
                "--verbose shows that a key was sent, not what it is: \(fetched.stderr)")
        }
    }
}

extension CLIServerScriptTests {
    @Test func deleteAndEditChangeTheScriptsSheetAndTheCache() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write(
            "d.csv", "id,date,name,price,category,categorySub\nD1,20240105,コーヒー,178,0,1\nD2,20240106,パン,250,0,0\n")
        try await withScriptHost { host in
            let env = host.environment(home: home)
            #expect(try await CLI.run(["register", file], environment: env).status == 0)

            let unasked = try await CLI.run(["delete", "D2"], environment: env)
            #expect(unasked.status == 64 && unasked.stderr.contains("--yes"), "\(unasked.stderr)")
            let deleted = try await CLI.run(["delete", "--yes", "D2"], environment: env)
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(deleted.stderr.contains("Deleted: 2024-01-06 パン ¥250"), "\(deleted.stderr)")
            #expect(try await host.rows(book: "家計簿_2024", sheet: "1").dropFirst().map { $0[0] as? String } == ["D1"])

            let edited = try await CLI.run(
                ["edit", "D1", "--price", "200", "--date", "2024-02-03", "--category", "food/grocery"], environment: env
            )
            #expect(edited.status == 0, "\(edited.stderr)")
            #expect(try await host.rows(book: "家計簿_2024", sheet: "1").count == 1, "D1 left January")
            let february = try await host.rows(book: "家計簿_2024", sheet: "2")
            #expect(february.dropFirst().map { $0[0] as? String } == ["D1"])
            #expect(february.dropFirst().map { $0[3] as? Int } == [200])

            // The cache follows: offline, January is empty and February holds the edited item.
            let offline = try await CLI.run(["fetch", "2024-02", "--offline", "--format", "json"], environment: env)
            #expect(
                try ItemCodec.items(Data(offline.stdout.utf8)) == [
                    Item(
                        id: "D1", date: try #require(Day(year: 2024, month: 2, day: 3)),
                        name: "コーヒー", price: 200, category: 0, categorySub: 0)
                ])
            let january = try await CLI.run(["fetch", "2024-01", "--offline", "--format", "json"], environment: env)
            #expect(try ItemCodec.items(Data(january.stdout.utf8)).isEmpty, "\(january.stdout)")

            let unknown = try await CLI.run(["delete", "--yes", "NOPE"], environment: env)
            #expect(unknown.status == 65 && unknown.stderr.contains("fetch its month first"), "\(unknown.stderr)")
        }
    }

    @Test func theOriginalProtocolsServerIsToldApartAndNothingIsSent() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("d.csv", "id,date,name,price,category\nO1,20240105,コーヒー,178,0\n")
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            #expect(try await CLI.run(["register", file], environment: env).status == 0)
            let posts = try await server.requests().filter { $0.method == "POST" }.count
            for arguments in [["delete", "--yes", "O1"], ["edit", "O1", "--price", "200"]] {
                let refused = try await CLI.run(arguments, environment: env)
                #expect(refused.status == 69, "\(refused.stderr)")
                #expect(
                    refused.stderr.contains("is not expense-log's web app")
                        && refused.stderr.contains("expense-log server script"),
                    "\(refused.stderr)")
            }
            #expect(try await server.requests().filter { $0.method == "POST" }.count == posts, "nothing was sent")
            #expect(try await server.items().map(\.price) == [178])
        }
    }
}

extension CLIServerScriptTests {
    @Test func aLostAnswerIsReconciledBySyncAndTwoConcurrentRegistersSaveEachItemOnce() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("l.csv", "id,date,name,price,category\nL1,20240501,パン,250,0\nL2,20240502,牛乳,200,0\n")
        try await withScriptHost(["--lose-answers", "1"]) { host in
            let env = host.environment(home: home)
            // The script saved the items, but the answer never came: the items wait in the outbox (75).
            let lost = try await CLI.run(["register", file, "--retries", "0"], environment: env)
            #expect(lost.status == 75, "\(lost.stderr)")
            #expect(try await host.rows(book: "家計簿_2024", sheet: "5").count == 3)
            // sync reads the month, finds both ids, and sends nothing twice.
            let synced = try await CLI.run(["sync"], environment: env)
            #expect(synced.status == 0, "\(synced.stderr)")
            #expect(try await host.rows(book: "家計簿_2024", sheet: "5").count == 3, "the header and each item once")
        }
        try await withScriptHost { host in
            // Two machines register the same file at once: the script's lock and ids keep one row per item.
            let homes = [try TemporaryDirectory(), try TemporaryDirectory()]
            defer { homes.forEach { $0.remove() } }
            let running = try homes.map { home in
                try CLI.start(
                    ["register", file, "--allow-duplicates"],
                    environment: host.environment(home: home))
            }
            let (first, second) = (running[0], running[1])
            let results = [try await first.wait(), try await second.wait()]
            #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
            #expect(
                try await host.rows(book: "家計簿_2024", sheet: "5").dropFirst().map { $0[0] as? String } == ["L1", "L2"])
        }
    }

    @Test func theScriptsAnswersAreTheWireFormatTheClientReadsOnItsFastPath() async throws {
        try await withScriptHost { host in
            _ = try await host.call(
                post:
                    #"[{"id":"W1","date":"20240601","name":"コーヒー","price":178,"category":0,"categorySub":1},{"id":"W2","date":"20240602","name":"映画","price":1800,"category":1,"categorySub":null}]"#
            )
            let answer = try await host.call("?year=2024&month=6")
            // Byte for byte the wire format the client itself writes (fetch --format json, the fixtures): plainly typed.
            let items = try ItemCodec.items(Data(answer.utf8))
            #expect(answer.filter { !$0.isWhitespace } == ItemJSON.array(items).filter { !$0.isWhitespace })
            #expect(
                answer
                    == #"[{"id":"W1","date":"20240601","name":"コーヒー","price":178,"category":0,"categorySub":1},{"id":"W2","date":"20240602","name":"映画","price":1800,"category":1,"categorySub":null}]"#
            )
        }
    }
}

extension CLIServerScriptTests {
    @Test func anEditSendsOnlyItsFieldsAndIsSafeToRunAgainAfterALostAnswer() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("e.csv", "id,date,name,price,category,categorySub\nE1,20240105,コーヒー,178,0,1\n")
        try await withScriptHost(["--lose-answers", "1"]) { host in
            let env = host.environment(home: home)
            // The lost answer is the register's: sync settles it, then the edits have answers.
            _ = try await CLI.run(["register", file, "--retries", "0"], environment: env)
            #expect(try await CLI.run(["sync"], environment: env).status == 0)
            #expect(try await CLI.run(["fetch", "2024-01"], environment: env).status == 0)
            // Another machine renames it meanwhile, straight on the sheet through the script.
            _ = try await host.call(post: #"{"action":"update","id":"E1","date":"20240105","changes":{"name":"珈琲"}}"#)
            let edited = try await CLI.run(["edit", "E1", "--price", "200", "--category", "food"], environment: env)
            #expect(edited.status == 0, "\(edited.stderr)")
            let row = try await host.rows(book: "家計簿_2024", sheet: "1").dropFirst().first
            #expect(row?[2] as? String == "珈琲", "the other machine's name is kept: only the price was sent")
            #expect(row?[3] as? Int == 200)
            #expect(row?[5] as? Int == 1, "--category food on a Food/Drink item keeps the drink")
            let again = try await CLI.run(["edit", "E1", "--price", "200"], environment: env)
            #expect(again.status == 0 && again.stderr.contains("Nothing to change"), "\(again.stderr)")
        }
        try await withScriptHost(["--lose-answers", "2"]) { host in
            // Here the lost answers are the register's and the edit's own: the row moved, and the same edit again finds
            // it in its new month.
            _ = try? await host.call(
                post: #"[{"id":"M1","date":"20240105","name":"本","price":900,"category":1,"categorySub":2}]"#)
            let first = try? await host.call(
                post: #"{"action":"update","id":"M1","date":"20240105","changes":{"date":"20240203"}}"#)
            #expect(first == nil || first?.isEmpty == true, "the answer was lost")
            let retried = try await host.call(
                post: #"{"action":"update","id":"M1","date":"20240105","changes":{"date":"20240203"}}"#)
            #expect(try ItemCodec.items(Data("[\(retried)]".utf8)).map(\.date.compact) == ["20240203"], "\(retried)")
            #expect(try await host.rows(book: "家計簿_2024", sheet: "2").dropFirst().map { $0[0] as? String } == ["M1"])
        }
    }
}

extension CLIServerScriptTests {
    @Test func anEditOfAnItemTheServerNoLongerHasSaysToFetchAndDropsTheCachedCopy() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("g.csv", "id,date,name,price,category\nG1,20240105,コーヒー,178,0\n")
        try await withScriptHost { host in
            let env = host.environment(home: home)
            #expect(try await CLI.run(["register", file], environment: env).status == 0)
            // Another machine deletes it.
            _ = try await host.call(post: #"{"action":"delete","items":[{"id":"G1","date":"20240105"}]}"#)
            let edited = try await CLI.run(["edit", "G1", "--price", "200"], environment: env)
            #expect(edited.status == 65, "\(edited.stderr)")
            #expect(
                edited.stderr.contains("refused the request (not-found)")
                    && edited.stderr.contains("expense-log fetch 2024-01"), "\(edited.stderr)")
            #expect(edited.stderr.contains(host.base), "the message names the web app's URL, not the echo host's")
            let cached = try await CLI.run(["fetch", "2024-01", "--offline", "--format", "json"], environment: env)
            #expect(try ItemCodec.items(Data(cached.stdout.utf8)).isEmpty, "\(cached.stdout)")
        }
    }
}

extension CLIServerScriptTests {
    @Test func addSavesWhatAPersonTypesOnTheScriptsSheet() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withScriptHost { host in
            let env = host.environment(home: home)
            let added = try await CLI.run(
                ["add", "ラーメン", "980", "--category", "food", "--date", "2024-01-15"], environment: env)
            #expect(added.status == 0, "\(added.stderr)")
            let row = try #require(try await host.rows(book: "家計簿_2024", sheet: "1").dropFirst().first)
            #expect("\(row[1]) \(row[2]) \(row[3]) \(row[4])" == "20240115 ラーメン 980 0", "\(row)")
            let fetched = try await CLI.run(["fetch", "2024-01", "--refresh", "--format", "json"], environment: env)
            #expect(try ItemCodec.items(Data(fetched.stdout.utf8)).map(\.name) == ["ラーメン"], "\(fetched.stdout)")
        }
    }
}
