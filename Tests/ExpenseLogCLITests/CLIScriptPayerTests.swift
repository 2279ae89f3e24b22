import ExpenseLogFormats
import Foundation
import Testing

/// Issue 50, the script's half: who paid is kept in two columns after the app's six (支払者, 個人), answered only to a
/// client that asks (`fields=payer`); the app's GET answers exactly the six keys it decodes, whatever the sheet holds.
@Suite struct CLIScriptPayerTests {
    static let book = "家計簿_2027"

    /// The iOS app's `Item`, decoded as the app decodes it: these six keys, no more.
    struct AppItem: Codable, Equatable {
        let id: String
        let date: String
        let name: String
        let price: Int
        let category: Int
        let categorySub: Int?
    }

    static func item(_ id: String, _ date: String, payer: String? = nil, personal: Bool? = nil) -> String {
        let base = CLIScriptOnGoogleTests.item(id, date, "買い物", price: 1_000)
        guard payer != nil || personal != nil else { return base }
        return String(base.dropLast())
            + (payer.map { ",\"payer\":\(ItemJSON.string($0))" } ?? ",\"payer\":null")
            + (personal.map { ",\"personal\":\($0)" } ?? "") + "}"
    }

    /// Each item of an answer as its keys and values.
    static func objects(_ answer: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [[String: Any]])
    }

    @Test func whoPaidIsKeptBesideTheAppsSixColumnsAndAnsweredOnlyWhenAsked() async throws {
        try await withScriptHost { host in
            // The app registers first: a sheet of six columns, as every older sheet is.
            let app = try await host.call(post: "[" + Self.item("APP1", "20270105") + "]")
            #expect(!app.contains("error"), "\(app)")
            let ours = [
                Self.item("A1", "20270106", payer: "太郎"), Self.item("B1", "20270107", payer: "花子", personal: true),
                Self.item("H1", "20270108", payer: nil),
            ]
            let saved = try await host.call(
                post: #"{"action":"register","items":["# + ours.joined(separator: ",") + "]}")
            #expect(saved.contains(#""payer":"太郎""#) && !saved.contains("error"), "\(saved)")

            // The app's GET: every item decodes as the app's Item, with exactly its six keys.
            let plain = try await host.call("?year=2027&month=1")
            let decoded = try JSONDecoder().decode([AppItem].self, from: Data(plain.utf8))
            #expect(decoded.map(\.id) == ["APP1", "A1", "B1", "H1"])
            for object in try Self.objects(plain) {
                #expect(Set(object.keys) == ["id", "date", "name", "price", "category", "categorySub"], "\(object)")
            }

            // A client asks for who paid: the app's item has none (the household's), until a default applies.
            let asked = try Self.objects(try await host.call("?year=2027&month=1&fields=payer"))
            let payers = asked.map {
                "\($0["id"]!) \($0["payer"] is NSNull ? "-" : "\($0["payer"]!)") \($0["personal"]!)"
            }
            // personal: 1 one person's own, 0 said to be shared, null unsaid.
            #expect(payers == ["APP1 - <null>", "A1 太郎 <null>", "B1 花子 1", "H1 - <null>"], "\(payers)")
            let rows = try await host.rows(book: Self.book, sheet: "1")
            #expect(rows[0].map { "\($0)" } == ["ID", "日付", "品名", "金額", "項目", "サブ項目", "支払者", "個人"])
            #expect(rows.dropFirst().map { "\($0[6])|\($0[7])" } == ["|", "太郎|", "花子|個人", "|"])
        }
    }

    @Test func anUpdateChangesWhoPaidAndAnItemMovedToAnotherMonthKeepsIt() async throws {
        try await withScriptHost { host in
            _ = try await host.call(
                post: #"{"action":"register","items":["# + Self.item("A1", "20270106", payer: "太郎") + "]}")
            let changed = try await host.call(
                post: #"{"action":"update","id":"A1","date":"20270106","changes":{"payer":"花子","personal":true}}"#)
            #expect(changed.contains(#""payer":"花子""#) && changed.contains(#""personal":true"#), "\(changed)")
            let moved = try await host.call(
                post: #"{"action":"update","id":"A1","date":"20270106","changes":{"date":"20270203"}}"#)
            #expect(!moved.contains("error"), "\(moved)")
            let february = try Self.objects(try await host.call("?year=2027&month=2&fields=payer"))
            #expect(february.map { "\($0["id"]!) \($0["payer"]!) \($0["personal"]!)" } == ["A1 花子 1"])
            // An app's edit of the price (no payer in its changes) leaves who paid as it was.
            _ = try await host.call(
                post: #"{"action":"update","id":"A1","date":"20270203","changes":{"price":1200}}"#)
            let after = try Self.objects(try await host.call("?year=2027&month=2&fields=payer"))
            #expect(after.map { "\($0["price"]!) \($0["payer"]!)" } == ["1200 花子"])
        }
    }

    @Test func aPayerThatIsNotTextIsRefusedBeforeAnythingIsWritten() async throws {
        try await withScriptHost { host in
            let bad = String(Self.item("A1", "20270106").dropLast()) + #","payer":42}"#
            let answer = try await host.call(
                post: #"{"action":"register","items":["# + Self.item("OK", "20270105", payer: "太郎") + "," + bad + "]}")
            #expect(answer.contains("bad-request") && answer.contains("payer must be a name"), "\(answer)")
            #expect(try await host.call("?year=2027&month=1") == "[]")
        }
    }
}
