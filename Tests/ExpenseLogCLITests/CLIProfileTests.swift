import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation
import TestSupport
import Testing

/// `profile list|show|init` and what a profile changes in `register` (its rules, its `onInvalid`), through the real
/// binary. Every CSV is written by Python's `csv` module and codecs (`CLIImportFilesTests.write`), every JSON the
/// binary prints is read by Python's `json` module, and every made id is Python's `uuid.uuid5`
/// (`CLIImportFilesTests.madeIDs`), so neither the writer nor the checker is the code under test.
@Suite struct CLIProfileTests {
    // MARK: - Helpers

    static let statementRows = SampleStatements.bank

    /// The next statement: it repeats 5 and 6 November, then a deposit and two new withdrawals.
    static let nextStatementRows: [[String]] =
        Array(statementRows.prefix(3)) + [
            ["2026/11/5 0:00", "178", "", "ｺｰﾋｰ ﾄﾞﾄｰﾙ", "349,046"],
            ["2026/11/6 0:00", "1,200", "", "ﾗﾝﾁ ｻｸﾗ", "347,846"],
            ["2026/11/7 0:00", "", "5,000", "ﾌﾘｺﾐ ﾔﾏﾀﾞ", "352,846"],
            ["2026/11/8 0:00", "178", "", "ｺｰﾋｰ ﾄﾞﾄｰﾙ", "352,668"],
            ["2026/11/9 0:00", "432", "", "ｾﾌﾞﾝｲﾚﾌﾞﾝ", "352,236"],
        ]

    /// A native CSV whose second row's price is not a number (line 3).
    static let oneInvalidRow: [[String]] = [
        ["date", "name", "price", "category"],
        ["2024/3/1", "パン", "250", "0"],
        ["2024/3/2", "牛乳", "abc", "0"],
        ["2024/3/3", "卵", "300", "0"],
    ]

    /// Facts about JSON text as Python's `json` module reads it: each of `expressions` (Python, of the parsed `d`)
    /// printed by `json.dumps` with sorted keys, a line each.
    static func pythonJSON(_ text: String, _ expressions: [String]) throws -> [String] {
        let script = """
            import json, sys
            d = json.loads(sys.stdin.buffer.read().decode("utf-8"))
            for expression in sys.argv[1:]:
                line = json.dumps(eval(expression), sort_keys=True, ensure_ascii=False) + "\\n"
                sys.stdout.buffer.write(line.encode("utf-8"))
            """
        let output = try CLIImportFilesTests.python(script, expressions, stdin: Data(text.utf8))
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count == expressions.count else {
            throw TestFailure("python3 printed \(lines.count) lines for \(expressions)")
        }
        return lines
    }

    /// Edits a profile file as a person would, with Python's `json` module: `rules` (a JSON array) go before the
    /// file's own, since the first rule a row matches wins.
    static func addRules(_ rules: String, to path: String) throws {
        let script = """
            import json, sys
            path = sys.argv[1]
            with open(path, encoding="utf-8") as f:
                profile = json.load(f)
            profile["rules"] = json.loads(sys.stdin.buffer.read().decode("utf-8")) + profile.get("rules", [])
            with open(path, "w", encoding="utf-8") as f:
                json.dump(profile, f, ensure_ascii=False, indent=2)
            """
        _ = try CLIImportFilesTests.python(script, [path], stdin: Data(rules.utf8))
    }

    /// Category and sub of each item, as `0/1` or `0/null`.
    static func categoryPairs(_ items: [Item]) -> [String] {
        items.map { "\($0.category)/\($0.categorySub.map(String.init) ?? "null")" }
    }

