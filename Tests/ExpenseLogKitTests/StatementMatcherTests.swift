import ExpenseLogCLI
import ExpenseLogImport
import ExpenseLogModel
import Testing

/// The labelled set: items a person typed (short names, the day of the purchase) and statement rows (long names, the
/// day a card booked them), with what each row must become.
@Suite("Matching statement rows to the items a person typed")
struct StatementMatcherTests {
    static func item(_ id: String, _ dayOfMonth: Int, _ name: String, _ price: Int) throws -> Item {
        Item(id: id, date: try day(2026, 11, dayOfMonth), name: name, price: price, category: 0, categorySub: nil)
    }

    static func typed(
        _ id: String, _ dayOfMonth: Int, _ name: String, _ price: Int, place: KnownItem.Place = .server
    ) throws -> KnownItem {
        KnownItem(item: try item(id, dayOfMonth, name, price), place: place)
    }

    /// Each row's outcome, by the row's id: "new", "=ID" matched to that item, or "?ID,ID" ambiguous among those.
    static func outcomes(
        _ rows: [Item], _ known: [KnownItem], window: Int = StatementMatcher.defaultWindow
    ) -> [String: String] {
        let found = StatementMatcher(window: window).outcomes(
            rows: rows.enumerated().map { StatementMatcher.Row(index: $0, item: $1) }, known: known)
        var result: [String: String] = [:]
        for (index, row) in rows.enumerated() {
            switch found[index] {
            case nil: result[row.id] = "new"
            case .matched(let item, _, _)?: result[row.id] = "=" + item.item.id
            case .ambiguous(let items)?: result[row.id] = "?" + items.map(\.item.id).joined(separator: ",")
            }
        }
        return result
    }

    @Test(
        "a shop's name with its branch, booked the same day or a day later, is the purchase typed under the shop's name"
    )
    func branchAndBookingDay() throws {
        let known = [try Self.typed("T1", 19, "まいばすけっと", 1_280), try Self.typed("T2", 10, "ラーメン", 980)]
        let rows = [try Self.item("R1", 20, "まいばすけっと 中目黒1丁目店", 1_280), try Self.item("R2", 11, "ﾗｰﾒﾝ一蘭 渋谷店", 980)]
        #expect(Self.outcomes(rows, known) == ["R1": "=T1", "R2": "=T2"])
    }

    @Test("a row past the window, of another amount, or a refund against a purchase is new")
    func outsideTheRule() throws {
        let known = [try Self.typed("T1", 10, "スターバックス", 500), try Self.typed("T2", 12, "返品 ユニクロ", -1_990)]
        let rows = [
            try Self.item("R1", 14, "スターバックス 渋谷店", 500),  // four days after
            try Self.item("R2", 10, "スターバックス", 520),
            try Self.item("R3", 12, "ユニクロ 渋谷店", 1_990),  // a purchase, not the refund
            try Self.item("R4", 13, "返品 ユニクロ 渋谷店", -1_990),
        ]  // the refund itself
        #expect(Self.outcomes(rows, known) == ["R1": "new", "R2": "new", "R3": "new", "R4": "=T2"])
        #expect(Self.outcomes(rows, known, window: 4)["R1"] == "=T1", "the window is configurable")
    }

    @Test(
        "identical purchases on one day pair off; a row more than were typed is a purchase of its own, not a question")
    func repeatedPurchases() throws {
        let known = [try Self.typed("T1", 19, "コーヒー", 150), try Self.typed("T2", 19, "コーヒー", 150, place: .outbox)]
        let two = [try Self.item("R1", 19, "コーヒー", 150), try Self.item("R2", 19, "コーヒー", 150)]
        #expect(Self.outcomes(two, known) == ["R1": "=T1", "R2": "=T2"])
        let three = two + [try Self.item("R3", 19, "コーヒー", 150)]
        #expect(Self.outcomes(three, known) == ["R1": "=T1", "R2": "=T2", "R3": "new"])
    }

