import Foundation
import TestSupport
import Testing

@testable import ExpenseLogImport
@testable import ExpenseLogModel
@testable import ExpenseLogStore
@testable import ExpenseLogUseCases

// What imports read of the forms people have: dates and prices as typed, date layouts with a two-digit year or a time,
// ids made from a row's content, profiles that extend others, rename and match after NFKC, and profiles guessed from a
// file. Every file a guess reads is written by Python's csv module and codecs, and every made id is Python's
// `uuid.uuid5`, so neither the writer nor the checker is the code under test.

/// Rows written by Python's `csv.writer` (the excel dialect: CRLF, quotes only where needed) in Python's codec for
/// `encoding`, as the bytes a file would hold.
private func csvBytesByPython(_ rows: [[String]], encoding: String) throws -> [UInt8] {
    let script = """
        import csv, io, json, sys
        rows = json.loads(sys.stdin.buffer.read().decode("utf-8"))
        text = io.StringIO(newline="")
        csv.writer(text, dialect="excel").writerows(rows)
        sys.stdout.buffer.write(text.getvalue().encode(sys.argv[1]))
        """
    let process = try ChildProcess("/usr/bin/env", ["python3", "-c", script, encoding], stdin: .pipe, stdout: .pipe)
    process.input?.write(try JSONEncoder().encode(rows))
    try process.input?.close()
    let output = process.output?.readDataToEndOfFile() ?? Data()
    let status = process.waitBlocking()
    try #require(status == 0, "python3 could not write the CSV")
    return Array(output)
}

/// The ids `DerivedID` documents, by Python: `uuid5(0C89BF94-…, "yyyyMMdd␟NAME␟PRICE␟N")` in uppercase.
private enum PythonIDs {
    /// 2026-11-03, コーヒー, ¥178, the first, second and third such row.
    static let coffee1 = "B38A5B55-E270-5150-973B-FE8B4779D72E"
    static let coffee2 = "A0B848F1-02A0-54AA-B77D-51BBB8CD41C7"
    static let coffee3 = "D7B3DF0F-1DE2-5C2F-8522-4D381C6B5642"
    /// 2026-11-03, "a" repeated so that the hashed bytes are so many long, ¥178, the first.
    static let byLength = [
        (55, "6BF374CD-1C35-5B51-B928-E18BF2D07A98"), (56, "563AD3C4-1C6B-5DB8-BB6C-26F2DD464224"),
        (63, "0D97EC91-AFBB-53BC-844B-9513F7FA66A2"), (64, "01DA4E9E-5080-5857-8ED8-7F2E75B36F3A"),
        (119, "6D7C7A52-3D05-59B8-9CDD-B5810C6F1C90"), (120, "A53AAA19-0540-56B6-BB1A-ACB08B576219"),
        (130, "4B90D6C8-CE76-5A4A-935D-C003F1F3AA7D"),
    ]
    /// 2026-11-03, ﾄﾞﾄｰﾙ 新宿店 (the name as read, before a rule renames it), ¥178, the first.
    static let doutor = "2494C330-B9F8-5E68-A460-29150DF704DE"
}

/// A row without an id read from `file` at `line`: a ¥178 コーヒー on 3 November 2026, category 0/1.
private func coffeeRow(_ file: String, line: Int, id: RawValue = .missing) -> ItemDraft {
    var row = ItemDraft(location: SourceLocation(file: file, line: line))
    row.isCSVRow = true
    row.id = id
    row.date = .text("20261103")
    row.name = .text("コーヒー")
    row.price = .text("178")
    row.category = .integer(0)
    row.categorySub = .integer(1)
    return row
}

/// What a validator made of a draft, as a line a test compares.
private func verdict(_ checked: ItemValidator.Checked) -> String {
    switch checked {
    case .valid(let item, let madeID): return "valid \(item.id)" + (madeID ? " (made)" : "")
    case .repeated(let item, let earlier): return "repeated \(item.id) of \(earlier)"
    case .invalid: return "invalid"
    }
}

/// Category and sub of each item, as `0/1` or `1/null`.
private func categoryPairs(_ items: [Item]) -> [String] {
    items.map { "\($0.category)/\($0.categorySub.map(String.init) ?? "null")" }
}