    /// A folder inside the home, created.
    static func folder(_ name: String, in home: TemporaryDirectory) throws -> URL {
        let url = home.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes text to a file in a folder; returns its path.
    @discardableResult
    static func write(_ text: String, to name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// A user of the dummy environment (no network).
    static func dummy(_ home: TemporaryDirectory) -> [String: String] {
        Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
    }

    // MARK: - profile list and show

    @Test func profileListNamesTheBuiltInsAndShowPrintsOneAsJSON() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Self.dummy(home)

        let list = try await CLI.run(["profile", "list"], environment: env)
        #expect(list.status == 0, "\(list.stderr)")
        let row = try #require(
            list.stdout.split(separator: "\n").first { $0.hasPrefix("moneyforward ") }, "\(list.stdout)")
        #expect(row.contains("MoneyForward ME export (計算対象,日付,内容,金額（円）,保有金融機関,大項目,中項目,メモ,振替,ID)"), "\(row)")

        let show = try await CLI.run(["profile", "show", "moneyforward"], environment: env)
        #expect(show.status == 0, "\(show.stderr)")
        let facts = try Self.pythonJSON(
            show.stdout,
            [
                "sorted(d)", "d['unmatched']", "len(d['skip']) + len(d['transfers'])", "len(d['rules'])",
                "d['columns']['price']", "d['invertSign']",
            ])
        let keys = try JSONDecoder().decode([String].self, from: Data(facts[0].utf8))
        #expect(Set(["columns", "skip", "rules", "unmatched"]).isSubset(of: keys), "\(keys)")
        #expect(facts[1] == "\"exclude\"")
        #expect(facts[2] == "3")
        #expect(facts[3] == "7")
        #expect(facts[4] == "[\"金額（円）\", \"金額(円)\"]")
        #expect(facts[5] == "true")

        let unknown = try await CLI.run(["profile", "show", "nope"], environment: env)
        #expect(unknown.status == 64, "\(unknown.stderr)")
        #expect(unknown.stdout.isEmpty)
        #expect(
            unknown.stderr.contains(
                "No profile file 'nope' and no built-in profile of that name; the built-in profiles are moneyforward"),
            "\(unknown.stderr)")
    }

    @Test func profileShowPrintsAProfileFileMergedWithWhatItExtendsTheChildsRulesFirst() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Self.dummy(home)
        let profiles = try Self.folder("profiles", in: home)
        let work = try Self.folder("work", in: home)
        try Self.write(
            """
            {
              "columns": {"date": "日付", "name": "内容", "price": "金額"},
              "rules": [{"column": "内容", "contains": "パン", "category": 0, "sub": 0}],
              "defaultCategory": 1
            }
            """, to: "base.json", in: profiles)
        try Self.write(
            """
            {
              "extends": "base.json",
              "rules": [{"column": "内容", "contains": "コーヒー", "category": 0, "sub": 1}]
            }
            """, to: "child.json", in: profiles)
        // A base.json in the working directory is not the one beside child.json: it must not be read.
        try Self.write(
            """
            {"columns": {"date": "d", "name": "n", "price": "p"}, "defaultCategory": 9,
             "rules": [{"column": "n", "equals": "decoy", "category": 9}]}
            """, to: "base.json", in: work)

        let shown = try await CLI.run(["profile", "show", "../profiles/child.json"], environment: env, in: work)
        #expect(shown.status == 0, "\(shown.stderr)")
        let facts = try Self.pythonJSON(
            shown.stdout,
            [
                "len(d['rules'])", "d['rules'][0]", "d['rules'][1]", "d['columns']",
                "d.get('defaultCategory')", "'extends' in d",
            ])
        #expect(facts[0] == "2")
        #expect(facts[1] == #"{"category": 0, "column": "内容", "contains": "コーヒー", "sub": 1}"#)
        #expect(facts[2] == #"{"category": 0, "column": "内容", "contains": "パン", "sub": 0}"#)
        #expect(facts[3] == #"{"date": "日付", "name": "内容", "price": "金額"}"#)
        #expect(facts[4] == "1")
        #expect(facts[5] == "false", "the merged profile is shown whole")

        let child = try Self.write(
            """
            {
              "extends": "moneyforward",
              "rules": [{"column": "大項目", "equals": "住宅", "category": 1, "sub": 2}]
            }
            """, to: "rent.json", in: profiles)
        let merged = try await CLI.run(["profile", "show", child], environment: env, in: work)
        #expect(merged.status == 0, "\(merged.stderr)")
        let mergedFacts = try Self.pythonJSON(
            merged.stdout,
            [
                "len(d['rules'])", "d['rules'][0]", "d['rules'][1]", "d['unmatched']",
                "len(d['skip']) + len(d['transfers'])", "d['columns']['id']",
            ])
        #expect(mergedFacts[0] == "8", "the child's rule and moneyforward's seven")
        #expect(mergedFacts[1] == #"{"category": 1, "column": "大項目", "equals": "住宅", "sub": 2}"#)
        #expect(mergedFacts[2] == #"{"category": 0, "column": "中項目", "equals": "カフェ", "sub": 1}"#)
        #expect(mergedFacts[3] == "\"exclude\"")
        #expect(mergedFacts[4] == "3")
        #expect(mergedFacts[5] == "\"ID\"")
    }

    @Test func profilesThatExtendEachOtherInACircleAreRefused() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Self.dummy(home)
        let profiles = try Self.folder("profiles", in: home)
        let a = try Self.write(
            #"{"extends": "b.json", "columns": {"date": "d", "name": "n", "price": "p"}, "defaultCategory": 0}"#,
            to: "a.json", in: profiles)
        try Self.write(#"{"extends": "a.json"}"#, to: "b.json", in: profiles)
        let csv = try CLIImportFilesTests.write([["d", "n", "p"], ["2024/3/1", "パン", "250"]], "in.csv", in: home)

        let shown = try await CLI.run(["profile", "show", a], environment: env)
        #expect(shown.status == 65, "\(shown.stderr)")
        #expect(shown.stdout.isEmpty)
        #expect(shown.stderr.contains("in a circle"), "\(shown.stderr)")
        #expect(shown.stderr.contains("a.json → b.json → a.json"), "\(shown.stderr)")

        let registered = try await CLI.run(["register", "--profile", a, "--dry-run", csv], environment: env)
        #expect(registered.status == 65, "\(registered.stderr)")
        #expect(registered.stderr.contains("in a circle"), "\(registered.stderr)")
    }

    // MARK: - profile init

    @Test func profileInitGuessesAProfileThatRegisterAcceptsForABankStatement() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Self.dummy(home)
        let statement = try CLIImportFilesTests.write(Self.statementRows, "statement.csv", in: home, encoding: "cp932")
        #expect(
            String(data: try Data(contentsOf: URL(fileURLWithPath: statement)), encoding: .utf8) == nil,
            "a Shift_JIS file, not one that happens to be UTF-8")

        let guessed = try await CLI.run(["profile", "init", statement], environment: env)
        #expect(guessed.status == 0, "\(guessed.stderr)")
        #expect(guessed.stderr.contains("guessed skipRows: 2"), "\(guessed.stderr)")
        #expect(guessed.stderr.contains("guessed encoding:"), "\(guessed.stderr)")
        #expect(guessed.stderr.contains("guessed columns.price: 'お支払金額'"), "\(guessed.stderr)")
        let facts = try Self.pythonJSON(
            guessed.stdout, ["d['skipRows']", "d['columns']", "d['skip'][0]['column']", "d['skip'][0]['equals']"])
        #expect(facts[0] == "2")
        #expect(facts[1] == #"{"date": "日付", "name": "摘要", "price": "お支払金額"}"#)
        #expect(facts[2] == "\"お支払金額\"")
        #expect(facts[3] == "\"\"")

        // The guess, saved as it was printed, reads the statement: the withdrawals only, as positive prices.
        let saved = try home.write("saved.json", guessed.stdout)
        let dry = try await CLI.run(
            ["register", "--profile", saved, "--dry-run", "--format", "json", statement], environment: env)
        #expect(dry.status == 0, "\(dry.stderr)")
        let items = try ItemCodec.items(Data(dry.stdout.utf8))
        #expect(items.map(\.date.compact) == ["20261103", "20261104", "20261105", "20261106"])
        #expect(items.map(\.name) == ["ｺｰﾋｰ ﾄﾞﾄｰﾙ", "ｾﾌﾞﾝｲﾚﾌﾞﾝ", "ｺｰﾋｰ ﾄﾞﾄｰﾙ", "ﾗﾝﾁ ｻｸﾗ"])
        #expect(items.map(\.price) == [178, 598, 178, 1200])
        #expect(dry.stderr.contains("1 left out by the profile"), "the deposit: \(dry.stderr)")
    }

    @Test func profileInitWritesTheFileWithOutputAndNeverOverwritesOne() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Self.dummy(home)
        let statement = try CLIImportFilesTests.write(Self.statementRows, "statement.csv", in: home, encoding: "cp932")
        let bank = home.url.appendingPathComponent("bank.json").path

        let written = try await CLI.run(["profile", "init", statement, "-o", bank], environment: env)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.isEmpty, "the profile goes to the file: \(written.stdout)")
        #expect(written.stderr.contains("guessed skipRows: 2"), "\(written.stderr)")
        let text = try String(contentsOfFile: bank, encoding: .utf8)
        #expect(try Self.pythonJSON(text, ["d['skipRows']"]) == ["2"])

        // The person edits it; a second init must not undo that.
        let edited = text.replacingOccurrences(of: "Made by expense-log profile init", with: "Edited by hand")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: bank))
        let again = try await CLI.run(["profile", "init", statement, "-o", bank], environment: env)
        #expect(again.status == 74, "\(again.stderr)")
        #expect(again.stderr.contains("\(bank) exists"), "\(again.stderr)")
        #expect(try String(contentsOfFile: bank, encoding: .utf8) == edited, "the file is unchanged")
    }

    // MARK: - The worked session: init, edit, register, register again, the next statement

    @Test func aGuessedProfileEditedWithRulesRegistersAStatementAndItsNextOneWithoutRepeats() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let statement = try CLIImportFilesTests.write(Self.statementRows, "statement.csv", in: home, encoding: "cp932")
        let next = try CLIImportFilesTests.write(Self.nextStatementRows, "statement-2.csv", in: home, encoding: "cp932")
        let bank = home.url.appendingPathComponent("bank.json").path
        // Ids are made from the name as read (ｺｰﾋｰ ﾄﾞﾄｰﾙ), not the one a rule gives.
        let firstIDs = try CLIImportFilesTests.madeIDs([
            ("20261103", "ｺｰﾋｰ ﾄﾞﾄｰﾙ", 178, 1), ("20261104", "ｾﾌﾞﾝｲﾚﾌﾞﾝ", 598, 1),
            ("20261105", "ｺｰﾋｰ ﾄﾞﾄｰﾙ", 178, 1), ("20261106", "ﾗﾝﾁ ｻｸﾗ", 1200, 1),
        ])
        let nextIDs = try CLIImportFilesTests.madeIDs([
            ("20261108", "ｺｰﾋｰ ﾄﾞﾄｰﾙ", 178, 1), ("20261109", "ｾﾌﾞﾝｲﾚﾌﾞﾝ", 432, 1),
        ])
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let made = try await CLI.run(["profile", "init", statement, "-o", bank], environment: env)
            #expect(made.status == 0, "\(made.stderr)")
            try Self.addRules(
                """
                [
                  {"column": "摘要", "contains": "セブン", "category": 1, "sub": 2},
                  {"column": "摘要", "regex": "^ｺｰﾋｰ", "category": 0, "sub": 1, "name": "コーヒー"}
                ]
                """, to: bank)

            let first = try await CLI.run(["register", "--profile", bank, statement], environment: env)
            #expect(first.status == 0, "\(first.stderr)")
            let stored = try await server.items()
            #expect(stored.map(\.id) == firstIDs)
            #expect(stored.map(\.date.compact) == ["20261103", "20261104", "20261105", "20261106"])
            #expect(stored.map(\.price) == [178, 598, 178, 1200])
            #expect(
                stored.map(\.name) == ["コーヒー", "ｾﾌﾞﾝｲﾚﾌﾞﾝ", "コーヒー", "ﾗﾝﾁ ｻｸﾗ"],
                "the coffees are renamed by the regex rule")
            #expect(Self.categoryPairs(stored) == ["0/1", "1/2", "0/1", "0/null"])
            #expect(first.stderr.contains("1 left out by the profile"), "\(first.stderr)")

            // The same statement again: every row is there by id, so nothing is sent.
            let again = try await CLI.run(["register", "--profile", bank, statement], environment: env)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stderr.contains("Nothing to send: every valid row is already there."), "\(again.stderr)")
            #expect(try await server.items().count == 4)
            #expect(try await CLIImportFilesTests.posts(server) == 1)

            // The next statement repeats 5 and 6 November: only 8 and 9 November are sent.
            let overlap = try await CLI.run(["register", "--profile", bank, next], environment: env)
            #expect(overlap.status == 0, "\(overlap.stderr)")
            let after = try await server.items()
            #expect(after.count == 6, "\(after.map(\.date.compact))")
            let added = Array(after.dropFirst(stored.count))
            #expect(added.map(\.id) == nextIDs)
            #expect(added.map(\.date.compact) == ["20261108", "20261109"])
            #expect(added.map(\.name) == ["コーヒー", "ｾﾌﾞﾝｲﾚﾌﾞﾝ"])
            #expect(Self.categoryPairs(added) == ["0/1", "1/2"])
            #expect(try await CLIImportFilesTests.posts(server) == 2)
            #expect(overlap.stderr.contains("Skipped 2 rows already there"), "\(overlap.stderr)")
        }
    }

    // MARK: - --on-invalid and a profile's onInvalid

    @Test func onInvalidWarnSendsTheValidRowsWarnsOfTheInvalidOneAndExitsZero() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try CLIImportFilesTests.write(Self.oneInvalidRow, "march.csv", in: home)
        let reportPath = home.url.appendingPathComponent("report.json").path
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(
                ["register", "--on-invalid", "warn", "--record", reportPath, file], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let stored = try await server.items()
            #expect(stored.map(\.name) == ["パン", "卵"])
            #expect(stored.map(\.price) == [250, 300])
            #expect(
                result.stderr.contains("warning: \(file):3: price: 'abc' is not a whole number"), "\(result.stderr)")

            let report = try ReportDocument(path: reportPath)
            #expect(report.exitCode == 0)
            #expect(report.counts["added"] == 2 && report.counts["invalid"] == 1, "\(report.counts)")
            let row = try #require(report.rows.first { $0.line == 3 }, "the invalid row is in the report")
            #expect(row.file == file)
            #expect(row.status == "invalid")
            #expect(
                row.reasons?.contains { $0.hasPrefix("price: 'abc'") } == true, "\(String(describing: row.reasons))")
        }
    }

    @Test func onInvalidSkipSendsTheValidRowsAndExits65() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try CLIImportFilesTests.write(Self.oneInvalidRow, "march.csv", in: home)
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(["register", "--on-invalid", "skip", file], environment: env)
            #expect(result.status == 65, "\(result.stderr)")
            #expect(try await server.items().map(\.name) == ["パン", "卵"])
            #expect(result.stderr.contains("\(file):3: price: 'abc'"), "\(result.stderr)")
            #expect(!result.stderr.contains("warning: \(file):3"), "an error, not a warning: \(result.stderr)")
        }
    }

    @Test func skipInvalidWithOnInvalidWarnIsAUsageError() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try CLIImportFilesTests.write(Self.oneInvalidRow, "march.csv", in: home)
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(
                ["register", "--skip-invalid", "--on-invalid", "warn", file], environment: env)
            #expect(result.status == 64, "\(result.stderr)")
            #expect(result.stderr.contains("--skip-invalid is --on-invalid skip"), "\(result.stderr)")
            #expect(try await server.requests().isEmpty, "nothing is read or sent")
        }
    }

    @Test func aProfilesOnInvalidWarnActsAsTheFlagAndTheCommandLineOverridesIt() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try CLIImportFilesTests.write(Self.oneInvalidRow, "march.csv", in: home)
        let profile = try home.write(
            "warn.json",
            """
            {
              "columns": {"date": "date", "name": "name", "price": "price", "category": "category"},
              "onInvalid": "warn"
            }
            """)
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            // The command line wins: stop sends nothing.
            let stopped = try await CLI.run(
                ["register", "--profile", profile, "--on-invalid", "stop", file], environment: env)
            #expect(stopped.status == 65, "\(stopped.stderr)")
            #expect(stopped.stderr.contains("nothing was sent"), "\(stopped.stderr)")
            #expect(try await CLIImportFilesTests.posts(server) == 0)
            #expect(try await server.items().isEmpty)

            // The profile alone: as --on-invalid warn.
            let warned = try await CLI.run(["register", "--profile", profile, file], environment: env)
            #expect(warned.status == 0, "\(warned.stderr)")
            #expect(warned.stderr.contains("warning: \(file):3: price:"), "\(warned.stderr)")
            #expect(try await server.items().map(\.name) == ["パン", "卵"])
        }
    }

    @Test func aFileWhoseHeaderCannotBeReadStillExits65UnderOnInvalidWarn() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try CLIImportFilesTests.write(
            [["when", "what", "howmuch"], ["2024/3/1", "パン", "250"]], "odd.csv", in: home)
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(["register", "--on-invalid", "warn", file], environment: env)
            #expect(result.status == 65, "\(result.stderr)")
            #expect(result.stderr.contains("\(file):1: the header lacks"), "\(result.stderr)")
            #expect(!result.stderr.contains("warning: \(file):1"), "not a warning: \(result.stderr)")
            #expect(try await CLIImportFilesTests.posts(server) == 0)
            #expect(try await server.items().isEmpty)
        }
    }
}

