import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import ExpenseLogUseCases
import Testing

/// A MoneyForward ME 入出金 export as the web site writes it: every field quoted, spending negative.
private let moneyForwardExport = """
    "計算対象","日付","内容","金額（円）","保有金融機関","大項目","中項目","メモ","振替","ID"
    "1","2024/01/22","スターバックス","-450","楽天カード","食費","カフェ","","0","MF01"
    "1","2024/01/22","イオン","-2,180","楽天カード","食費","食料品","","0","MF02"
    "1","2024/01/23","定食屋 さくら","-900","現金","食費","外食","","0","MF03"
    "1","2024/01/23","モバイルSuica","-3000","現金","交通費","電車","","0","MF04"
    "1","2024/01/24","ダイソー","-330","現金","日用品","消耗品","","0","MF05"
    "1","2024/01/24","映画館","-1900","現金","趣味・娯楽","映画・音楽・ゲーム","","0","MF06"
    "1","2024/01/25","定食屋 さくら 返金","900","現金","食費","外食","","0","MF07"
    "0","2024/01/25","立替分","-5000","現金","未分類","未分類","","0","MF08"
    "1","2024/01/25","楽天カード引落","-20000","銀行","未分類","未分類","","1","MF09"
    "1","2024/01/25","給与","250000","銀行","収入","給与","","0","MF10"
    "1","2024/01/27","家賃","-80000","銀行","住宅","家賃","","0","MF11"
    "1","2024/01/28","オンライン書店 技術書 Swift実践入門 第2版 ほか2点（送料込み）","-6,380","楽天カード","趣味・娯楽","本","","0","MF12"

    """

/// The built-in profile, which must exist.
private func moneyForward() throws -> ImportProfile {
    try #require(try ImportProfile.builtin("moneyforward"))
}

/// The export read with the built-in profile, its drafts validated.
private func readExport(
    _ text: String = moneyForwardExport
)
    throws -> (
        read: ReadOutcome,
        checked: (items: [Item], locations: [ExpenseLogModel.SourceLocation], problems: [ValidationProblem])
    )
{
    let read = try moneyForward().readCSV(text, name: "mf.csv")
    return (read, read.drafts.validatedAll(catalogue: .wide))
}

@Suite("The built-in moneyforward profile on a MoneyForward ME export")
struct MoneyForwardProfileTests {
    @Test("expenses become items with the app's categories, positive prices and MoneyForward's ids")
    func items() throws {
        let (read, checked) = try readExport()
        #expect(checked.problems.isEmpty, "\(checked.problems)")
        let summary = checked.items.map {
            "\($0.id) \($0.price) \($0.category)/\($0.categorySub.map(String.init) ?? "null")"
        }
        #expect(
            summary == [
                "MF01 450 0/1",  // カフェ
                "MF02 2180 0/0",  // 食料品
                "MF03 900 0/null",  // 食費, another 中項目
                "MF04 3000 1/1",  // 交通費
                "MF05 330 1/2",  // 日用品
                "MF06 1900 1/null",  // 趣味・娯楽
                "MF07 -900 0/null",  // a refund
                "MF12 6380 1/null",
            ])
        #expect(checked.locations.map(\.line) == [2, 3, 4, 5, 6, 7, 8, 13])
        #expect(
            checked.items.first
                == Item(
                    id: "MF01", date: try day(2024, 1, 22), name: "スターバックス", price: 450,
                    category: 0, categorySub: 1))
        #expect(read.drafts.count == 8)
    }

    @Test("a refund, a positive amount in the export, becomes a negative price")
    func refund() throws {
        let refund = try #require(try readExport().checked.items.first { $0.id == "MF07" })
        #expect(refund.price == -900)
        #expect(refund.name == "定食屋 さくら 返金")
    }

    @Test("uncounted rows, transfers and income are left out with their reasons and lines")
    func excluded() throws {
        let read = try readExport().read
        #expect(read.excluded.map(\.location) == [9, 10, 11, 12].map { SourceLocation(file: "mf.csv", line: $0) })
        #expect(
            read.excluded.map(\.reason).prefix(3) == [
                "not counted (計算対象 is 0)", "a transfer between your own accounts (振替)", "income (収入)",
            ])
    }

    @Test("a row of a category the profile does not map is left out, naming 大項目 and 中項目, not invalid")
    func unmappedCategory() throws {
        let read = try readExport().read
        #expect(read.problems.isEmpty)
        let reason = try #require(read.excluded.last?.reason)
        #expect(
            reason == "no rule of the moneyforward profile matches (大項目 '住宅', 中項目 '家賃'); "
                + "a profile that extends it with a rule imports such rows")
    }

    @Test("names longer than the app allows are cut to 30 characters")
    func longName() throws {
        let book = try #require(try readExport().checked.items.first { $0.id == "MF12" })
        #expect(book.name == String("オンライン書店 技術書 Swift実践入門 第2版 ほか2点（送料込み）".prefix(30)))
        #expect(book.name.count == 30)
    }

    @Test("the export saved as Shift_JIS, as the site offers it, reads the same through the input reader")
    func shiftJIS() throws {
        let bytes = try shiftJISBytes(moneyForwardExport.replacingOccurrences(of: "\n", with: "\r\n"))
        let read = InputReader.read(bytes, name: "mf.csv", format: nil, profile: try moneyForward())
        let expected = try readExport()
        #expect(read.drafts.validatedAll(catalogue: .wide).items == expected.checked.items)
        #expect(read.excluded.map(\.reason) == expected.read.excluded.map(\.reason))
        #expect(read.problems.isEmpty && read.excluded.map(\.location.line) == [9, 10, 11, 12])
    }

    @Test("a header with the half-width 金額(円) reads too")
    func halfWidthPriceHeader() throws {
        let text = "計算対象,日付,内容,金額(円),保有金融機関,大項目,中項目,メモ,振替,ID\n1,2024/02/01,コンビニ,-298,現金,食費,食料品,,0,MF20\n"
        let (read, checked) = try readExport(text)
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(checked.items.map(\.price) == [298])
        #expect(checked.items.map(\.id) == ["MF20"])
    }

    @Test("a file that is not a MoneyForward export is refused at its header")
    func wrongFile() throws {
        let read = try readExport("ID,日付,品名,金額,項目,サブ項目\nA1,20240122,コーヒー,178,0,1\n").read
        #expect(read.drafts.isEmpty)
        #expect(read.problems.map(\.location.line).allSatisfy { $0 == 1 })
        #expect(read.problems.contains { $0.message.contains("is this the right profile?") })
    }
}
