import ExpenseLogModel
import ExpenseLogRendering
import Testing

/// What each export format writes for one item: the accounts, the marks of a pending item, names that would break a
/// journal's syntax, and the configured balancing accounts.
@Suite struct ExportWriterTests {
    static func item(_ id: String, _ name: String, price: Int = 1_500, payer: String? = nil) throws -> Item {
        Item(
            id: id, date: try #require(Day(parsing: "2026-03-05")), name: name, price: price, category: 1,
            categorySub: 2, payer: payer)
    }

    @Test func aPendingItemIsMarkedAndANamesSemicolonCannotStartAComment() throws {
        var writer = ExportWriter(catalogue: .standard)
        writer.pendingIDs = ["P"]
        let items = [try Self.item("P", "a;b"), try Self.item("A", "返品", price: -300)]
        #expect(
            writer.render(items, as: .hledger)
                == """
                ; expense-log export (hledger)

                2026-03-05 * 返品  ; id:A
                    expenses:娯楽費:雑貨  -300 JPY
                    assets:cash

                2026-03-05 ! a；b  ; id:P
                    expenses:娯楽費:雑貨  1500 JPY
                    assets:cash


                """)
        let beancount = writer.render([try Self.item("P", "\"引用\" \\")], as: .beancount)
        #expect(beancount.contains("2026-03-05 ! \"\\\"引用\\\" \\\\\"\n  id: \"P\"\n"), "\(beancount)")
        #expect(beancount.contains("  Expenses:Entertainment:Goods  1500 JPY\n  Assets:Cash\n"))
    }

    @Test func aPayersConfiguredAccountBalancesTheirItems() throws {
        var writer = ExportWriter(catalogue: .standard)
        writer.accounts = ["花子": "liabilities:card:vpass"]
        let items = [try Self.item("H", "本", payer: "花子"), try Self.item("T", "本", payer: "太郎")]
        let journal = writer.render(items, as: .ledger)
        #expect(journal.contains("    liabilities:card:vpass\n") && journal.contains("    assets:cash:太郎\n"))
        let beancount = writer.render(items, as: .beancount)
        #expect(beancount.contains("2000-01-01 open Liabilities:Card:Vpass JPY\n"), "\(beancount)")
        var plain = ExportWriter(catalogue: .standard)
        plain.bom = false
        #expect(plain.render(items, as: .csv).hasPrefix("date,name,price,"))
    }
}

/// What Excel and the journals must not take for something else: a formula, a transaction's code, an id's end.
@Suite struct ExportGuardTests {
    @Test func aFormulaIsTextInExcelAndAParenthesisIsNoCode() throws {
        let item = Item(
            id: "A,1", date: try #require(Day(parsing: "2026-03-05")), name: "=1+1", price: 100, category: 0,
            categorySub: nil)
        let writer = ExportWriter(catalogue: .standard)
        #expect(writer.render([item], as: .csv).contains("\r\n2026-03-05,'=1+1,100,"))
        var plain = writer
        plain.bom = false
        #expect(plain.render([item], as: .csv).contains("\r\n2026-03-05,=1+1,100,"))
        var named = item
        named.name = "(株)ABC"
        #expect(writer.render([named], as: .hledger).contains("2026-03-05 * () (株)ABC  ; id:A_1\n"))
        #expect(writer.render([named], as: .ledger).contains("2026/03/05 * () (株)ABC\n    ; id: A_1\n"))
    }
}
