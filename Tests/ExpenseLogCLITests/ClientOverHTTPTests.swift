import ExpenseLogClient
import ExpenseLogHTTP
import ExpenseLogModel
import ExpenseLogStore
import Foundation
import Testing

/// The library's client through the live session (libcurl on Linux, URLSession on macOS) against the reference server,
/// over real sockets: the contract the transport keeps.
@Suite struct ClientOverHTTPTests {
    func client(
        _ server: ReferenceServer, timeout: Double? = nil, retries: Int = 0,
        maxAnswerBytes: Int = HTTPRequest.defaultMaxAnswerBytes
    ) -> ExpenseLogAPIClient {
        // No proxy variables: the test's own environment may have some.
        ExpenseLogAPIClient(
            session: LiveSession.make(environment: [:]), baseURL: server.baseURL, timeout: timeout,
            retryPolicy: RetryPolicy(maxRetries: retries), maxAnswerBytes: maxAnswerBytes)
    }

    @Test
    func fetchReturnsOnlyThatMonthAndSendsTheContractsQuery() async throws {
        try await withServer { server in
            try await server.seed(Samples.seed)
            let items = try await client(server).fetch(YearMonth(year: 2024, month: 1)!).items
            #expect(items == Array(Samples.seed.prefix(3)))
            let request = try #require(try await server.requests().first)
            #expect(request.method == "GET")
            #expect(request.query == "year=2024&month=1")
            #expect(request.headers["accept"] == "application/json")
        }
    }

    @Test(arguments: [false, true])
    func registerStoresEachItemOnceInBatches(redirect: Bool) async throws {
        try await withServer(redirect ? ["--redirect"] : []) { server in
            let items = (1...5).map {
                Samples.item("R\($0)", "2024030\($0)", "item \($0)", $0 * 100, sub: $0 == 3 ? nil : 1)
            }
            var handed: [[Item]] = []
            for batch in OutboxBatch.split(items, size: 2) { handed.append(try await client(server).send(batch).items) }
            #expect(handed.map(\.count) == [2, 2, 1])
            #expect(try await server.items() == items)
            let posts = try await server.requests().filter { $0.method == "POST" }
            #expect(posts.count == 3)
            #expect(posts.allSatisfy { $0.headers["content-type"]?.hasPrefix("application/json") == true })
            #expect(posts[1].body?.contains("\"categorySub\":null") == true)
            if redirect {
                // Apps Script's 302 after POST is followed with a GET to the echo URL, never a second POST.
                #expect(try await server.requests().filter { $0.path == "/echo" }.count == 3)
            }
        }
    }

    @Test
    func fetchFollowsTheAppsScriptRedirect() async throws {
        try await withServer(["--redirect"]) { server in
            try await server.seed(Samples.seed)
            let items = try await client(server).fetch(YearMonth(year: 2024, month: 2)!).items
            #expect(items.map(\.id) == ["B1"])
        }
    }

    @Test(arguments: [401, 403, 500, 404])
    func errorStatusesKeepTheirCode(status: Int) async throws {
        try await withServer { server in
            try await server.addFaults("[{\"status\": \(status)}]")
            do {
                _ = try await client(server).fetch(YearMonth(year: 2024, month: 1)!).items
                Issue.record("expected HTTP \(status) to fail")
            } catch let APIError.httpStatus(url, code, _) {
                #expect(code == status)
                #expect(url.port == server.port)
            }
        }
    }

    @Test(arguments: ["html", "truncated"])
    func a200ThatIsNotJSONIsAProtocolError(kind: String) async throws {
        try await withServer { server in
            try await server.seed(Samples.seed)
            try await server.addFaults("[{\"kind\": \"\(kind)\"}]")
            do {
                _ = try await client(server).fetch(YearMonth(year: 2024, month: 1)!).items
                Issue.record("expected a protocol error")
            } catch let error as APIError {
                guard case .invalidResponse(_, let status, let reason, _) = error else {
                    Issue.record("expected invalidResponse, got \(error)")
                    return
                }
                #expect(status == 200)
                #expect(reason.contains(kind == "html" ? "HTML" : "not a JSON array"))
            }
        }
    }