    @Test("the same amount within a day under an unrelated name is a question, not a match and not a new purchase")
    func unrelatedNameWithinADay() throws {
        let known = [
            try Self.typed("T1", 9, "ランチ", 1_200), try Self.typed("T2", 27, "本", 1_500),
            try Self.typed("T3", 12, "返品", -300),
        ]
        #expect(Self.outcomes([try Self.item("R1", 9, "サイゼリヤ 渋谷店", 1_200)], known) == ["R1": "?T1"])
        #expect(
            Self.outcomes([try Self.item("R1", 10, "サイゼリヤ 渋谷店", 1_200)], known) == ["R1": "?T1"],
            "a day apart: a question")
        #expect(
            Self.outcomes([try Self.item("R1", 11, "サイゼリヤ 渋谷店", 1_200)], known) == ["R1": "new"],
            "two days apart, unrelated: new")
        // A generic name typed the day before the card booked the purchase, and a refund a day later.
        let rows = [
            try Self.item("R2", 28, "紀伊國屋書店 新宿本店", 1_500), try Self.item("R3", 13, "ユニクロ 銀座店", -300),
            try Self.item("R4", 13, "ユニクロ 銀座店", 300),
        ]
        #expect(
            Self.outcomes(rows, known) == ["R2": "?T2", "R3": "?T3", "R4": "new"],
            "a refund is only a refund's question")
        // A row with a better partner takes it: the unrelated one is no question then.
        let closer = [try Self.item("R5", 27, "本", 1_500), try Self.item("R6", 28, "紀伊國屋書店", 1_500)]
        #expect(Self.outcomes(closer, known) == ["R5": "=T2", "R6": "new"])
    }

    @Test("two different rows with an equal claim to one item both wait for a person; a closer claim wins outright")
    func equalClaims() throws {
        let known = [try Self.typed("T1", 20, "コーヒー", 150)]
        let tied = [try Self.item("R1", 19, "コーヒー ドトール", 150), try Self.item("R2", 21, "コーヒー タリーズ", 150)]
        #expect(Self.outcomes(tied, known) == ["R1": "?T1", "R2": "?T1"])
        let closer = [try Self.item("R1", 20, "コーヒー ドトール", 150), try Self.item("R2", 21, "コーヒー タリーズ", 150)]
        #expect(Self.outcomes(closer, known) == ["R1": "=T1", "R2": "new"])
    }

    @Test("the outcome does not depend on the rows' order")
    func orderFree() throws {
        let known = [
            try Self.typed("T1", 19, "コーヒー", 150), try Self.typed("T2", 21, "コーヒー", 150),
            try Self.typed("T3", 9, "ランチ", 1_200),
        ]
        let rows = [
            try Self.item("R1", 19, "コーヒー", 150), try Self.item("R2", 20, "コーヒー 渋谷店", 150),
            try Self.item("R3", 22, "コーヒー", 150), try Self.item("R4", 9, "サイゼリヤ", 1_200),
        ]
        let forwards = Self.outcomes(rows, known)
        #expect(Self.outcomes(rows.reversed(), known) == forwards)
        #expect(forwards["R1"] == "=T1" && forwards["R4"] == "?T3")
    }
}

@Suite("Purchase names as statement matching compares them")
struct PurchaseNameTests {
    @Test(
        "widths, case and a branch suffix do not tell names apart",
        arguments: [
            ("ﾄﾞﾄｰﾙ", "ドトール"), ("ＳＴＡＲＢＵＣＫＳ", "starbucks"), ("まいばすけっと 中目黒1丁目店", "まいばすけっと"),
            ("ローソン　渋谷支店", "ローソン"), ("ﾏｲﾊﾞｽｹｯﾄ ﾅｶﾒｸﾞﾛ1ﾁｮｳﾒﾃﾝ", "まいばすけっと"), ("マイバスケット", "まいばすけっと"),
            ("ｾﾌﾞﾝｲﾚﾌﾞﾝ", "せぶんいれぶん"),
        ])
    func same(statement: String, typed: String) {
        #expect(PurchaseName(statement).distance(to: PurchaseName(typed)) == 0)
    }

    @Test(
        "a name inside the other, a shared first word or three leading characters relate names; one character does not",
        arguments: [
            ("ラーメン一蘭", "ラーメン", 1), ("AMAZON.CO.JP ﾏｰｹｯﾄﾌﾟﾚｲｽ", "amazon", 1), ("セブンイレブン港南", "セブンイレブン", 1),
            ("スターバックス コーヒー", "スターバックス ラテ", 2),
        ])
    func related(statement: String, typed: String, distance: Int) {
        #expect(PurchaseName(statement).distance(to: PurchaseName(typed)) == distance)
    }

