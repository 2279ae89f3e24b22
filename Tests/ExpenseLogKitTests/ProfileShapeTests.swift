import ExpenseLogImport
import ExpenseLogModel
import Testing

/// What a profile can say about a statement's shape: titles for a header-less file, an amount as out − in, a name
/// from the first non-empty of its columns, rows of another shape and rows with no amount left out.
@Suite("Statement shapes a profile reads")
struct ProfileShapeTests {
    /// The rows a profile read from CSV text: "date name price" for each draft, and the excluded rows' reasons by line.
    static func read(
        _ profile: ImportProfile, _ csv: String
    ) -> (drafts: [String], excluded: [Int: String], problems: [String]) {
        let outcome = profile.readCSV(csv, name: "in.csv")
        let drafts = outcome.drafts.map { draft -> String in
            func text(_ value: RawValue) -> String {
                switch value {
                case .text(let text): text
                case .integer(let number): String(number)
                default: "?"
                }
            }
            return "\(text(draft.date)) \(text(draft.name)) \(text(draft.price))"
        }
        return (
            drafts,
            Dictionary(outcome.excluded.map { ($0.location.line, $0.reason) }, uniquingKeysWith: { first, _ in first }),
            outcome.problems.map(\.description)
        )
    }

    @Test(
        "a bank's deposit is taken off as a refund, the name comes from the first non-empty column, and - is no amount")
    func outMinusIn() throws {
        let profile = try parseProfile(
            """
            {"columns": {"date": "日付", "name": ["摘要内容", "摘要"], "price": {"out": "支払い金額", "in": "預かり金額"}},
             "noAmount": "skip", "defaultCategory": 0}
            """)
        let csv = """
            日付,摘要,摘要内容,支払い金額,預かり金額
            2026/11/01,デビット,ｾﾌﾞﾝｲﾚﾌﾞﾝ,"1,280",
            2026/11/02,デビット,ｾﾌﾞﾝｲﾚﾌﾞﾝ,,"1,280"
            2026/11/03,口座振替,,"8,800",-
            2026/11/04,利息,,-,-
            2026/11/05,振込,ｷﾕｳﾖ,0,"250,000"

            """
        let read = Self.read(profile, csv)
        #expect(
            read.drafts == [
                "2026/11/01 ｾﾌﾞﾝｲﾚﾌﾞﾝ 1280", "2026/11/02 ｾﾌﾞﾝｲﾚﾌﾞﾝ -1280", "2026/11/03 口座振替 8800",
                "2026/11/05 ｷﾕｳﾖ -250000",
            ], "a 0 in the unused column is no amount: the deposit is still one")
        #expect(read.excluded == [5: "no amount"] && read.problems.isEmpty)
    }

    @Test(
        "a header-less layout reads by the titles its profile gives, and leaves out card-holder, total and 0-yen rows")
    func headerless() throws {
        let profile = try #require(try ImportProfile.builtin("vpass"))
        let csv = """
            山田　太郎　様,4980-00**-****-1234,ＶＩＳＡ
            2026/11/01,セブン－イレブン,498,１,１,498,
            2026/11/05,年会費,0,１,１,0,
            ,,,,,498
            ,,,,,498,

            """
        let read = Self.read(profile, csv)
        #expect(read.drafts == ["2026/11/01 セブン－イレブン 498"])
        #expect(
            read.excluded == [
                1: "a row of another shape (3 fields, not 7): a card-holder, section or total row",
                3: "an amount of 0 yen",
                4: "a row of another shape (6 fields, not 7): a card-holder, section or total row",
                5: "a row with no date: a section or total row",
            ])
        #expect(read.problems.isEmpty)
    }

    @Test("without otherShapes, a row of another shape is still a problem at its line")
    func otherShapesAreProblemsByDefault() throws {
        let profile = try parseProfile(
            #"{"columns": {"date": "日付", "name": "内容", "price": "金額"}, "defaultCategory": 0}"#)
        #expect(
            Self.read(profile, "日付,内容,金額\n合計,100\n").problems == [
                "in.csv:2: has 2 fields but the header has 3 (quote a field that holds a comma)"
            ])
    }

    @Test("a shop's category comes from history when no rule gives one, its branch left out; else the default")
    func learned() throws {
        var profile = try parseProfile(
            #"{"columns": {"date": "日付", "name": "内容", "price": "金額"}, "categories": "learn", "defaultCategory": 0}"#)
        profile.learned = LearnedCategory.history([
            Item(id: "A", date: try day(2026, 10, 1), name: "ビックカメラ", price: 100, category: 0, categorySub: nil),
            Item(id: "B", date: try day(2026, 10, 9), name: "ビックカメラ 池袋店", price: 100, category: 1, categorySub: 2),
        ])
        let drafts = profile.readCSV("日付,内容,金額\n2026/11/01,ビックカメラ　有楽町店,500\n2026/11/02,本屋,800\n", name: "in.csv").drafts
        #expect(drafts.map(\.category) == [.integer(1), .integer(0)], "the latest of the shop's items wins")
        #expect(drafts.first?.categorySub == .integer(2))
    }

    @Test("the built-in layouts are told apart by their headers and rows; expense-log's own header stays its own")
    func detection() throws {
        func detected(_ csv: String) -> String {
            switch ImportProfile.detect(Array(csv.utf8)) {
            case .native: "native"
            case .builtin(let name, _): name
            case .several(let names): names.joined(separator: "+")
            }
        }
        #expect(detected("date,name,price,category\n20240101,x,1,0\n") == "native")
        #expect(detected("山田 様,4980,VISA\n2026/11/01,セブン,498,１,１,498,\n") == "vpass")
        #expect(detected("利用日,利用店名・商品名,利用者,支払方法,利用金額,支払手数料,支払総額,1月支払金額,2月繰越残高,新規サイン\n") == "rakuten-card")
        #expect(
            detected("取引日,出金金額（円）,入金金額（円）,海外出金金額,通貨,変換レート（円）,利用国,取引内容,取引先,取引方法,支払い区分,利用者,取引番号\n")
                == "paypay")
        #expect(
            detected("a,b,c\n1,2,3\n") == "native", "nothing recognised: the native reader says what the header lacks")
    }

    @Test("a price given as an object needs both out and in")
    func priceObject() throws {
        #expect(throws: ValidationProblem.self) {
            try parseProfile(#"{"columns": {"date": "d", "name": "n", "price": {"out": "o"}}, "defaultCategory": 0}"#)
        }
    }
}