    @Test
    func refusedConnectionIsANetworkError() async throws {
        let port = try closedPort()
        let client = ExpenseLogAPIClient(
            session: LiveSession.make(environment: [:]), baseURL: URL(string: "http://127.0.0.1:\(port)/exec")!,
            retryPolicy: RetryPolicy(maxRetries: 0))
        await #expect(
            throws: APIError.network(
                url: URL(string: "http://127.0.0.1:\(port)/exec?year=2024&month=1")!, reason: .refused)
        ) {
            _ = try await client.fetch(YearMonth(year: 2024, month: 1)!).items
        }
    }

    @Test
    func aStalledServerTimesOut() async throws {
        try await withServer { server in
            // Far longer than the timeout, so a busy machine's slow scheduling cannot let the answer win.
            try await server.addFaults("[{\"kind\": \"stall\", \"seconds\": 10}]")
            do {
                _ = try await client(server, timeout: 0.3).fetch(YearMonth(year: 2024, month: 1)!).items
                Issue.record("expected a timeout")
            } catch let APIError.network(_, reason) {
                #expect(reason == .timedOut)
            }
        }
    }

    @Test
    func anAnswerPastTheSizeLimitIsCutOff() async throws {
        try await withServer { server in
            // A second and a half of answer at full speed, far past the limit; short, because URLSession keeps its queue
            // spinning while a cancelled transfer still runs, which would hold up the other tests of this process.
            try await server.addFaults("[{\"kind\": \"endless\", \"seconds\": 1.5}]")
            await #expect(
                throws: APIError.answerTooLarge(url: URL(string: server.base + "?year=2024&month=1")!, limit: 1 << 20)
            ) {
                _ = try await client(server, maxAnswerBytes: 1 << 20).fetch(YearMonth(year: 2024, month: 1)!)
            }
        }
    }

    @Test
    func theDeadlineHoldsWhileBytesKeepArriving() async throws {
        try await withServer { server in
            // The trickle ends after 5 s without finishing the answer: only a deadline that held gives a timeout.
            try await server.addFaults("[{\"kind\": \"trickle\", \"seconds\": 5}]")
            await #expect(
                throws: APIError.network(url: URL(string: server.base + "?year=2024&month=1")!, reason: .timedOut)
            ) {
                _ = try await client(server, timeout: 0.5).fetch(YearMonth(year: 2024, month: 1)!)
            }
        }
    }

    /// libcurl keeps connections: a GET (a month, the hop after a POST) goes on one already open,
    /// while each POST has a connection of its own, so that none is ever sent twice on a kept connection that died.
    // Linux only: URLSession keeps connections its own way.
    #if os(Linux)
    @Test
    func getsReuseAConnectionAndEveryPostOpensItsOwn() async throws {
        try await withServer(["--redirect"]) { server in
            try await server.seed(Samples.seed)
            let client = client(server)
            for batch in OutboxBatch.split(
                (1...3).map { Samples.item("C\($0)", "2024030\($0)", "item \($0)", 100) }, size: 1)
            {
                _ = try await client.send(batch)
            }
            for month in [1, 2, 3] { _ = try await client.fetch(YearMonth(year: 2024, month: month)!) }
            let requests = try await server.requests()
            #expect(requests.filter { $0.method == "POST" }.count == 3)
            for (index, request) in requests.enumerated() where request.method == "POST" {
                #expect(
                    !requests[..<index].contains { $0.peer == request.peer }, "POST \(index) came on a kept connection")
            }
            let gets = requests.filter { $0.method == "GET" }
            #expect(gets.count == 9)
            #expect(Set(gets.map(\.peer)).count < gets.count, "every GET opened a connection")
        }
    }

    /// A kept connection the server closed as the next GET went out: the GET (which may be sent twice) goes again on a
    /// new connection, with no retry of the client's.
    @Test
    func aGetOnAKeptConnectionTheServerDroppedIsSentAgain() async throws {
        try await withServer { server in
            try await server.seed(Samples.seed)
            let client = client(server)
            _ = try await client.fetch(YearMonth(year: 2024, month: 1)!)
            try await server.addFaults("[{\"kind\": \"drop\"}]")
            #expect(try await client.fetch(YearMonth(year: 2024, month: 1)!).items == Array(Samples.seed.prefix(3)))
            let gets = try await server.requests().filter { $0.method == "GET" }
            #expect(gets.count == 3)
            #expect(
                gets.count == 3 && gets[1].peer == gets[0].peer, "the dropped GET did not come on the kept connection")
            #expect(gets.count == 3 && gets[2].peer != gets[1].peer, "the GET was not sent again on a new connection")
        }
    }
    #endif
}
