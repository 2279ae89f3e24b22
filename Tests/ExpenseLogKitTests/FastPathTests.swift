import Foundation
import Testing

@testable import ExpenseLogClient
@testable import ExpenseLogFormats
@testable import ExpenseLogImport
@testable import ExpenseLogModel
@testable import ExpenseLogRendering
@testable import ExpenseLogStore

/// The fast paths added for speed must give exactly what the slow, general code they stand in for gives.
@Suite("Fast paths agree with the general code")
struct FastPathTests {
    /// Bodies the fast item reader takes, each also read by the codec's general path as the expected answer.
    static let readableBodies = [
        #"[]"#,
        #"[{"id":"A1","date":"20240115","name":"ラーメン","price":1500,"category":0,"categorySub":0}]"#,
        // Leniency: numbers for strings and strings for numbers, "" or null or nothing for no sub-category.
        #"[{"id":7,"date":20240102,"name":42,"price":"-300","category":"1","categorySub":""}]"#,
        #"[{"id":"B","date":"20240103","name":"x","price":1,"category":0,"categorySub":null},{"id":"C","date":"20240104","name":"y","price":2,"category":1}]"#,
        #"[{"id":"D","date":"20240105","name":"z","price":3,"category":1,"categorySub":"2"}]"#,
        // Escapes, a surrogate pair, unknown keys (of every kind) and whitespace everywhere.
        " [ {\"id\" : \"E\\\"1\" , \"date\":\"20240106\",\"name\":\"a\\\\b\\n\\u3042\\ud83c\\udf5c\\/\",\"price\":5,\"category\":0,"
            + "\"note\":{\"x\":[1,2.5,true,null]},\"extra\":-1.5e3} ] \n",
    ]

