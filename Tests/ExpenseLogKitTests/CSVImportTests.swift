import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import ExpenseLogUseCases
import Testing

/// CSV text read with a profile as `in.csv`.
private func importCSV(_ text: String, _ profile: ImportProfile = .native) -> ReadOutcome {
    profile.readCSV(text, name: "in.csv")
}

/// The items of CSV text that must read and validate without a problem.
private func importedItems(_ text: String, _ profile: ImportProfile = .native) throws -> [Item] {
    let read = importCSV(text, profile)
    try #require(read.problems.isEmpty, "\(read.problems)")
    let checked = read.drafts.validatedAll(catalogue: .wide)
    try #require(checked.problems.isEmpty, "\(checked.problems)")
    return checked.items
}

/// A bank's layout (日付,摘要,金額 and a 区分 column), with more keys given as JSON members.
private func bankProfile(_ members: String = #""defaultCategory": 0"#) throws -> ImportProfile {
    try parseProfile(#"{"columns": {"date": ["日付", "取引日"], "name": "摘要", "price": "金額"}, "# + members + "}")
}

/// Category and sub of each item.
private func categories(_ items: [Item]) -> [String] {
    items.map { "\($0.category)/\($0.categorySub.map(String.init) ?? "null")" }
}

@Suite("Reading CSV with the native layout and with import profiles")
struct CSVImportTests {
    @Test("the native layout reads English headers in any order and in any case")
    func nativeEnglish() throws {
        let items = try importedItems("Price,DATE,name,Category,ID,categorysub\n178,20240122,コーヒー,0,X1,1\n")
        #expect(
            items == [Item(id: "X1", date: try day(2024, 1, 22), name: "コーヒー", price: 178, category: 0, categorySub: 1)]
        )
    }

    @Test("the native layout reads the sheet's Japanese headers in any order")
    func nativeJapanese() throws {
        let items = try importedItems("サブ項目,品名,金額,日付,項目,ID\n,お弁当,680,2024/1/23,0,X2\n2,飴,-98,2024-01-24,0,X3\n")
        #expect(
            items == [
                Item(id: "X2", date: try day(2024, 1, 23), name: "お弁当", price: 680, category: 0, categorySub: nil),
                Item(id: "X3", date: try day(2024, 1, 24), name: "飴", price: -98, category: 0, categorySub: 2),
            ])
    }

    @Test(
        "the native layout ignores a column it does not know with a warning naming it; a profile ignores other columns quietly"
    )
    func unknownColumn() throws {
        let native = importCSV("日付,品名,金額,項目,メモ\n20240122,コーヒー,178,0,朝\n")
        #expect(native.drafts.count == 1 && native.problems.isEmpty)
        #expect(native.warnings.map(\.location) == [SourceLocation(file: "in.csv", line: 1)])
        #expect(native.warnings.first?.message.contains("ignored the column 'メモ'") == true)
        let items = try importedItems("日付,メモ,摘要,金額\n20240122,朝,コーヒー,178\n", try bankProfile())
        #expect(items.map(\.name) == ["コーヒー"])
        #expect(items.map(\.price) == [178])
    }

    @Test("a price quoted because of its comma reads as one amount")
    func quotedPrice() throws {
        #expect(try importedItems("date,name,price,category\n20240122,ランチ,\"1,500\",0\n").map(\.price) == [1500])
    }

    @Test(
        "a price written with an unquoted comma is mended when the extra fields are three-digit groups",
        arguments: [
            ("1,500", 1500), ("1,500,000", 1_500_000), ("1,500円", 1500), ("-1,500", -1500), ("¥1,500", 1500),
            ("1,234,567円", 1_234_567),
        ])
    func mendedPrice(price: String, value: Int) throws {
        let items = try importedItems("date,name,price,category,categorySub\n20240122,ランチ,\(price),1,2\n")
        #expect(items.map(\.price) == [value])
        #expect(categories(items) == ["1/2"])
    }

    @Test("an unquoted comma in the last column, the price, is mended too")
    func mendedLastColumn() throws {
        let items = try importedItems("date,name,category,price\n20240122,家電,1,12,800\n")
        #expect(items.map(\.price) == [12800])
        #expect(items.map(\.category) == [1])
    }

    @Test(
        "an extra comma that does not split a price is not mended: the record is reported",
        arguments: [
            "20240122,コーヒー,大,178,0",  // a comma in the name
            "20240122,コーヒー,1,50,0",  // not a three-digit group
            "20240122,コーヒー,1,5000,0",
            "20240122,コーヒー,abc,500,0",  // no number before the group
            "20240122,コーヒー,178,0,1",  // a sixth field after the category
        ])
    func notMended(row: String) throws {
        let read = importCSV("date,name,price,category\n\(row)\n20240123,紅茶,200,0\n")
        #expect(read.problems.map(\.location.line) == [2])
        #expect(read.problems.first?.message.contains("has 5 fields but the header has 4") == true)
        #expect(read.drafts.map(\.location.line) == [3])
    }

    @Test("skipRows ignores a preamble before the header, and lines stay those of the file")
    func skipRows() throws {
        let profile = try bankProfile(#""defaultCategory": 0, "skipRows": 2"#)
        let text = "普通預金 明細\n口座番号,1234567\n取引日,摘要,金額\n2024/1/22,コンビニ,500\n"
        let read = importCSV(text, profile)
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.drafts.map(\.location) == [SourceLocation(file: "in.csv", line: 4)])
        #expect(importCSV("普通預金 明細\n", profile).drafts.isEmpty)
        #expect(importCSV("普通預金 明細\n", profile).problems.isEmpty)
    }

    @Test("a dateFormat turns dates into yyyyMMdd, and a date that does not fit is reported at its line")
    func dateFormat() throws {
        let profile = try bankProfile(#""defaultCategory": 0, "dateFormat": "dd.MM.yyyy""#)
        let read = importCSV(
            "日付,摘要,金額\n22.01.2024,パン,300\n2024/01/23,牛乳,200\n29.02.2023,卵,250\n05.02.2024,米,2000\n", profile)
        #expect(read.drafts.map(\.date) == [.text("20240122"), .text("20240205")])
        #expect(read.problems.map(\.location.line) == [3, 4])
        #expect(read.problems.map(\.field) == ["date", "date"])
        #expect(read.problems.first?.message.contains("'2024/01/23'") == true)
        #expect(read.problems.first?.message.contains("dd.MM.yyyy") == true)
        let items = read.drafts.validatedAll(catalogue: .wide).items
        #expect(items.map(\.date) == [try day(2024, 1, 22), try day(2024, 2, 5)])
    }

    @Test("invertSign turns spending written as negative amounts into positive prices, and refunds into negative ones")
    func invertSign() throws {
        let profile = try bankProfile(#""defaultCategory": 0, "invertSign": true"#)
        let text = "日付,摘要,金額\n20240122,パン,\"-1,500\"\n20240123,返品,300\n20240124,牛乳,▲200\n"
        #expect(try importedItems(text, profile).map(\.price) == [1500, -300, 200])
        let bad = importCSV("日付,摘要,金額\n20240122,パン,abc\n", profile).drafts.validatedAll(catalogue: .wide)
        #expect(bad.problems.map(\.field) == ["price"])
        #expect(bad.problems.first?.message.contains("'abc'") == true)
    }

    @Test("truncateNames cuts long names to 30 characters; without it they are invalid")
    func truncateNames() throws {
        let long = String(repeating: "長", count: 31) + "名前です"
        let exact = String(repeating: "ぴ", count: 30)
        let text = "日付,摘要,金額\n20240122,\(long),100\n20240122,\(exact),100\n"
        let items = try importedItems(text, try bankProfile(#""defaultCategory": 0, "truncateNames": true"#))
        #expect(items.map(\.name) == [String(repeating: "長", count: 30), exact])
        let refused = importCSV(text, try bankProfile()).drafts.validatedAll(catalogue: .wide).problems
        #expect(refused.map(\.location.line) == [2])
        #expect(refused.first?.message.contains("35 characters") == true)
    }

    @Test("skip rules leave rows out with their reasons and lines; the first matching rule gives the reason")
    func skipRules() throws {
        let profile = try bankProfile(
            #"""
            "defaultCategory": 0,
            "skip": [{"column": "区分", "equals": "振替", "reason": "a transfer"}, {"column": "摘要", "contains": ["ATM", "手数料"]}]
            """#)
        let text =
            "日付,摘要,金額,区分\n20240122,パン,300,支出\n20240123,口座へ, 10000 , 振替 \n20240124,セブンATM出金,5000,支出\n"
            + "20240125,ATM振替,1000,振替\n20240126,牛乳,200,支出\n"
        let read = importCSV(text, profile)
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.drafts.map(\.location.line) == [2, 6])
        #expect(read.excluded.map(\.location) == [3, 4, 5].map { SourceLocation(file: "in.csv", line: $0) })
        #expect(read.excluded.map(\.reason) == ["a transfer", "摘要 contains ATM/手数料", "a transfer"])
    }

    @Test("category rules are tried in order, the first match giving the category and its sub")
    func categoryRules() throws {
        let profile = try parseProfile(
            #"""
            {"columns": {"date": "日付", "name": "摘要", "price": "金額"}, "rules": [
              {"column": "摘要", "contains": "コーヒー", "category": 0, "sub": 1},
              {"column": "摘要", "contains": "スターバックス", "category": 0, "sub": 3},
              {"column": "区分", "equals": "交通", "category": 1, "sub": 1},
              {"column": "区分", "equals": ["雑貨", "日用品"], "category": 1}
            ]}
            """#)
        let text =
            "日付,区分,摘要,金額\n20240122,飲食,スターバックス コーヒー,450\n20240122,飲食,スターバックス タンブラー,2500\n"
            + "20240123,交通,バス,230\n20240124,日用品,洗剤,398\n"
        #expect(categories(try importedItems(text, profile)) == ["0/1", "0/3", "1/1", "1/null"])
    }

    @Test("a row's own category wins over the rules; rules and the default fill only blank cells")
    func categoryColumnFirst() throws {
        let profile = try parseProfile(
            #"""
            {"columns": {"date": "日付", "name": "摘要", "price": "金額", "category": "分類", "categorySub": "小分類"},
             "rules": [{"column": "摘要", "contains": "コーヒー", "category": 0, "sub": 1}], "defaultCategory": 1, "defaultSub": 2}
            """#)
        let text =
            "日付,摘要,金額,分類,小分類\n20240122,コーヒー豆,1200,3,\n20240122,コーヒー,450,,\n20240122,缶コーヒー,130,,2\n"
            + "20240123,電池,500,,\n"
        #expect(categories(try importedItems(text, profile)) == ["3/null", "0/1", "0/2", "1/2"])
    }

    @Test("defaultCategory (with defaultSub, or none) is used when no rule matches")
    func defaults() throws {
        let rules = #""rules": [{"column": "摘要", "equals": "バス", "category": 1, "sub": 1}], "defaultCategory": 0"#
        let text = "日付,摘要,金額\n20240122,バス,230\n20240122,パン,300\n"
        #expect(categories(try importedItems(text, try bankProfile(rules + #", "defaultSub": 0"#))) == ["1/1", "0/0"])
        #expect(categories(try importedItems(text, try bankProfile(rules))) == ["1/1", "0/null"])
    }

    @Test(
        "a row no rule matches, without a default, is reported naming the tested columns and their cells in header order"
    )
    func noRuleMatches() throws {
        let profile = try parseProfile(
            #"""
            {"columns": {"date": "日付", "name": "摘要", "price": "金額"}, "rules": [
              {"column": "摘要", "equals": "バス", "category": 1, "sub": 1},
              {"column": "区分", "equals": "食費", "category": 0}
            ]}
            """#)
        let read = importCSV("日付,区分,摘要,金額\n20240122,食費,パン,300\n20240125,住宅,家賃,80000\n", profile)
        #expect(read.drafts.map(\.location.line) == [2])
        #expect(read.problems.map(\.location.line) == [3])
        #expect(read.problems.map(\.field) == ["category"])
        let message = try #require(read.problems.first?.message)
        #expect(message.contains("no rule of the mine profile matches (区分 '住宅', 摘要 '家賃')"), "\(message)")
    }

    @Test("a rule's column is found whatever its case, and the problem when none matches shows the row's cell")
    func ruleColumnCase() throws {
        let profile = try parseProfile(
            #"""
            {"columns": {"date": "date", "name": "name", "price": "amount"},
             "rules": [{"column": "type", "equals": "food", "category": 0}]}
            """#)
        let read = importCSV("Date,Name,Amount,Type\n20240122,bread,300,food\n20240125,rent,80000,housing\n", profile)
        #expect(read.drafts.map(\.category) == [.integer(0)])
        let message = try #require(read.problems.first?.message)
        #expect(message.contains("'housing'"), "\(message)")
    }

    @Test("a header lacking a column a rule or skip tests is reported at the header, naming the rule")
    func ruleColumnMissing() throws {
        let profile = try bankProfile(
            #"""
            "defaultCategory": 1,
            "rules": [{"column": "摘要", "equals": "バス", "category": 1}, {"column": "区分", "equals": "食費", "category": 0}],
            "skip": [{"column": "振替", "equals": "1"}]
            """#)
        let read = importCSV("\n日付,摘要,金額\n20240122,パン,300\n", profile)
        #expect(read.drafts.isEmpty)
        #expect(read.problems.map(\.location.line) == [2, 2])
        #expect(
            read.problems.map(\.message) == [
                "the header has no column '振替', which the mine profile's skip[0] tests",
                "the header has no column '区分', which the mine profile's rules[1] tests",
            ])
    }

    @Test("a header lacking a column the profile maps is reported, asking whether it is the right profile")
    func profileColumnMissing() throws {
        let read = importCSV("日付,金額\n20240122,300\n", try bankProfile())
        #expect(read.drafts.isEmpty)
        #expect(read.problems.count == 1)
        #expect(read.problems.first?.message.contains("the header lacks 摘要") == true)
        #expect(read.problems.first?.message.contains("is this the right profile?") == true)
    }
}

@Suite("Rules that rename and defaults that a profile extending another overrides")
struct ProfileRuleOrderTests {
    @Test(
        "a rule that only renames does not hide the category rules after it; the first name and the first category win")
    func renameDoesNotHideCategories() throws {
        let profile = try bankProfile(
            #"""
            "defaultCategory": 1,
            "rules": [
              {"column": "摘要", "contains": "ｽﾀｰﾊﾞｯｸｽ", "name": "スタバ"},
              {"column": "摘要", "contains": "スター", "name": "never used: the first name wins"},
              {"column": "摘要", "contains": "スターバックス", "category": 0, "sub": 1},
              {"column": "摘要", "contains": "スター", "category": 1}
            ]
            """#)
        let items = try importedItems("日付,摘要,金額\n2024/3/1,ｽﾀｰﾊﾞｯｸｽ 渋谷,480\n2024/3/2,本屋,990\n", profile)
        #expect(items.map(\.name) == ["スタバ", "本屋"])
        #expect(
            categories(items) == ["0/1", "1/null"],
            "the 1st row by the third rule, the 2nd by the profile's default (1)")
    }

    @Test("a profile that sets defaultCategory does not keep the sub-category its base gave another category")
    func defaultSubResets() throws {
        let base = try parseProfile(
            #"{"columns": {"date": "日付", "name": "摘要", "price": "金額"}, "defaultCategory": 0, "defaultSub": 1}"#)
        let child = try ImportProfile.parse(
            Array(#"{"extends": "base", "defaultCategory": 1}"#.utf8), name: "child", file: "child.json"
        ) { name in
            name == "base" ? base : nil
        }
        #expect(child.defaultCategory == 1 && child.defaultSub == nil)
        let kept = try ImportProfile.parse(
            Array(#"{"extends": "base", "description": "same defaults"}"#.utf8), name: "kept", file: "kept.json"
        ) { name in
            name == "base" ? base : nil
        }
        #expect(kept.defaultCategory == 0 && kept.defaultSub == 1)
    }
}