    @Test(
        "names that share nothing that matters are unrelated",
        arguments: [("サイゼリヤ", "ランチ"), ("本屋", "本"), ("スタバ", "スターバックス")])
    func unrelated(a: String, b: String) {
        #expect(PurchaseName(a).distance(to: PurchaseName(b)) == nil)
    }

    @Test("the name alone is never a branch: 本店 stays a name")
    func branchAlone() {
        #expect(PurchaseName("本店").key == "本店")
    }
}

@Suite("Matching as many rows as can be matched")
struct StatementMatcherAugmentTests {
    @Test("a row that takes the item another row needs moves to its other candidate, so neither is sent twice")
    func augmenting() throws {
        let known = [
            try StatementMatcherTests.typed("X", 10, "コーヒー", 150),
            try StatementMatcherTests.typed("Y", 11, "コーヒー", 150),
        ]
        // A is the same day as X and a day from Y; B is three days from X and four from Y (past the window).
        let rows = [
            try StatementMatcherTests.item("A", 10, "コーヒー", 150),
            try StatementMatcherTests.item("B", 7, "コーヒー 渋谷店", 150),
        ]
        #expect(StatementMatcherTests.outcomes(rows, known) == ["A": "=Y", "B": "=X"])
    }
}

@Suite("Names folded as people and statements write them")
struct NameFoldingTests {
    @Test(
        "half-width, full-width, katakana and hiragana, upper and lower case fold to one text",
        arguments: [
            ("ﾏｲﾊﾞｽｹｯﾄ", "まいばすけつと"), ("マイバスケット", "まいばすけつと"), ("まいばすけっと", "まいばすけつと"), ("ＡＭＡＺＯＮ．ＣＯ．ＪＰ", "amazon.co.jp"),
            ("ﾍﾟｲﾍﾟｲ", "ぺいぺい"), ("ＰａｙＰａｙ　チャージ", "paypay ちやーじ"), ("ヴ", "ゔ"), ("紀伊國屋", "紀伊國屋"),
            ("ﾀﾞｲﾜｼﾖｳｹﾝ", "だいわしようけん"), ("ダイワショウケン", "だいわしようけん"), ("ｷﾔﾂｼﾕ", "きやつしゆ"),
        ])
    func folds(written: String, folded: String) {
        #expect(NameFolding.fold(written) == folded)
    }

    @Test("a search and an item query find a name written in the other kana")
    func queries() throws {
        let item = Item(
            id: "A", date: try day(2026, 11, 2), name: "ﾏｲﾊﾞｽｹｯﾄ ﾅｶﾒｸﾞﾛ", price: 1_280, category: 0, categorySub: nil)
        #expect(ItemQuery(name: "まいばす").keeps(item))
        #expect(ItemQuery(name: "マイバス").keeps(item))
        #expect(!ItemQuery(name: "ローソン").keeps(item))
    }

    @Test(
        "a profile's rule in katakana matches a cell in half-width kana or hiragana, and a katakana range stays a range"
    )
    func rules() {
        #expect(ColumnMatch(column: "摘要内容", kind: .contains, values: ["ミツイスミトモ"]).matches("ﾐﾂｲｽﾐﾄﾓｶｰﾄﾞ"))
        #expect(ColumnMatch(column: "摘要内容", kind: .regex, values: ["カ[ー-]ド$"]).matches("ﾗｸﾃﾝｶ-ﾄﾞ"))
        #expect(ColumnMatch(column: "摘要内容", kind: .regex, values: ["^[ァ-ン]+$"]).matches("まいばすけっと"))
        #expect(!ColumnMatch(column: "摘要内容", kind: .regex, values: ["^[ァ-ン]+$"]).matches("紀伊國屋"))
    }
}

@Suite("Every reason a built-in profile gives has its Japanese words")
struct BuiltinReasonTests {
    @Test func everyTransferAndSkipReasonOfTheBuiltInProfilesIsTranslated() {
        let reasons = Set(ImportProfile.builtins.flatMap { $0.1.skip.map(\.reason) })
        #expect(!reasons.isEmpty)
        #expect(
            reasons.subtracting(Context.builtinReasons.keys).isEmpty,
            "\(reasons.subtracting(Context.builtinReasons.keys))")
    }
}