    /// Bodies the fast reader gives up on, with what the Sheet reader makes of them: the items read (by id), the rows
    /// left out (by position), or nil for a protocol error.
    static let unusualBodies: [(String, (ids: [String], leftOut: [Int])?)] = [
        (#"[{"id":"F","date":"20240107","name":"x","price":1.0,"category":0}]"#, (["F"], [])),
        (#"[{"id":"G","date":"20240107","name":"x","price":"abc","category":0}]"#, ([], [1])),
        (#"[{"id":"H","date":"2024-13-01","name":"x","price":1,"category":0}]"#, ([], [1])),
        (#"[{"id":"I","date":"20240107","name":"x","price":1,"category":0,"categorySub":true}]"#, ([], [1])),
        (#"[{"id":"J","date":"20240107","name":"x","price":1}]"#, ([], [1])),
        (#"[{"id":"K","date":"20240107","name":"x","price":1,"category":0}] trailing"#, nil),
        (#"[{"id":"L","id":"M","date":"20240107","name":"x","price":1,"category":0}]"#, (["L"], [])),
        (#"{"items":[]}"#, nil),
    ]

    @Test("the client reads plainly typed item arrays as the codec's general path does", arguments: readableBodies)
    func clientAnswers(body: String) async throws {
        #expect(WireItems.items(Array(body.utf8)) != nil, "the fast path takes it")
        let want = try ItemCodec.items(in: ItemCodec.parse(Array(body.utf8)))
        #expect(try await client(.json(body)).fetch(january()).items == want)
    }

    @Test(
        "what the fast reader gives up on, the Sheet reader reads, leaves out by row, or refuses whole",
        arguments: unusualBodies.indices)
    func unusualAnswers(index: Int) async throws {
        let (body, expected) = Self.unusualBodies[index]
        let result: Result<SheetAnswer, any Error>
        do { result = .success(try await client(.json(body)).fetch(january())) } catch { result = .failure(error) }
        switch (expected, result) {
        case let (expected?, .success(answer)):
            #expect(answer.items.map(\.id) == expected.ids, "\(body)")
            #expect(answer.unreadable.map(\.position) == expected.leftOut, "\(body)")
        case (nil, .failure(let error)):
            if case .invalidResponse? = error as? APIError {} else { Issue.record("\(body): \(error)") }
        default:
            Issue.record("\(body): expected \(String(describing: expected)), the client gave \(result)")
        }
    }

    @Test("a cache file with lenient values and unknown keys reads as the codec's general path reads it")
    func cacheFile() async throws {
        try await withTemporaryDirectory { folder in
            let items = #"[{"id":7,"date":"20240102","name":"ざる\"そば\"","price":"800","category":0,"categorySub":""}]"#
            try writeText(
                #"{"month":"2024-01","note":"kept by a newer version","fetchedAt":1705900000.25,"items":\#(items)}"#,
                to: folder.appendingPathComponent("2024-01.json"))
            let cached = try #require(try await LocalRepository(directory: folder).month(january()))
            #expect(cached.items == (try ItemCodec.items(in: ItemCodec.parse(Array(items.utf8)))))
            #expect(
                CacheFileFormat.fastDecode(Array(try Data(contentsOf: folder.appendingPathComponent("2024-01.json"))))
                    != nil,
                "the fast path takes it")
            #expect(cached.fetchedAt == Date(timeIntervalSince1970: 1705900000.25))
        }
    }

    @Test("a month written and read back is the same month, null fetchedAt included")
    func cacheRoundTrip() async throws {
        try await withTemporaryDirectory { folder in
            let items =
                try numberedItems(50) + [
                    Item(
                        id: "Q\"\\", date: try day(2024, 1, 9), name: "tab\there ✈️ 髙", price: -5,
                        category: 1, categorySub: 2)
                ]
            try await LocalRepository(directory: folder).add(items)
            let cached = try #require(try await LocalRepository(directory: folder).month(january()))
            #expect(cached.items == items)
            #expect(cached.fetchedAt == nil)
        }
    }

    @Test(
        "eight digits are read at once as the other forms are: a real day, or nil",
        arguments: [
            ("20240122", "2024-01-22"), ("20240229", "2024-02-29"), ("20230229", nil), ("20241301", nil),
            ("20240100", nil),
            ("00000000", nil), ("2024012a", nil), ("２０２４０１２２", "2024-01-22"), ("2024-1-22", "2024-01-22"),
        ] as [(String, String?)])
    func eightDigits(text: String, day: String?) {
        #expect(Day(written: text)?.description == day)
    }

    @Test(
        "trimmingSpaces trims what trimmingCharacters(in: .whitespaces) trims",
        arguments: [
            "", " ", "\t", "a", " a ", "\ta b\t", "\u{3000}全角\u{3000}", "\u{00A0}nbsp\u{00A0}", "x\n", "\n x \n", "  ",
            "é ", " 🍜", "\u{200B}x\u{200B}",
        ])
    func trimming(text: String) {
        #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
        #expect(text[...].trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
    }

    @Test("RandomID makes distinct uppercase version-4 UUIDs that Foundation parses")
    func randomIDs() throws {
        let ids = (0..<1_000).map { _ in RandomID.make() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let uuid = try #require(UUID(uuidString: id))
            #expect(uuid.uuidString == id)
            let bytes = Array(id.utf8)
            #expect(bytes[14] == UInt8(ascii: "4"))
            #expect("89AB".utf8.contains(bytes[19]))
        }
    }

    @Test(
        "the width of text is the sum of its characters' widths",
        arguments: [
            "", "plain ASCII text", "コーヒー", "Amazon 日用品", "ｱｲｳ", "e\u{301}", "🍜 ramen", "👍🏽", "☕️", "1\u{20E3}",
            "tab\there",
            "ランチ, 定食 853832590", "か\u{3099}", "〇〆〜「」、。", "ｶﾞ", "Ａ１！", "漢字\u{FE0F}",
            "ｽﾀｰﾊﾞｯｸｽ ｼﾌﾞﾔ", "Café ｶﾌｪ", "\u{00A0}©®\u{00AD}", "1\u{3099}", "©\u{FE0F}", "〰\u{FE0F}", "ﾊﾞ\u{FE0F}",
        ])
    func widths(text: String) {
        #expect(TextWidth.of(text) == text.reduce(0) { $0 + TextWidth.of($1) })
    }

    @Test("each scalar measures the same through the fast paths as through the general code")
    func everyScalar() {
        // Up to the end of the ideographs' planes: the fast paths take nothing above them.
        let scalars = (0x20...0x3FFFF).lazy.compactMap(Unicode.Scalar.init(_:))
        let differing = scalars.filter { TextWidth.of(String($0)) != TextWidth.of(Character($0)) }
        #expect(Array(differing.prefix(5)) == [])
    }

    @Test(
        "plain prices read as before, and the one number whose sign cannot be turned is refused",
        arguments: [
            ("1500", 1500), ("-300", -300), ("0150", 150), ("-0", 0), ("9223372036854775807", Int.max),
            ("-9223372036854775808", nil), ("-", nil), ("", nil), ("99999999999999999999", nil), ("1,500", 1500),
        ] as [(String, Int?)])
    func prices(text: String, expected: Int?) {
        #expect(PriceText.parse(text) == expected)
    }

    @Test("an answer is the sent items only byte for byte: another Unicode form of a name is what the server saved")
    func byteForByte() throws {
        let day = try #require(Day(parsing: "20240122"))
        let sent = [Item(id: "A", date: day, name: "か\u{3099}", price: 178, category: 0, categorySub: nil)]
        var composed = sent
        composed[0].name = "が"
        #expect(composed == sent, "Swift's == treats the two forms as equal")
        #expect(!composed.isByteForByte(sent))
        #expect(sent.isByteForByte(sent))
        var cheaper = sent
        cheaper[0].price = 100
        #expect(!cheaper.isByteForByte(sent) && !Array(sent.prefix(0)).isByteForByte(sent))
    }

    @Test(
        "a whole number is read from its bytes as Int(text.trimmingSpaces()) reads it",
        arguments: [
            "3", " 12 ", "\t7", "+5", "-40", "007", "-", "+", "", "  ", "1 2", "1.0", "1e3", "abc", "３",
            "\u{3000}4\u{3000}",
            "4\u{200B}", "999999999999999999", "9999999999999999999", "-9223372036854775808", "９", "1,500", "¥10",
        ])
    func wholeNumbers(text: String) {
        #expect(WholeNumber.parse(text) == Int(text.trimmingSpaces()))
    }

    @Test("random short texts of digits, signs and spaces read as Int(text.trimmingSpaces()) reads them")
    func randomWholeNumbers() {
        var random = SeededGenerator(seed: 34)
        let pieces = ["0", "1", "5", "9", "-", "+", " ", "\t", "\u{3000}", "a", "．", "１"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            #expect(WholeNumber.parse(text) == Int(text.trimmingSpaces()), "\(text.debugDescription)")
        }
    }

    @Test(
        "a JSON integer is read from its bytes as the general number reading reads it",
        arguments: [
            "0", "7", "-7", "178", "-0", "123456789012345678", "1234567890123456789", "01", "1.5", "2e3", "2E3", "-",
            "12,",
            "-9223372036854775808", "99999999999999999999",
        ])
    func jsonIntegers(text: String) {
        var fast = JSONParser(bytes: Array(text.utf8)), general = JSONParser(bytes: Array(text.utf8))
        let expected = Result { try Int(general.parseNumber()) }.map { $0 }
        let got = Result { try fast.integer() }
        switch (got, expected) {
        case let (.success(a), .success(b)): #expect(a == b, "\(text)")
        case (.failure, .failure): break
        default: Issue.record("\(text): \(got) against \(expected)")
        }
        if case .success = got { #expect(fast.index == general.index, "\(text) ends where the general reading ends") }
    }

    /// Two items as POSTed, and answers to them: whether each is taken for the body sent, token for token.
    static let sentTwo =
        #"[{"id":"A1","date":"20240122","name":"コーヒー \"特\"","price":178,"category":0,"categorySub":null},"#
        + #"{"id":"B2","date":"20240123","name":"返金 ❶","price":-500,"category":3,"categorySub":2}]"#
    static let echoes: [(String, Bool)] = [
        (sentTwo, true),
        // As Python's json.dumps writes it back, and indented as an outbox entry holds it.
        (
            #"[{"id": "A1", "date": "20240122", "name": "コーヒー \"特\"", "price": 178, "category": 0, "categorySub": null}, "#
                + #"{"id": "B2", "date": "20240123", "name": "返金 ❶", "price": -500, "category": 3, "categorySub": 2}]"#,
            true
        ),
        ("[\n  " + sentTwo.dropFirst().dropLast().replacingOccurrences(of: "},{", with: "},\n  {") + "\n]\n", true),
        // Anything else takes the general reading, which may still find the same items.
        (
            sentTwo.replacingOccurrences(of: #""id":"A1","date":"20240122""#, with: #""date":"20240122","id":"A1""#),
            false
        ),
        (sentTwo.replacingOccurrences(of: #""date":"20240122""#, with: #""date":20240122"#), false),
        (sentTwo.replacingOccurrences(of: #""categorySub":null"#, with: #""categorySub":"""#), false),
        (sentTwo.replacingOccurrences(of: "コーヒー", with: #"コ\u30fcヒー"#), false),
        (sentTwo.replacingOccurrences(of: "178", with: "179"), false),
        (sentTwo.replacingOccurrences(of: "178", with: "17 8"), false),
        (sentTwo.replacingOccurrences(of: "null", with: "nul l"), false),
        (sentTwo + "\n", true),
        (sentTwo.replacingOccurrences(of: "コーヒー", with: "コーヒー "), false),
        (sentTwo.replacingOccurrences(of: "返金 ❶", with: "返金\t❶"), false),
        (sentTwo.replacingOccurrences(of: "[{", with: "[ {").replacingOccurrences(of: "返金 ❶", with: "返金  ❶"), false),
        (sentTwo.replacingOccurrences(of: #""categorySub":2}"#, with: #""categorySub":2,"row":2}"#), false),
        (String(sentTwo.prefix { $0 != "," }), false),
        (sentTwo + " x", false),
    ]

    @Test("an answer is taken for the items sent only when it is their body token for token", arguments: echoes)
    func echoedItems(answer: String, expected: Bool) throws {
        let sent = try #require(WireItems.items(Array(Self.sentTwo.utf8)))
        #expect(
            EchoedItems.match(Data(ItemJSON.arrayBytes(sent)), sent: Data(Self.sentTwo.utf8)),
            "the sample is, token for token, the body the tool writes for its items")
        #expect(EchoedItems.match(Data(answer.utf8), sent: Data(Self.sentTwo.utf8)) == expected)
        if expected { #expect(try #require(WireItems.items(Array(answer.utf8))).isByteForByte(sent)) }
    }

    @Test("a POST's answer that echoes its body gives the items sent; one the general reading reads otherwise does not")
    func clientTakesAnEcho() async throws {
        let day = try #require(Day(parsing: "20240122"))
        for name in ["コーヒー", "2024-01-21T15:00:00.000Z"] {
            let items = [Item(id: "A", date: day, name: name, price: 1, category: 0, categorySub: nil)]
            let batch = OutboxBatch(key: "K", items: items)
            let echoed = try await client(.json(String(decoding: batch.body, as: UTF8.self))).send(batch).items
            let general = try await client(.json(String(decoding: batch.body, as: UTF8.self))).fetch(january()).items
            #expect(echoed.isByteForByte(general), "\(name)")
        }
    }

    @Test("decimal digits are written as String(value) writes them, zero-padded to the minimum")
    func decimalDigits() {
        var random = SeededGenerator(seed: 8)
        let values: [UInt64] =
            [0, 1, 9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 20_240_122, 99_999_999, 100_000_000, .max]
            + (0..<500).map { _ in
                UInt64.random(in: 0...UInt64.max, using: &random) >> UInt64.random(in: 0...63, using: &random)
            }
        for value in values {
            for minimum in [1, 2, 4, 8, 12, 20] {
                var bytes: [UInt8] = []
                DecimalDigits.append(value, minimum: minimum, to: &bytes)
                let plain = String(value)
                #expect(
                    String(decoding: bytes, as: UTF8.self) == String(
                        repeating: "0", count: max(0, minimum - plain.count)) + plain,
                    "\(value), minimum \(minimum)")
            }
        }
    }

    @Test("a text needs an escape in JSON exactly when a byte of it is a control character, a quote or a backslash")
    func escapeScan() {
        var random = SeededGenerator(seed: 5)
        let pool: [UInt8] = [
            0x00, 0x09, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xE3, 0xFF, 0x41,
        ]
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...40, using: &random)
            // Mostly plain letters, so that a single byte that needs an escape lands at every place of a word.
            let bytes = (0..<count).map { _ in
                Int.random(in: 0..<8, using: &random) == 0 ? pool.randomElement(using: &random)! : 0x61
            }
            let expected = bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
            #expect(bytes.withUnsafeBufferPointer(ItemJSON.needsEscape) == expected, "\(bytes)")
        }
    }
}