@Suite("Guessing a profile for a file with no header row")
struct HeaderlessGuessTests {
    @Test("the columns are named by what they hold, and the guessed profile reads the rows, leaving the total out")
    func byContent() throws {
        let csv = "2026/11/01,ｲｵﾝ ﾅｶﾒｸﾞﾛ,1280,1\n2026/11/02,ﾏｸﾄﾞﾅﾙﾄﾞ,590,1\n2026/11/05,ｲｵﾝｼﾈﾏ,1800,1\n,,3670,\n"
        let guess = try ProfileGuess.guess(Array(csv.utf8), name: "aeon.csv", defaultCategory: 0)
        #expect(guess.profile.header == ["日付", "品名", "金額", "列4"])
        #expect(guess.profile.columns[.name] == ["品名"] && guess.profile.skipsOtherShapes)
        let read = ProfileShapeTests.read(guess.profile, csv)
        #expect(read.drafts == ["2026/11/01 ｲｵﾝ ﾅｶﾒｸﾞﾛ 1280", "2026/11/02 ﾏｸﾄﾞﾅﾙﾄﾞ 590", "2026/11/05 ｲｵﾝｼﾈﾏ 1800"])
        #expect(read.excluded == [4: "a row with no date: a section or total row"])
    }

    @Test("a built-in layout with no header row is named, not guessed at")
    func builtinLayout() throws {
        let csv = "山田 様,4980,VISA\n2026/11/01,セブン,498,１,１,498,\n2026/11/02,ローソン,300,１,１,300,\n"
        #expect(throws: ValidationProblem.self) {
            try ProfileGuess.guess(Array(csv.utf8), name: "v.csv", defaultCategory: 0)
        }
    }
}
