import ExpenseLogKit
import Foundation
import Testing

/// The library's client through the live URLSession transport against the reference server, over real sockets.
@Suite struct ClientOverHTTPTests {
    func client(_ server: ReferenceServer, timeout: Double? = nil, retries: Int = 0) -> ExpenseLogAPIClient {
        ExpenseLogAPIClient(session: URLSessionSession(), baseURL: server.baseURL, timeout: timeout,
                            retryPolicy: RetryPolicy(maxRetries: retries))
    }

    @Test func fetchReturnsOnlyThatMonthAndSendsTheContractsQuery() async throws {
        try await withServer { server in
            try await server.seed(Samples.seed)
            let items = try await client(server).fetch(YearMonth(year: 2024, month: 1)!)
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
            let items = (1...5).map { Samples.item("R\($0)", "2024030\($0)", "item \($0)", $0 * 100, sub: $0 == 3 ? nil : 1) }
            var handed: [[Item]] = []
            for batch in OutboxBatch.split(items, size: 2) { handed.append(try await client(server).send(batch)) }
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

    @Test func fetchFollowsTheAppsScriptRedirect() async throws {
        try await withServer(["--redirect"]) { server in
            try await server.seed(Samples.seed)
            let items = try await client(server).fetch(YearMonth(year: 2024, month: 2)!)
            #expect(items.map(\.id) == ["B1"])
        }
    }

    @Test(arguments: [401, 403, 500, 404])
    func errorStatusesKeepTheirCode(status: Int) async throws {
        try await withServer { server in
            try await server.addFaults("[{\"status\": \(status)}]")
            do {
                _ = try await client(server).fetch(YearMonth(year: 2024, month: 1)!)
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
                _ = try await client(server).fetch(YearMonth(year: 2024, month: 1)!)
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

    @Test func refusedConnectionIsANetworkError() async throws {
        let port = try closedPort()
        let client = ExpenseLogAPIClient(session: URLSessionSession(), baseURL: URL(string: "http://127.0.0.1:\(port)/exec")!,
                                         retryPolicy: RetryPolicy(maxRetries: 0))
        await #expect(throws: APIError.network(url: URL(string: "http://127.0.0.1:\(port)/exec?year=2024&month=1")!, reason: .refused)) {
            _ = try await client.fetch(YearMonth(year: 2024, month: 1)!)
        }
    }

    @Test func aStalledServerTimesOut() async throws {
        try await withServer { server in
            try await server.addFaults("[{\"kind\": \"stall\", \"seconds\": 3}]")
            do {
                _ = try await client(server, timeout: 0.5).fetch(YearMonth(year: 2024, month: 1)!)
                Issue.record("expected a timeout")
            } catch let APIError.network(_, reason) {
                #expect(reason == .timedOut)
            }
        }
    }
}
