import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import Testing

/// A profile file's text parsed as `mine` from `mine.json`.
func parseProfile(_ json: String) throws -> ImportProfile {
    try ImportProfile.parse(Array(json.utf8), name: "mine", file: "mine.json")
}

/// The problem a profile file has, failing the test when it parses.
private func profileProblem(_ json: String) throws -> ValidationProblem {
    do {
        let profile = try parseProfile(json)
        Issue.record("parsed, but should have been refused: \(profile)")
        throw CancellationError()
    } catch let problem as ValidationProblem {
        return problem
    }
}

/// The one `columns` line most refused profiles share, so the problem under test is the only one.
private let columns = #""columns": {"date": "日付", "name": "内容", "price": "金額"}"#

@Suite("Import profile files")
struct ImportProfileTests {
    @Test("a profile using every key reads each of them")
    func everyKey() throws {
        let profile = try parseProfile(
            """
            {
              "description": "My bank's export",
              "encoding": "sjis",
              "skipRows": 2,
              "columns": {"id": "取引番号", "date": ["日付", "取引日"], "name": "摘要", "price": "金額",
                          "category": "分類", "categorySub": "小分類"},
              "dateFormat": "yyyy年M月d日",
              "invertSign": true,
              "truncateNames": true,
              "skip": [
                {"column": "摘要", "contains": ["振込", "振替"], "reason": "a transfer"},
                {"column": "区分", "equals": "入金"}
              ],
              "rules": [
                {"column": "摘要", "contains": "コーヒー", "category": 0, "sub": 1},
                {"column": "摘要", "equals": ["バス", "電車"], "category": 1, "sub": null},
                {"column": "区分", "equals": "雑貨", "category": 1}
              ],
              "defaultCategory": 1,
              "defaultSub": 2
            }
            """)
        #expect(profile.name == "mine")
        #expect(profile.description == "My bank's export")
        #expect(profile.encoding == .shiftJIS)
        #expect(profile.skipRows == 2)
        #expect(
            profile.columns == [
                .id: ["取引番号"], .date: ["日付", "取引日"], .name: ["摘要"], .price: ["金額"],
                .category: ["分類"], .categorySub: ["小分類"],
            ])
        #expect(profile.dateFormat == DatePattern("yyyy年M月d日"))
        #expect(profile.invertSign)
        #expect(profile.truncateNames)
        #expect(!profile.warnsOtherColumns)
        #expect(
            profile.skip.map(\.match) == [
                ColumnMatch(column: "摘要", kind: .contains, values: ["振込", "振替"]),
                ColumnMatch(column: "区分", kind: .equals, values: ["入金"]),
            ])
        #expect(profile.skip.map(\.reason) == ["a transfer", "区分 equals 入金"])
        #expect(
            profile.rules.map(\.match) == [
                ColumnMatch(column: "摘要", kind: .contains, values: ["コーヒー"]),
                ColumnMatch(column: "摘要", kind: .equals, values: ["バス", "電車"]),
                ColumnMatch(column: "区分", kind: .equals, values: ["雑貨"]),
            ])
        #expect(profile.rules.map(\.category) == [0, 1, 1])
        #expect(profile.rules.map(\.sub) == [1, nil, nil])
        #expect(profile.defaultCategory == 1)
        #expect(profile.defaultSub == 2)
    }

    @Test("a minimal profile leaves everything else at its default")
    func minimal() throws {
        let profile = try parseProfile(#"{"columns": {"date": "d", "name": "n", "price": "p", "category": "c"}}"#)
        #expect(profile.description == "")
        #expect(profile.encoding == nil)
        #expect(profile.skipRows == 0)
        #expect(profile.dateFormat == nil)
        #expect(!profile.invertSign && !profile.truncateNames)
        #expect(profile.skip.isEmpty && profile.rules.isEmpty)
        #expect(profile.defaultCategory == nil && profile.defaultSub == nil)
    }

    @Test(
        "a mistake in a profile file is reported at its file and line, naming the key, with what is expected",
        arguments: [
            ("{\n  \"description\": \"x\",\n  \(columns),\n}", 4, String?.none, "invalid JSON"),
            ("[]", 1, "profile", "must be an object"),
            ("{\n  \(columns),\n  \"colums\": {}\n}", 3, "profile", "unknown key 'colums'"),
            (
                "{\n  \(columns),\n  \"rules\": [\n    {\"column\": \"a\", \"equals\": \"b\", \"category\": 0, \"subb\": 1}\n  ]\n}",
                4, "rules[0]", "unknown key 'subb'"
            ),
            (
                "{\n  \(columns),\n  \"rules\": [\n    {\"column\": \"a\", \"equals\": \"b\", \"category\": 0},\n    {\"column\": \"a\", \"equals\": \"c\"}\n  ]\n}",
                5, "rules[1]", "needs \"category\""
            ),
            (
                "{\n  \(columns),\n  \"rules\": [\n    {\"column\": \"a\", \"equals\": \"b\", \"contains\": \"c\", \"category\": 0}\n  ]\n}",
                4, "rules[0]", "exactly one of \"equals\", \"contains\" or \"regex\""
            ),
            (
                "{\n  \(columns),\n  \"rules\": [\n    {\"column\": \"a\", \"category\": 0}\n  ]\n}",
                4, "rules[0]", "exactly one of \"equals\", \"contains\" or \"regex\""
            ),
            (
                "{\n  \(columns),\n  \"rules\": [\n    {\"equals\": \"b\", \"category\": 0}\n  ]\n}", 4, "rules[0]",
                "needs \"column\""
            ),
            (
                "{\n  \(columns),\n  \"rules\": [\n    {\"column\": \"a\", \"equals\": \"b\", \"category\": \"0\"}\n  ]\n}",
                4, "rules[0].category", "whole number"
            ),
            (
                "{\n  \(columns),\n  \"defaultCategory\": 0,\n  \"skip\": [\n    {\"column\": \"a\", \"reason\": \"r\"}\n  ]\n}",
                5, "skip[0]", "exactly one of"
            ),
            (
                "{\n  \(columns),\n  \"defaultCategory\": 0,\n  \"dateFormat\": \"yyyy/MM\"\n}", 4, "dateFormat",
                "'yyyy/MM' is not a date layout"
            ),
            (
                "{\n  \(columns),\n  \"defaultCategory\": 0,\n  \"encoding\": \"euc-jp\"\n}", 4, "encoding",
                "'euc-jp' is not an encoding"
            ),
            ("{\n  \(columns),\n  \"defaultCategory\": 0,\n  \"skipRows\": -1\n}", 4, "skipRows", "whole number"),
            (
                "{\n  \(columns),\n  \"defaultCategory\": 0,\n  \"invertSign\": \"yes\"\n}", 4, "invertSign",
                "true or false"
            ),
            (
                "{\n  \"columns\": {\"date\": \"d\", \"name\": \"n\", \"price\": \"p\", \"memo\": \"m\"},\n  \"defaultCategory\": 0\n}",
                2, "columns", "unknown key 'memo'"
            ),
            (
                "{\n  \"columns\": {\"date\": \"d\", \"name\": \"n\",\n    \"price\": \"out\", \"price\": \"in\"},\n  \"defaultCategory\": 0\n}",
                3, "columns", "'price' is given twice"
            ),
            (
                "{\n  \(columns),\n  \"defaultCategory\": 0,\n  \"defaultCategory\": 1\n}", 4, "profile",
                "'defaultCategory' is given twice"
            ),
            (
                "{\n  \"columns\": {\"name\": \"n\", \"price\": \"p\"},\n  \"defaultCategory\": 0\n}", 1, "columns",
                "has no \"date\""
            ),
            (
                "{\n  \"columns\": {\"date\": \"d\", \"price\": \"p\"},\n  \"defaultCategory\": 0\n}", 1, "columns",
                "has no \"name\""
            ),
            (
                "{\n  \"columns\": {\"date\": \"d\", \"name\": \"n\"},\n  \"defaultCategory\": 0\n}", 1, "columns",
                "has no \"price\""
            ),
            ("{\n  \(columns)\n}", 1, "columns", "no way to find a category"),
            ("{\n  \(columns),\n  \"rules\": [],\n  \"defaultSub\": 1\n}", 1, "columns", "no way to find a category"),
            (
                "{\n  \"columns\": {\"date\": \"d\", \"name\": \"n\", \"price\": \"p\", \"category\": \"c\"},\n  \"defaultSub\": 1\n}",
                1, "defaultSub", "needs \"defaultCategory\""
            ),
        ])
    func refused(json: String, line: Int, field: String?, message: String) throws {
        let problem = try profileProblem(json)
        #expect(problem.location == SourceLocation(file: "mine.json", line: line))
        #expect(problem.field == field)
        #expect(problem.message.contains(message), "\(problem.message)")
    }

    @Test("the built-in moneyforward profile parses from its JSON")
    func builtinMoneyForward() throws {
        let profile = try #require(try ImportProfile.builtin("moneyforward"))
        #expect(profile.name == "moneyforward")
        #expect(profile.columns[.id] == ["ID"])
        #expect(profile.columns[.price] == ["金額（円）", "金額(円)"])
        #expect(profile.invertSign)
        #expect(profile.truncateNames)
        #expect(profile.skip.map(\.match.column) == ["振替", "計算対象", "大項目"], "its transfers first")
        #expect(profile.skip.map(\.isTransfer) == [true, false, false])
        #expect(profile.rules.count == 7)
        #expect(profile.defaultCategory == nil)
    }

    @Test("every built-in profile parses, and an unknown name is none")
    func builtins() throws {
        for name in ImportProfile.builtinSources.keys {
            #expect(try ImportProfile.builtin(name)?.name == name)
        }
        #expect(try ImportProfile.builtin("nope") == nil)
        #expect(try ImportProfile.builtin("MoneyForward") == nil)
    }

    @Test(
        "a column test compares the trimmed cell: equals one of the values, or contains one",
        arguments: [
            (ColumnMatch.Kind.equals, " カフェ ", true), (.equals, "カフェ・喫茶", false), (.equals, "食料品", true),
            (.contains, "カフェ・喫茶", true), (.contains, "食料品店", true), (.contains, "外食", false), (.equals, "", false),
        ])
    func columnMatch(kind: ColumnMatch.Kind, cell: String, matches: Bool) {
        #expect(ColumnMatch(column: "中項目", kind: kind, values: ["カフェ", "食料品"]).matches(cell) == matches)
    }
}