/// Lowercase hex of bytes.
private func hexDigits(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// The profile of a bank statement (日付,摘要,金額), with more keys given as JSON members.
private func statementProfile(_ members: String) throws -> ImportProfile {
    try parseProfile(#"{"columns": {"date": "日付", "name": "摘要", "price": "金額"}, "# + members + "}")
}

@Suite("The forms imports read: written dates and prices, date layouts, made ids, profile files and guesses")
struct ImportFormsTests {
    // MARK: - Dates as people write them

    @Test(
        "Day(written:) reads a day in the forms people, banks and spreadsheets write",
        arguments: [
            ("20240105", 2024, 1, 5),
            ("2024-1-5", 2024, 1, 5),
            ("2024-01-05", 2024, 1, 5),
            ("2024/1/5", 2024, 1, 5),
            ("2024.1.5", 2024, 1, 5),
            ("2024年1月5日", 2024, 1, 5),
            ("２０２４／１／５", 2024, 1, 5),  // full-width digits and slashes
            ("2026/11/3 0:00", 2026, 11, 3),  // Excel's date-time
            ("2026/11/3 12:34:56", 2026, 11, 3),
            ("2024-01-05T00:00:00", 2024, 1, 5),  // ISO 8601 with a time
            ("2024-01-05T23:30:00Z", 2024, 1, 5),  // a zone after the time does not move the day written
            ("2024-01-05T08:00:00+09:00", 2024, 1, 5),
            (" 2024/1/5 ", 2024, 1, 5),
        ])
    func readsWrittenDays(text: String, year: Int, month: Int, dayOfMonth: Int) throws {
        #expect(Day(written: text) == (try day(year, month, dayOfMonth)), "'\(text)'")
    }

    @Test(
        "Day(written:) refuses a day without a four-digit year, one that is not real, and text after the date",
        arguments: [
            "1/5", "2024/13/1", "2024/2/30", "2024/1/5 noon", "2024/1/5x", "24/1/5",
            "2024年1月5",  // 年 and 月 but no 日: not the Japanese form
        ])
    func refusesWrittenDays(text: String) {
        #expect(Day(written: text) == nil, "'\(text)' was read as \(String(describing: Day(written: text)))")
    }

    @Test(
        "Day(written:) reads the Japanese form with a time after it or blanks around it, as it reads 2026/11/3 0:00",
        arguments: [
            ("2024年1月5日 0:00", 2024, 1, 5),
            (" 2024年1月5日 ", 2024, 1, 5),
            ("2026年11月3日 12:34", 2026, 11, 3),
        ])
    func readsJapaneseDaysWithATime(text: String, year: Int, month: Int, dayOfMonth: Int) throws {
        #expect(Day(written: text) == (try day(year, month, dayOfMonth)), "'\(text)': \(DateText.problem(text))")
    }

    @Test(
        "DateText.problem says why a date is not read: no year, not a real day, or not a form read here",
        arguments: [
            ("1/5", "'1/5' has no year, so which year's sheet it belongs to cannot be known"),
            (
                "5/1/24",
                "'5/1/24' has no four-digit year; if it is a two-digit one, give a profile whose \"dateFormat\" says"
            ),
            ("2024/2/30", "'2024/2/30' is not a real day (2024-02 has 29 days)"),
            ("2023/2/29", "'2023/2/29' is not a real day (2023-02 has 28 days)"),
            ("2024/13/1", "'2024/13/1' is not a real day"),
            ("Jan 5", "'Jan 5' is not a date in a form read here"),
        ])
    func dateProblems(text: String, expected: String) {
        let problem = DateText.problem(text)
        #expect(problem.hasPrefix(expected), "\(problem)")
    }

    @Test("DateText.problem names the forms read and says how to read other layouts")
    func dateProblemAdvice() {
        let yearless = DateText.problem("1/5")
        #expect(yearless.contains("export the dates with their year"), "\(yearless)")
        #expect(!yearless.contains("dateFormat"), "no layout can give a year that is not there: \(yearless)")
        #expect(DateText.problem("5/1/24").contains("\"dateFormat\""), "a two-digit year can be read with a layout")
        #expect(!yearless.contains("not a real day"), "\(yearless)")
        let foreign = DateText.problem("Jan 5")
        #expect(foreign.contains("yyyyMMdd, yyyy-M-d, yyyy/M/d, yyyy.M.d or yyyy年M月d日"), "\(foreign)")
        #expect(!foreign.contains("four-digit year") && !foreign.contains("not a real day"), "\(foreign)")
    }

    // MARK: - Prices as people write them

    @Test(
        "PriceText reads whole yen written with a mark, a space, thousands separators or a zero fraction",
        arguments: [
            ("1,500 円", 1500),
            ("1500.0", 1500),
            ("1,500.00", 1500),
            ("¥ 1,500", 1500),
            ("１５００．０", 1500),  // full-width digits and point
        ])
    func readsPrices(text: String, value: Int) {
        #expect(PriceText.parse(text) == value, "'\(text)'")
    }

    @Test(
        "PriceText refuses a fraction of a yen and a point with nothing after it",
        arguments: ["1500.5", "1500.", "1,500.50", "1500.05"])
    func refusesFractions(text: String) {
        #expect(PriceText.parse(text) == nil, "'\(text)' was read as \(String(describing: PriceText.parse(text)))")
    }

    // MARK: - Date layouts of profiles

    @Test("a dateFormat with yy reads a two-digit year as 20yy, and a layout reads a date with a time after it")
    func datePatterns() throws {
        let short = try #require(DatePattern("yy/MM/dd"))
        #expect(short.day(from: "24/01/05") == (try day(2024, 1, 5)))
        #expect(short.day(from: "99/12/31") == (try day(2099, 12, 31)))
        #expect(short.day(from: "2024/01/05") == nil, "a four-digit year does not fit yy")
        let long = try #require(DatePattern("yyyy/MM/dd"))
        #expect(long.day(from: "2024/01/05 0:00") == (try day(2024, 1, 5)))
        #expect(long.day(from: "2024/01/05 12:34:56") == (try day(2024, 1, 5)))
        #expect(long.day(from: "2024/01/05 noon") == nil)
    }

    @Test("a dateFormat's problem says whether the text does not fit the layout or is not a real day")
    func datePatternProblems() throws {
        let layout = try #require(DatePattern("yyyy/MM/dd"))
        #expect(layout.day(from: "2024-01-05") == nil)
        #expect(layout.problem("2024-01-05") == "'2024-01-05' does not fit the profile's dateFormat yyyy/MM/dd")
        #expect(layout.day(from: "2024/02/30") == nil)
        #expect(
            layout.problem("2024/02/30").hasPrefix("'2024/02/30' is not a real day"), "\(layout.problem("2024/02/30"))")
    }

    // MARK: - Ids made from a row's content

    @Test("a made id is the version 5 UUID Python's uuid module makes of the row's content and its occurrence")
    func derivedIDMatchesPython() throws {
        let content = DerivedID.content(date: try day(2026, 11, 3), name: "コーヒー", price: 178)
        #expect(content == Array("20261103\u{1F}コーヒー\u{1F}178".utf8))
        #expect(DerivedID.make(content: content, occurrence: 1) == PythonIDs.coffee1)
        #expect(DerivedID.make(content: content, occurrence: 2) == PythonIDs.coffee2)
        #expect(DerivedID.make(content: content, occurrence: 3) == PythonIDs.coffee3)
        // Names whose hashed bytes end just before, at and after a block boundary (55, 56, 63, 64, 119, 120 and 130
        // bytes with the namespace), against Python's uuid5.
        for (length, id) in PythonIDs.byLength {
            let long = DerivedID.content(
                date: try day(2026, 11, 3), name: String(repeating: "a", count: length - 31), price: 178)
            #expect(DerivedID.make(content: long, occurrence: 1) == id, "\(length) bytes")
        }
        // The namespace is the documented UUID, byte for byte.
        let namespace = try #require(UUID(uuidString: "0C89BF94-E60E-5D6B-A116-C042F5034BDA"))
        #expect(withUnsafeBytes(of: namespace.uuid) { Array($0) } == DerivedID.namespace)
    }

    @Test("SHA-1 gives the FIPS 180 test vectors")
    func sha1Vectors() {
        #expect(hexDigits(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hexDigits(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        // 56 bytes: the padding needs a second block.
        #expect(
            hexDigits(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(
            hexDigits(SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
                == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test(
        "identical rows of one file get the ids of their occurrences; a second file repeats the first's and goes on past them"
    )
    func occurrencesAcrossFiles() {
        var validator = ItemValidator(catalogue: .wide, derivesIDs: true)
        let rows = [
            coffeeRow("a.csv", line: 2), coffeeRow("a.csv", line: 3),
            coffeeRow("b.csv", line: 2), coffeeRow("b.csv", line: 3), coffeeRow("b.csv", line: 4),
            coffeeRow("b.csv", line: 5, id: .text("MY-OWN-ID")),
        ]
        var verdicts: [String] = []
        for row in rows { verdicts.append(verdict(validator.validate(row))) }
        #expect(
            verdicts == [
                // Two coffees in the first statement: different ids, the first and the second of their kind.
                "valid \(PythonIDs.coffee1) (made)",
                "valid \(PythonIDs.coffee2) (made)",
                // The second statement overlaps: its first two coffees are those of a.csv, its third is new.
                "repeated \(PythonIDs.coffee1) of a.csv",
                "repeated \(PythonIDs.coffee2) of a.csv",
                "valid \(PythonIDs.coffee3) (made)",
                // A row that gives its id keeps it.
                "valid MY-OWN-ID",
            ])
        #expect(validator.problems.isEmpty, "\(validator.problems)")
    }

    @Test("without derived ids a row without one gets a random id, a new one each run")
    func randomIDsWithoutDerivation() throws {
        var first = ItemValidator(catalogue: .wide)
        var second = ItemValidator(catalogue: .wide)
        guard case .valid(let one, madeID: false) = first.validate(coffeeRow("a.csv", line: 2)),
            case .valid(let two, madeID: false) = second.validate(coffeeRow("a.csv", line: 2))
        else {
            Issue.record("the rows should be valid, with ids not made from their content")
            return
        }
        #expect(one.id != two.id)
        for id in [one.id, two.id] {
            #expect(UUID(uuidString: id) != nil && id == id.uppercased(), "\(id)")
            #expect(![PythonIDs.coffee1, PythonIDs.coffee2].contains(id), "\(id) is the made id")
        }
    }

    // MARK: - Profiles that extend others

    @Test(
        "a profile extending moneyforward keeps its keys, overrides columns field by field, and puts its own rules first"
    )
    func extendsBuiltin() throws {
        let profile = try parseProfile(
            """
            {
              "extends": "moneyforward",
              "description": "MoneyForward with rent",
              "columns": {"name": "メモ"},
              "skip": [{"column": "内容", "contains": "ATM", "reason": "cash from an ATM"}],
              "rules": [{"column": "大項目", "equals": "住宅", "category": 1, "sub": 2}],
              "defaultCategory": 2
            }
            """)
        #expect(profile.name == "mine")
        #expect(profile.description == "MoneyForward with rent")
        #expect(profile.columns == [.id: ["ID"], .date: ["日付"], .name: ["メモ"], .price: ["金額（円）", "金額(円)"]])
        #expect(
            profile.invertSign && profile.truncateNames && profile.excludesUnmatched, "the base's switches are kept")
        #expect(profile.defaultCategory == 2)
        #expect(profile.rules.count == 8, "the child's rule and the base's seven")
        #expect(profile.rules.first?.match == ColumnMatch(column: "大項目", kind: .equals, values: ["住宅"]))
        #expect(profile.rules.first?.category == 1 && profile.rules.first?.sub == 2)
        #expect(profile.rules.dropFirst().first?.match == ColumnMatch(column: "中項目", kind: .equals, values: ["カフェ"]))
        #expect(
            profile.skip.map(\.reason) == [
                "a transfer between your own accounts (振替)", "cash from an ATM",
                "not counted (計算対象 is 0)", "income (収入)",
            ], "transfers first, then the child's skip")

        // A rent row, which the base leaves out, is imported; the name comes from メモ.
        let export = """
            "計算対象","日付","内容","金額（円）","保有金融機関","大項目","中項目","メモ","振替","ID"
            "1","2024/01/27","家賃","-80,000","銀行","住宅","家賃","一月の家賃","0","MF11"
            "1","2024/01/22","スターバックス","-450","楽天カード","食費","カフェ","朝のコーヒー","0","MF01"
            "1","2024/01/23","セブン銀行ATM","-10,000","現金","現金・カード","ATM引き出し","ATM","0","MF02"
            "1","2024/01/24","水道局","-3,000","銀行","水道・光熱費","水道代","水道","0","MF03"

            """
        let read = profile.readCSV(export, name: "mf.csv")
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.excluded.map(\.location.line) == [4], "only the ATM row is left out: \(read.excluded)")
        let checked = read.drafts.validatedAll(catalogue: .wide)
        #expect(checked.problems.isEmpty, "\(checked.problems)")
        #expect(checked.items.map(\.id) == ["MF11", "MF01", "MF03"])
        #expect(checked.items.map(\.name) == ["一月の家賃", "朝のコーヒー", "水道"])
        #expect(checked.items.map(\.price) == [80000, 450, 3000])
        #expect(
            categoryPairs(checked.items) == ["1/2", "0/1", "2/null"], "the water bill gets the child's defaultCategory")
    }

    @Test("extending a profile of an unknown name is a problem at the extends line naming the built-in profiles")
    func extendsUnknown() throws {
        let problem = try #require(throws: ValidationProblem.self) {
            try parseProfile("{\n  \"defaultCategory\": 0,\n  \"extends\": \"moneyfoward\"\n}")
        }
        #expect(problem.location == SourceLocation(file: "mine.json", line: 3))
        #expect(problem.field == "extends")
        #expect(
            problem.message.contains(
                "'moneyfoward' is neither a built-in profile (moneyforward, mufg, paypay, rakuten-card, smbc, vpass, yucho) nor a profile file"
            ),
            "\(problem.message)")
    }

    @Test("extends finds its base through the given lookup, and the child's keys win")
    func extendsFileBase() throws {
        let base = try parseProfile(
            #"""
            {"columns": {"date": "日付", "name": "摘要", "price": "金額"}, "skipRows": 2, "encoding": "sjis",
             "rules": [{"column": "摘要", "contains": "パン", "category": 0, "sub": 0}], "defaultCategory": 1, "onInvalid": "skip"}
            """#)
        var asked: [String] = []
        let child = try ImportProfile.parse(
            Array(
                #"""
                {
                  "extends": "base.json",
                  "columns": {"price": "お引出し"},
                  "rules": [{"column": "摘要", "contains": "コーヒー", "category": 0, "sub": 1}],
                  "onInvalid": "warn"
                }
                """#.utf8), name: "child.json", file: "child.json"
        ) { name in
            asked.append(name)
            return name == "base.json" ? base : nil
        }
        #expect(asked == ["base.json"])
        #expect(child.name == "child.json")
        #expect(child.columns == [.date: ["日付"], .name: ["摘要"], .price: ["お引出し"]])
        #expect(child.skipRows == 2 && child.encoding == .shiftJIS && child.defaultCategory == 1)
        #expect(child.rules.map(\.match.values) == [["コーヒー"], ["パン"]])
        #expect(child.onInvalid == .warn)
    }

    // MARK: - Rules: regex, unmatched rows, renaming, NFKC

    @Test("regex rules match part of the cell, case ignored, and give their category")
    func regexRules() throws {
        let profile = try statementProfile(
            #"""
            "rules": [
              {"column": "摘要", "regex": "^STARBUCKS\\s", "category": 0, "sub": 1},
              {"column": "摘要", "regex": ["^uber", "タクシー$"], "category": 1, "sub": 1}
            ],
            "defaultCategory": 2
            """#)
        #expect(profile.rules.map(\.match.kind) == [.regex, .regex])
        #expect(profile.rules.map(\.match.values) == [["^STARBUCKS\\s"], ["^uber", "タクシー$"]])
        let text =
            "日付,摘要,金額\n20261103,Starbucks Shibuya,550\n20261104,UBER TRIP,1800\n20261105,東京タクシー,2400\n"
            + "20261106,My Starbucks Card,3000\n20261107,タクシー会社の弁当,700\n"
        let read = profile.readCSV(text, name: "in.csv")
        #expect(read.problems.isEmpty, "\(read.problems)")
        let checked = read.drafts.validatedAll(catalogue: .wide)
        #expect(checked.problems.isEmpty, "\(checked.problems)")
        #expect(categoryPairs(checked.items) == ["0/1", "1/1", "1/1", "2/null", "2/null"])
    }

    @Test("a regex that does not compile is a problem at its line")
    func badRegex() throws {
        let problem = try #require(throws: ValidationProblem.self) {
            try statementProfile(
                "\n  \"defaultCategory\": 0,\n  \"rules\": [\n    {\"column\": \"摘要\", \"regex\": \"(unclosed\", \"category\": 0}\n  ]\n"
            )
        }
        #expect(problem.location == SourceLocation(file: "mine.json", line: 4))
        #expect(problem.field == "rules[0].regex")
        #expect(problem.message.contains("'(unclosed' is not a regular expression"), "\(problem.message)")
    }

    @Test(
        "\"unmatched\": \"exclude\" leaves a row no rule matches out, with the reason, where it would otherwise be invalid"
    )
    func unmatchedExclude() throws {
        let rules = #""rules": [{"column": "摘要", "contains": "コーヒー", "category": 0, "sub": 1}]"#
        let text = "日付,摘要,金額\n20261103,コーヒー,178\n20261104,家賃,80000\n"

        let excluding = try statementProfile(rules + #", "unmatched": "exclude""#)
        #expect(excluding.excludesUnmatched)
        let left = excluding.readCSV(text, name: "in.csv")
        #expect(left.problems.isEmpty, "\(left.problems)")
        #expect(left.drafts.map(\.location.line) == [2])
        #expect(left.excluded.map(\.location) == [SourceLocation(file: "in.csv", line: 3)])
        #expect(
            left.excluded.first?.reason.contains("no rule of the mine profile matches (摘要 '家賃')") == true,
            "\(String(describing: left.excluded.first?.reason))")

        for members in [rules, rules + #", "unmatched": "invalid""#] {
            let profile = try statementProfile(members)
            #expect(!profile.excludesUnmatched)
            let read = profile.readCSV(text, name: "in.csv")
            #expect(read.excluded.isEmpty)
            #expect(read.problems.map(\.location.line) == [3])
            #expect(read.problems.map(\.field) == ["category"])
        }

        let problem = try #require(throws: ValidationProblem.self) {
            try statementProfile(rules + #", "unmatched": "skip""#)
        }
        #expect(problem.field == "unmatched")
        #expect(problem.message.contains("use \"invalid\" or \"exclude\""), "\(problem.message)")
    }

    @Test("\"onInvalid\" is read as what a run does with invalid rows; it is none when not given")
    func onInvalid() throws {
        #expect(try statementProfile(#""defaultCategory": 0, "onInvalid": "warn""#).onInvalid == .warn)
        #expect(try statementProfile(#""defaultCategory": 0, "onInvalid": "skip""#).onInvalid == .skip)
        #expect(try statementProfile(#""defaultCategory": 0, "onInvalid": "stop""#).onInvalid == .stop)
        #expect(try statementProfile(#""defaultCategory": 0"#).onInvalid == nil)
        let problem = try #require(throws: ValidationProblem.self) {
            try statementProfile(#""defaultCategory": 0, "onInvalid": "ignore""#)
        }
        #expect(problem.field == "onInvalid")
        #expect(
            problem.message.contains("'ignore' is not a choice; use \"stop\", \"skip\", \"warn\""), "\(problem.message)"
        )
    }

    @Test("a rule with a name renames the row, and its made id still comes from the name as read")
    func renamingRules() throws {
        let profile = try statementProfile(
            #"""
            "rules": [
              {"column": "摘要", "contains": "ドトール", "category": 0, "sub": 1, "name": "コーヒー"},
              {"column": "摘要", "equals": "ｷｭｳﾖ", "name": "給与"}
            ],
            "defaultCategory": 1
            """#)
        #expect(profile.rules.map(\.name) == ["コーヒー", "給与"])
        #expect(profile.rules.map(\.category) == [0, nil])
        let read = profile.readCSV(
            "日付,摘要,金額\n20261103,ﾄﾞﾄｰﾙ 新宿店,178\n20261104,ｷｭｳﾖ,5000\n20261105,ﾗﾝﾁ,800\n", name: "in.csv")
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.drafts.map(\.name) == [.text("コーヒー"), .text("給与"), .text("ﾗﾝﾁ")])
        #expect(read.drafts.map(\.readName) == ["ﾄﾞﾄｰﾙ 新宿店", "ｷｭｳﾖ", nil])

        var validator = ItemValidator(catalogue: .wide, derivesIDs: true)
        let verdicts = read.drafts.map { verdict(validator.validate($0)) }
        #expect(verdicts.first == "valid \(PythonIDs.doutor) (made)", "the id of 'ﾄﾞﾄｰﾙ 新宿店', not of 'コーヒー'")
        #expect(validator.problems.isEmpty, "\(validator.problems)")
        let items = read.drafts.validatedAll(catalogue: .wide).items
        #expect(items.map(\.name) == ["コーヒー", "給与", "ﾗﾝﾁ"])
        #expect(
            categoryPairs(items) == ["0/1", "1/null", "1/null"],
            "a rule that only renames leaves the category to the default")
    }

    @Test(
        "rules compare after NFKC and case folding: half-width kana match full-width, full-width letters match lowercase"
    )
    func nfkcMatching() throws {
        #expect(ColumnMatch(column: "摘要", kind: .contains, values: ["セブン"]).matches("ｾﾌﾞﾝｲﾚﾌﾞﾝ"))
        #expect(ColumnMatch(column: "摘要", kind: .equals, values: ["amazon"]).matches("ＡＭＡＺＯＮ"))
        #expect(ColumnMatch(column: "摘要", kind: .equals, values: ["ＡＭＡＺＯＮ"]).matches(" amazon "))
        #expect(!ColumnMatch(column: "摘要", kind: .equals, values: ["amazon"]).matches("ＡＭＡＺＯＮ マーケットプレイス"))
        #expect(!ColumnMatch(column: "摘要", kind: .contains, values: ["セブン"]).matches("ﾛｰｿﾝ"))

        let profile = try statementProfile(
            #"""
            "rules": [
              {"column": "摘要", "contains": "セブン", "category": 1, "sub": 2},
              {"column": "摘要", "equals": "amazon", "category": 1, "sub": 0}
            ],
            "defaultCategory": 0
            """#)
        let read = profile.readCSV(
            "日付,摘要,金額\n20261104,ｾﾌﾞﾝｲﾚﾌﾞﾝ,598\n20261105,ＡＭＡＺＯＮ,1980\n20261106,ﾗﾝﾁ,800\n", name: "in.csv")
        let checked = read.drafts.validatedAll(catalogue: .wide)
        #expect(read.problems.isEmpty && checked.problems.isEmpty, "\(read.problems) \(checked.problems)")
        #expect(categoryPairs(checked.items) == ["1/2", "1/0", "0/null"])
        #expect(checked.items.map(\.name) == ["ｾﾌﾞﾝｲﾚﾌﾞﾝ", "ＡＭＡＺＯＮ", "ﾗﾝﾁ"], "matching does not change the names")
    }

    @Test("a regex written as the bank writes the cell, in half-width kana, matches it as a contains rule would")
    func nfkcRegex() {
        // Both sides are said to be compared after NFKC: the cell ｺｰﾋｰ becomes コーヒー, so the pattern must too.
        #expect(ColumnMatch(column: "摘要", kind: .regex, values: ["^コーヒー"]).matches("ｺｰﾋｰ ﾄﾞﾄｰﾙ"))
        #expect(ColumnMatch(column: "摘要", kind: .contains, values: ["ｺｰﾋｰ"]).matches("ｺｰﾋｰ ﾄﾞﾄｰﾙ"))
        #expect(ColumnMatch(column: "摘要", kind: .regex, values: ["^ｺｰﾋｰ"]).matches("ｺｰﾋｰ ﾄﾞﾄｰﾙ"))
        #expect(ColumnMatch(column: "摘要", kind: .regex, values: ["ﾄﾞﾄｰﾙ$"]).matches("ｺｰﾋｰ ﾄﾞﾄｰﾙ"))
    }

    // MARK: - Profiles written back as JSON

    /// A profile file using every key a profile may have.
    static let everyKey = #"""
        {
          "description": "My \"bank\" \\ export",
          "encoding": "cp932",
          "skipRows": 3,
          "columns": {"id": "取引番号", "date": ["日付", "取引日"], "name": "摘要", "price": "お引出し",
                      "category": "分類", "categorySub": "小分類"},
          "dateFormat": "yy/M/d",
          "invertSign": true,
          "truncateNames": true,
          "skip": [
            {"column": "お引出し", "equals": "", "reason": "money in"},
            {"column": "摘要", "contains": ["振込", "振替"]}
          ],
          "rules": [
            {"column": "摘要", "regex": ["^\\d+ ｺｰﾋｰ", "cafe$"], "category": 0, "sub": 1, "name": "コーヒー"},
            {"column": "摘要", "equals": "ｾﾌﾞﾝｲﾚﾌﾞﾝ", "category": 1, "sub": null},
            {"column": "摘要", "contains": "ﾄﾞﾄｰﾙ", "name": "ドトール"}
          ],
          "defaultCategory": 2,
          "defaultSub": 3,
          "unmatched": "exclude",
          "onInvalid": "warn"
        }
        """#

    @Test("a profile's JSON reads back as the same profile: the built-in moneyforward one and one using every key")
    func writerRoundTrip() throws {
        let builtin = try #require(try ImportProfile.builtin("moneyforward"))
        let builtinAgain = try ImportProfile.parse(Array(builtin.json.utf8), name: "moneyforward", file: "profile.json")
        #expect(builtinAgain == builtin)
        #expect(
            builtinAgain.rules == builtin.rules && builtinAgain.skip == builtin.skip
                && builtinAgain.columns == builtin.columns)

        let every = try parseProfile(Self.everyKey)
        // Every key was read, so the round trip below is not of defaults.
        #expect(every.encoding == .shiftJIS && every.skipRows == 3 && every.dateFormat == DatePattern("yy/M/d"))
        #expect(every.invertSign && every.truncateNames && every.excludesUnmatched)
        #expect(every.defaultCategory == 2 && every.defaultSub == 3 && every.onInvalid == .warn)
        #expect(every.skip.count == 2 && every.rules.count == 3 && every.columns.count == 6)
        #expect(every.rules.map(\.name) == ["コーヒー", nil, "ドトール"])
        let again = try parseProfile(every.json)
        #expect(again == every, "\(every.json)")
        #expect(again.description == "My \"bank\" \\ export")
        #expect(again.rules == every.rules)
        #expect(again.skip == every.skip)
        #expect(again.columns == every.columns)
        #expect(again.json == every.json, "writing is stable")
    }

    // MARK: - Profiles guessed from a file

    static let statement = SampleStatements.bank

    @Test("a guess from a Shift_JIS bank statement finds its encoding, preamble, columns and deposits")
    func guessBankStatement() throws {
        let bytes = try csvBytesByPython(Self.statement, encoding: "cp932")
        #expect(String(data: Data(bytes), encoding: .utf8) == nil, "a Shift_JIS file, not one that happens to be UTF-8")
        let guess = try ProfileGuess.guess(bytes, name: "statement.csv", defaultCategory: 3)
        let profile = guess.profile
        #expect(profile.encoding == .shiftJIS)
        #expect(profile.skipRows == 2)
        #expect(profile.columns == [.date: ["日付"], .name: ["摘要"], .price: ["お支払金額"]])
        #expect(profile.dateFormat == nil, "2026/11/3 0:00 is read without one")
        #expect(!profile.invertSign)
        #expect(profile.skip.map(\.match) == [ColumnMatch(column: "お支払金額", kind: .equals, values: [""])])
        #expect(profile.defaultCategory == 3)
        #expect(guess.notes.contains { $0.hasPrefix("skipRows: 2") }, "\(guess.notes)")
        #expect(guess.notes.contains { $0.hasPrefix("encoding:") }, "\(guess.notes)")

        // What the guess makes of the file: the withdrawals, as positive prices; the deposit left out.
        let read = InputReader.read(bytes, name: "statement.csv", format: .csv, profile: profile)
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.excluded.map(\.location.line) == [5])
        let checked = read.drafts.validatedAll(catalogue: .wide)
        #expect(checked.problems.isEmpty, "\(checked.problems)")
        #expect(checked.items.map(\.name) == ["ｺｰﾋｰ ﾄﾞﾄｰﾙ", "ｾﾌﾞﾝｲﾚﾌﾞﾝ", "ｺｰﾋｰ ﾄﾞﾄｰﾙ", "ﾗﾝﾁ ｻｸﾗ"])
        #expect(checked.items.map(\.price) == [178, 598, 178, 1200])
        #expect(checked.items.map(\.date.compact) == ["20261103", "20261104", "20261105", "20261106"])
        #expect(checked.items.allSatisfy { $0.category == 3 })
    }

    @Test("a guess from an English export finds a month-first dateFormat and that spending is negative")
    func guessEnglishExport() throws {
        let rows = [
            ["Date", "Description", "Amount"],
            ["11/03/2026", "STARBUCKS SHIBUYA", "-550"],
            ["11/15/2026", "AMAZON.CO.JP", "-1,980"],
            ["11/20/2026", "REFUND AMAZON.CO.JP", "300"],
            ["11/28/2026", "UBER TRIP", "-2,400"],
        ]
        let bytes = try csvBytesByPython(rows, encoding: "utf-8")
        let profile = try ProfileGuess.guess(bytes, name: "activity.csv", defaultCategory: 0).profile
        #expect(profile.columns == [.date: ["Date"], .name: ["Description"], .price: ["Amount"]])
        #expect(profile.dateFormat == DatePattern("MM/dd/yyyy"), "\(String(describing: profile.dateFormat))")
        #expect(profile.invertSign)
        #expect(profile.encoding == nil && profile.skipRows == 0 && profile.skip.isEmpty)

        let read = InputReader.read(bytes, name: "activity.csv", format: .csv, profile: profile)
        let checked = read.drafts.validatedAll(catalogue: .wide)
        #expect(read.problems.isEmpty && checked.problems.isEmpty, "\(read.problems) \(checked.problems)")
        #expect(checked.items.map(\.date.compact) == ["20261103", "20261115", "20261120", "20261128"])
        #expect(checked.items.map(\.price) == [550, 1980, -300, 2400])
    }

    @Test("a file with no column a guess recognises is a problem naming the first row's cells")
    func guessNothing() throws {
        let bytes = try csvBytesByPython(
            [["Item", "Qty", "Note"], ["pen", "2", "blue"], ["ink", "1", ""]], encoding: "utf-8")
        let problem = try #require(throws: ValidationProblem.self) {
            try ProfileGuess.guess(bytes, name: "stock.csv", defaultCategory: 0)
        }
        #expect(problem.location == SourceLocation(file: "stock.csv", line: 1))
        #expect(problem.message.contains("(the first has 'Item', 'Qty', 'Note')"), "\(problem.message)")
        #expect(problem.message.contains("a date, a name and a price column"), "\(problem.message)")
    }
}
