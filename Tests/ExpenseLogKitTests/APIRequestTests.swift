import ExpenseLogClient
import ExpenseLogHTTP
import ExpenseLogModel
import Foundation
import Testing

/// A URL that must parse.
func url(_ text: String) throws -> URL {
    try #require(URL(string: text))
}

/// The query of a URL as name/value pairs, in order.
func query(_ url: URL) throws -> [String] {
    let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
    return items.map { "\($0.name)=\($0.value ?? "")" }
}

/// The JSON objects a request body holds, failing unless it is an array of objects.
func bodyObjects(_ request: HTTPRequest) throws -> [[String: Any]] {
    let body = try #require(request.body)
    return try #require(try JSONSerialization.jsonObject(with: body) as? [[String: Any]])
}

@Suite("Building the web app's requests")
struct APIRequestTests {
    static let base = "https://script.google.com/macros/s/AKfy/exec"

    @Test(
        "fetch is a GET of the base URL with year and an unpadded month",
        arguments: [(2024, 1, "year=2024&month=1"), (2023, 12, "year=2023&month=12"), (2024, 9, "year=2024&month=9")])
    func fetchURL(year: Int, month: Int, expectedQuery: String) throws {
        let yearMonth = try #require(YearMonth(year: year, month: month))
        let request = ExpenseLogAPI.fetch(yearMonth).request(baseURL: try url(Self.base))
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == Self.base + "?" + expectedQuery)
        #expect(request.body == nil)
    }

    @Test("fetch keeps a query item the base URL already has")
    func fetchKeepsQuery() throws {
        let month = try #require(YearMonth(year: 2024, month: 1))
        let request = ExpenseLogAPI.fetch(month).request(baseURL: try url("http://127.0.0.1:8080/exec?key=abc123"))
        #expect(try query(request.url) == ["key=abc123", "year=2024", "month=1"])
        #expect(request.url.host == "127.0.0.1")
        #expect(request.url.port == 8080)
        #expect(request.url.path == "/exec")
    }

    @Test("fetch keeps the base URL's query exactly as written, an encoded + included")
    func fetchKeepsEncodedQuery() throws {
        let month = try #require(YearMonth(year: 2024, month: 1))
        let base = "https://example.com/exec?sig=a%2Bb%3D&v=1"
        let request = ExpenseLogAPI.fetch(month).request(baseURL: try url(base))
        #expect(request.url.absoluteString == base + "&year=2024&month=1")
    }

    @Test("both calls ask for JSON; only the POST says it sends JSON")
    func headers() throws {
        let base = try url(Self.base)
        let month = try #require(YearMonth(year: 2024, month: 1))
        let get = ExpenseLogAPI.fetch(month).request(baseURL: base)
        let post = ExpenseLogAPI.register(try awkwardItems()).request(baseURL: base)
        #expect(get.headers["Accept"] == "application/json")
        #expect(post.headers["Accept"] == "application/json")
        #expect(get.headers["Content-Type"] == nil)
        #expect(post.headers["Content-Type"]?.hasPrefix("application/json") == true)
    }

    @Test("fetch waits 60 seconds and register 30, unless overridden")
    func timeouts() throws {
        let base = try url(Self.base)
        let fetch = ExpenseLogAPI.fetch(try #require(YearMonth(year: 2024, month: 1)))
        let register = ExpenseLogAPI.register([])
        #expect(fetch.request(baseURL: base).timeout == 60)
        #expect(register.request(baseURL: base).timeout == 30)
        #expect(fetch.request(baseURL: base, timeout: 2.5).timeout == 2.5)
        #expect(register.request(baseURL: base, timeout: 90).timeout == 90)
    }

    @Test("register is a POST of the base URL itself")
    func registerURL() throws {
        let request = ExpenseLogAPI.register(try awkwardItems()).request(baseURL: try url(Self.base + "?key=k"))
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == Self.base + "?key=k")
    }

    @Test("the POST body is a JSON array of the items with exactly the six wire keys")
    func registerBody() throws {
        let items = try awkwardItems()
        let objects = try bodyObjects(ExpenseLogAPI.register(items).request(baseURL: try url(Self.base)))
        try #require(objects.count == items.count)
        for (object, item) in zip(objects, items) {
            #expect(Set(object.keys) == ["id", "date", "name", "price", "category", "categorySub"])
            #expect(object["id"] as? String == item.id)
            #expect(object["date"] as? String == item.date.compact)
            #expect(object["name"] as? String == item.name)
            #expect(object["price"] as? Int == item.price)
            #expect(object["category"] as? Int == item.category)
            if let sub = item.categorySub {
                #expect(object["categorySub"] as? Int == sub)
            } else {
                #expect(object["categorySub"] is NSNull)
            }
        }
    }

    @Test("the POST body sends categorySub as null when absent and dates as yyyyMMdd text")
    func registerBodyText() throws {
        let item = Item(id: "X", date: try day(2024, 2, 9), name: "n", price: 5, category: 1, categorySub: nil)
        let body = try #require(ExpenseLogAPI.register([item]).request(baseURL: try url(Self.base)).body)
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.contains(#""categorySub":null"#))
        #expect(text.contains(#""date":"20240209""#))
    }

    @Test("an empty register body is an empty JSON array")
    func emptyBody() throws {
        #expect(try bodyObjects(ExpenseLogAPI.register([]).request(baseURL: try url(Self.base))).isEmpty)
    }
}