extension CLIProfileTests {
    @Test func warnModeStillFailsWhenNoRowIsValidAtAll() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // Dates in a layout the profile does not expect: a bank that changed its export.
        let file = try CLIImportFilesTests.write(
            [
                ["date", "name", "price", "category"], ["03/01/2024", "パン", "250", "0"],
                ["03/02/2024", "牛乳", "200", "0"],
            ], "changed.csv", in: home)
        try await withServer { server in
            let result = try await CLI.run(
                ["register", "--on-invalid", "warn", file], environment: Samples.environment(home: home, server: server)
            )
            #expect(result.status == 65, "\(result.stderr)")
            #expect(result.stderr.contains("Error: no row is valid, so nothing was sent"), "\(result.stderr)")
            #expect(try await server.items().isEmpty)
        }
    }

    @Test func profileInitSendsAMoneyForwardExportToTheBuiltInProfileAndLeavesAForeignCategoryColumnToRules()
        async throws
    {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Self.dummy(home)
        let export = try home.write("mf.csv", bytes: try Samples.shiftJIS(CLIImportTests.moneyForwardExport))
        let mf = try await CLI.run(["profile", "init", export], environment: env)
        #expect(mf.status == 65)
        #expect(
            mf.stderr.contains(
                "this is the layout of the built-in moneyforward profile (MoneyForward ME export): import it as it is"),
            "\(mf.stderr)")
        #expect(mf.stdout.isEmpty)

        let card = try CLIImportFilesTests.write(
            [
                ["Transaction Date", "Description", "Category", "Amount"],
                ["03/15/2024", "STARBUCKS", "Food & Drink", "-6"],
                ["03/16/2024", "BOOKSTORE", "Shopping", "-20"],
            ], "card.csv", in: home, encoding: "utf-8")
        let guessed = try await CLI.run(["profile", "init", card], environment: env)
        #expect(guessed.status == 0, "\(guessed.stderr)")
        let columns = try Self.pythonJSON(
            guessed.stdout, ["sorted(d['columns'])", "d['dateFormat']", "d['invertSign']"])
        #expect(
            columns == [#"["date", "name", "price"]"#, #""MM/dd/yyyy""#, "true"],
            "the bank's Category words are not the catalogue's")
        #expect(
            guessed.stderr.contains("not 'Category', whose values ('Food & Drink') are not the catalogue's"),
            "\(guessed.stderr)")
    }
}
