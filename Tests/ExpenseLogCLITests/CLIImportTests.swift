import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import Foundation
import Testing

/// `register`/`import` of foreign files through the real binary: encodings, headers, price styles, profiles.
@Suite struct CLIImportTests {
    /// The sheet's Japanese header, every date style and every price style, in CP932 (with NEC and IBM characters).
    static let japaneseRows = """
        ID,日付,品名,金額,項目,サブ項目
        S1,20240301,お茶①,"1,500",0,1
        S2,2024-03-02,パン,￥1,200,0,0
        S3,2024/3/3,卵,"1,500円",0,
        S4,2024/3/4,牛乳,\\1,000,0,0
        S5,2024/3/5,髙橋さんへの花,300,1,2

        """

    @Test func aShiftJISFileWithJapaneseHeadersAndEveryPriceStyleIsDetectedAndRegistered() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("sheet.csv", bytes: try Samples.shiftJIS(Self.japaneseRows))
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            // Declared UTF-8, the file cannot be read: the first bad line is named with the fix, and nothing is sent.
            let wrong = try await CLI.run(["register", "--encoding", "utf-8", file], environment: env)
            #expect(wrong.status == 65)
            #expect(
                wrong.stderr.contains(
                    "\(file):1: the text is not valid UTF-8 here; if the file is Shift_JIS, pass --encoding shift_jis"))
            #expect(try await server.requests().isEmpty)

            let result = try await CLI.run(["import", file, "--format", "json"], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let stored = try await server.items()
            #expect(stored.map(\.id) == ["S1", "S2", "S3", "S4", "S5"])
            #expect(stored.map(\.name) == ["お茶①", "パン", "卵", "牛乳", "髙橋さんへの花"])
            #expect(stored.map(\.price) == [1500, 1200, 1500, 1000, 300])
            #expect(stored.map(\.date.compact) == ["20240301", "20240302", "20240303", "20240304", "20240305"])
            #expect(stored.map(\.categorySub) == [1, 0, nil, 0, 2])
            #expect(result.stderr.contains("Rows: 5 added."))
            // The unquoted ones are read as one price each, with a warning in case a comma meant another column.
            #expect(result.stderr.contains("warning: \(file):3: price: read the unquoted '￥1,200' as one price"))
            #expect(result.stderr.contains("warning: \(file):5: price: read the unquoted '\\1,000' as one price"))
        }
    }

    @Test func aUTF8FileWithABOMReadsInTheDummyEnvironment() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write(
            "bom.csv", "\u{FEFF}id,date,name,price,category,categorySub\nB1,20240310,ノート,\"2,500\",1,2\n")
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        let result = try await CLI.run(["register", "--dry-run", "--format", "json", file], environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        let items = try ItemCodec.items(Data(result.stdout.utf8))
        #expect(items == [Samples.item("B1", "20240310", "ノート", 2500, category: 1, sub: 2)])
    }

    /// A MoneyForward ME export as the app writes it: quoted, CP932, CRLF, spending negative.
    static let moneyForwardExport =
        [
            "\"計算対象\",\"日付\",\"内容\",\"金額（円）\",\"保有金融機関\",\"大項目\",\"中項目\",\"メモ\",\"振替\",\"ID\"",
            "\"1\",\"2024/03/05\",\"スターバックス\",\"-550\",\"楽天カード\",\"食費\",\"カフェ\",\"\",\"0\",\"mf-001\"",
            "\"1\",\"2024/03/06\",\"イオン\",\"-3,280\",\"楽天カード\",\"食費\",\"食料品\",\"\",\"0\",\"mf-002\"",
            "\"1\",\"2024/03/07\",\"居酒屋\",\"-4,000\",\"楽天カード\",\"食費\",\"外食\",\"\",\"0\",\"mf-003\"",
            "\"1\",\"2024/03/08\",\"給与\",\"250,000\",\"三井住友銀行\",\"収入\",\"給与\",\"\",\"0\",\"mf-004\"",
            "\"1\",\"2024/03/09\",\"カード引き落とし\",\"-30,000\",\"三井住友銀行\",\"現金・カード\",\"カード引き落とし\",\"\",\"1\",\"mf-005\"",
            "\"0\",\"2024/03/10\",\"立替\",\"-2,000\",\"楽天カード\",\"未分類\",\"未分類\",\"\",\"0\",\"mf-006\"",
            "\"1\",\"2024/03/11\",\"家賃\",\"-80,000\",\"三井住友銀行\",\"住宅\",\"家賃\",\"\",\"0\",\"mf-007\"",
            "\"1\",\"2024/03/12\",\"モバイルSuica\",\"-3,000\",\"楽天カード\",\"交通費\",\"電車\",\"\",\"0\",\"mf-008\"",
            "\"1\",\"2024/03/13\",\"イオン 返品\",\"500\",\"楽天カード\",\"食費\",\"食料品\",\"\",\"0\",\"mf-009\"",
            "\"1\",\"2024/03/14\",\"\(longName)\",\"-1,980\",\"楽天カード\",\"日用品\",\"日用品\",\"\",\"0\",\"mf-010\"",
        ].joined(separator: "\r\n") + "\r\n"
    static let longName = "ＡＭＡＺＯＮ．ＣＯ．ＪＰ　マーケットプレイス　ご注文番号１２３"  // 31 characters

    @Test func theMoneyForwardProfileImportsAnExportAndAReimportSkipsEveryRow() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("mf.csv", bytes: try Samples.shiftJIS(Self.moneyForwardExport))
        let reportPath = home.url.appendingPathComponent("report.json").path
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let args = ["import", "--profile", "moneyforward", "--skip-invalid", "--record", reportPath, file]
            let result = try await CLI.run(args, environment: env)
            // The 住宅 row has no category in the app's catalogue: the profile leaves it out and says how to import it.
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "Rows: 6 added, 1 transfer between your own accounts (not spending), 3 left out by the profile."),
                "\(result.stderr)")
            let stored = try await server.items()
            #expect(stored.map(\.id) == ["mf-001", "mf-002", "mf-003", "mf-008", "mf-009", "mf-010"])
            // Spending is negative in the export and positive here; the refund (+500) becomes -500.
            #expect(stored.map(\.price) == [550, 3280, 4000, 3000, -500, 1980])
            #expect(stored.reduce(0) { $0 + $1.price } == 12_310)  // 550 + 3,280 + 4,000 + 3,000 − 500 + 1,980
            #expect(stored.map(\.category) == [0, 0, 0, 1, 0, 1])
            #expect(stored.map(\.categorySub) == [1, 0, nil, 1, 0, 2])
            #expect(stored.last?.name == String(Self.longName.prefix(30)), "names are cut to the app's 30 characters")

            let report = try ReportDocument(path: reportPath)
            #expect(report.exitCode == 0)
            #expect(
                report.counts["added"] == 6 && report.counts["excluded"] == 3 && report.counts["transfer"] == 1
                    && (report.counts["invalid"] ?? 0) == 0)
            #expect(report.rows.map(\.line) == Array(2...11), "every row, in file order")
            #expect(
                report.rows.map(\.status) == [
                    "added", "added", "added", "excluded", "transfer", "excluded", "excluded",
                    "added", "added", "added",
                ])
            #expect(report.rows[3].reasons == ["income (収入)"])
            #expect(
                report.rows[6].reasons == [
                    "no rule of the moneyforward profile matches (大項目 '住宅', 中項目 '家賃'); "
                        + "a profile that extends it with a rule imports such rows"
                ])
            #expect(report.rows[4].reasons == ["a transfer between your own accounts (振替)"])

            // The same export again: MoneyForward's ids are on the server now, so nothing is sent twice.
            let again = try await CLI.run(args, environment: env)
            #expect(again.status == 0)
            #expect(again.stderr.contains("Skipped 6 rows already there"))
            #expect(try await server.items().count == 6)
            #expect(try await server.requests().filter { $0.method == "POST" }.count == 1)
            #expect(try ReportDocument(path: reportPath).counts["duplicate"] == 6)
        }
        // The dummy environment reads the same file with no network.
        let dummy = try await CLI.run(
            [
                "import", "--env", "dummy", "--profile", "moneyforward", "--skip-invalid", "--dry-run",
                "--format", "csv", file,
            ], environment: Samples.environment(home: home))
        #expect(dummy.status == 0)
        #expect(dummy.stdout.split(separator: "\n").count == 7, "a header and the six items")
    }

    /// The README's worked profile example, read from the page of its reference that holds it, docs/import-profiles.md.
    @Test func theREADMEsWorkedProfileExampleReadsItsBankStatement() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let readme = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("docs/import-profiles.md"), encoding: .utf8)
        let profile = try home.write("bank-profile.json", try Self.fence(after: "bank-profile.json", in: readme))
        let statement = try home.write("bank-2024-03.csv", try Self.fence(after: "bank-2024-03.csv", in: readme))
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        let result = try await CLI.run(
            ["register", "--profile", profile, "--dry-run", "--format", "json", statement], environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        let items = try ItemCodec.items(Data(result.stdout.utf8))
        #expect(items.map(\.date.compact) == ["20240301", "20240302", "20240304"])
        #expect(items.map(\.price) == [480, 1200, 980])
        #expect(items.map(\.category) == [0, 1, 1])
        #expect(items.map(\.categorySub) == [1, 1, 2])
        #expect(result.stderr.contains("1 left out by the profile"))
    }

    @Test func aBadProfileOrAMisusedOneStopsBeforeAnythingIsRead() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "dummy"])
        let csv = try home.write("a.csv", "日付,摘要,金額\n2024/3/1,x,1\n")
        let bad = try home.write(
            "bad.json",
            "{\n  \"columns\": {\"date\": \"日付\", \"name\": \"摘要\", \"price\": \"金額\"},\n"
                + "  \"rules\": [{\"column\": \"摘要\", \"equals\": \"x\"}]\n}\n")
        let result = try await CLI.run(["register", "--profile", bad, csv], environment: env)
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(bad):3: rules[0]: needs \"category\""))

        let unknown = try await CLI.run(["register", "--profile", "mf", csv], environment: env)
        #expect(unknown.status == 64)
        #expect(
            unknown.stderr.contains(
                "the built-in profiles are moneyforward, mufg, paypay, rakuten-card, smbc, vpass, yucho"),
            "\(unknown.stderr)")
        let missing = try await CLI.run(["register", "--profile", "nowhere/p.json", csv], environment: env)
        #expect(missing.status == 66)
        let json = try home.write("a.json", "[]")
        let wrongInput = try await CLI.run(["register", "--profile", "moneyforward", json], environment: env)
        #expect(wrongInput.status == 64)
        #expect(wrongInput.stderr.contains("--profile reads CSV"))
    }

    /// The body of the first code fence after the line naming a file (in the README's reference, docs/*.md).
    static func fence(after name: String, in text: String) throws -> String {
        guard let named = text.range(of: "`\(name)`"),
            let open = text.range(of: "```", range: named.upperBound..<text.endIndex),
            let lineEnd = text.range(of: "\n", range: open.upperBound..<text.endIndex),
            let close = text.range(of: "\n```", range: lineEnd.upperBound..<text.endIndex)
        else {
            throw TestFailure("the page has no code block after `\(name)`")
        }
        return String(text[lineEnd.upperBound..<close.lowerBound]) + "\n"
    }
}

/// A `--record` file, decoded.
struct ReportDocument: Decodable {
    struct Row: Decodable {
        let file: String
        let line: Int
        let status: String
        let item: ReportItem?
        let reasons: [String]?
        let matched: Matched?
        let candidates: [Matched]?
    }

    struct Matched: Decodable {
        let `in`: String
        let item: ReportItem
    }

    /// An item as the report writes it: the wire's keys with their plain types, checked strictly.
    struct ReportItem: Decodable, Equatable {
        let id: String
        let date: String
        let name: String
        let price: Int
        let category: Int
        let categorySub: Int?
    }

    let exitCode: Int
    let counts: [String: Int]
    let rows: [Row]

    init(path: String) throws {
        self = try JSONDecoder().decode(ReportDocument.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
