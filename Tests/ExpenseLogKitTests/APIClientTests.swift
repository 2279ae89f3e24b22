import ExpenseLogCLI
import ExpenseLogClient
import ExpenseLogConfig
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import Foundation
import Testing

/// A client over a fake session with the test base URL; it never really sleeps between retries.
func client(
    _ session: FakeSession, timeout: Double? = nil, retries: Int = 0, token: String? = nil,
    sleeps: Sleeps = Sleeps()
) throws -> ExpenseLogAPIClient {
    ExpenseLogAPIClient(
        session: session, baseURL: try url("https://example.com/exec"), timeout: timeout, token: token,
        retryPolicy: RetryPolicy(maxRetries: retries), sleep: { await sleeps.record($0) })
}

/// The waits a client asked for, in order.
actor Sleeps {
    private(set) var delays: [Double] = []
    func record(_ delay: Double) { delays.append(delay) }
}

/// January 2024, the month most tests fetch.
func january() throws -> YearMonth {
    try #require(YearMonth(year: 2024, month: 1))
}

/// `count` valid items with distinct ids, in order.
func numberedItems(_ count: Int) throws -> [Item] {
    try (0..<count).map { index in
        Item(
            id: "ID-\(index)", date: try day(2024, 1, index % 28 + 1), name: "item \(index)", price: index + 1,
            category: 0, categorySub: nil)
    }
}

@Suite("The API client over a fake session")
struct APIClientTests {
    @Test("fetch decodes the server's items (the bundled fetch fixture)")
    func fetchFixture() async throws {
        let items = try await client(.fixture("fetch")).fetch(january()).items
        let fixture = try Data(contentsOf: FakeSession.resources.appendingPathComponent("fetch.json"))
        #expect(items == (try readItems(String(decoding: fixture, as: UTF8.self), format: .json)))
        #expect(
            items.first
                == Item(
                    id: "100000BF-4AAC-48A6-B316-8A533358859B", date: try day(2024, 1, 22),
                    name: "コーヒー", price: 178, category: 0, categorySub: 1))
    }

    @Test("fetch sends one GET for the month, with the client's timeout")
    func fetchRequest() async throws {
        let log = RequestLog()
        _ = try await client(FakeSession.json("[]").recording(into: log), timeout: 7).fetch(
            try #require(YearMonth(year: 2024, month: 3))
        ).items
        let requests = await log.requests
        #expect(requests.map(\.method) == ["GET"])
        #expect(requests.first?.url.absoluteString == "https://example.com/exec?year=2024&month=3")
        #expect(requests.first?.timeout == 7)
    }

    @Test(
        "fetch(year:month:) refuses an impossible month without sending anything",
        arguments: [(2024, 13), (2024, 0), (0, 1), (10000, 1)])
    func fetchInvalidMonth(year: Int, month: Int) async throws {
        let log = RequestLog()
        let error = try await #require(throws: APIError.self) {
            try await client(FakeSession.json("[]").recording(into: log)).fetch(year: year, month: month).items
        }
        #expect(error == .invalidMonth(year: year, month: month))
        #expect(await log.requests.isEmpty)
    }

    @Test("fetch(year:month:) fetches that month")
    func fetchByNumbers() async throws {
        let log = RequestLog()
        let items = try await client(FakeSession.fixture("fetch").recording(into: log)).fetch(year: 2024, month: 2)
            .items
        #expect(items.count == 4)
        #expect(await log.requests.first?.url.absoluteString == "https://example.com/exec?year=2024&month=2")
    }

    @Test("fetch reads leniently: numbers for text, text for numbers, and an absent categorySub")
    func lenient() async throws {
        let body = """
            [{"id":12345,"date":20240122,"name":"a","price":"178","category":"0","categorySub":""},
             {"id":"B","date":"20240123","name":"b","price":1,"category":1,"categorySub":null},
             {"id":"C","date":"20240124","name":"c","price":2,"category":1},
             {"id":"D","date":"20240125","name":"d","price":3,"category":1,"categorySub":"2"}]
            """
        let items = try await client(.json(body)).fetch(january()).items
        #expect(items.map(\.id) == ["12345", "B", "C", "D"])
        #expect(items.first?.date == (try day(2024, 1, 22)))
        #expect(items.first?.price == 178)
        #expect(items.map(\.categorySub) == [nil, nil, nil, 2])
    }

    @Test("an error status becomes httpStatus with that status", arguments: [401, 403, 404, 500, 503])
    func errorStatus(status: Int) async throws {
        let error = try await #require(throws: APIError.self) {
            try await client(.json(#"{"error":"no"}"#, status: status)).fetch(january()).items
        }
        guard case .httpStatus(_, let got, let snippet) = error else {
            Issue.record("expected httpStatus, got \(error)")
            return
        }
        #expect(got == status)
        #expect(snippet.contains("no"))
        #expect(error.description.contains("\(status)"))
    }

    @Test("a 200 HTML page is a protocol error that says it was HTML")
    func htmlPage() async throws {
        let page = "<!DOCTYPE html><html><body>Sign in</body></html>"
        let error = try await #require(throws: APIError.self) { try await client(.json(page)).fetch(january()).items }
        guard case .invalidResponse(_, let status, _, let snippet) = error else {
            Issue.record("expected invalidResponse, got \(error)")
            return
        }
        #expect(status == 200)
        #expect(snippet.contains("Sign in"))
        #expect(error.description.contains("HTML"))
    }

    @Test(
        "a body that is not a JSON array of items is a protocol error",
        arguments: [#"[{"id":"A","date":"2024"#, #"{"items":[]}"#, ""])
    func brokenJSON(body: String) async throws {
        let error = try await #require(throws: APIError.self) { try await client(.json(body)).fetch(january()).items }
        guard case .invalidResponse = error else {
            Issue.record("expected invalidResponse, got \(error)")
            return
        }
    }

    @Test("a network failure passes through unchanged")
    func networkFailure() async throws {
        let failure = APIError.network(url: try url("https://example.com/exec"), reason: .timedOut)
        let error = try await #require(throws: APIError.self) {
            try await client(.failing(failure)).fetch(january()).items
        }
        #expect(error == failure)
    }

    @Test(
        "an entry's batches go one POST each, at most batchSize items, in order; each leaves the outbox when saved",
        arguments: [(5, 2), (4, 2), (1, 100), (250, 100), (3, 1)])
    func batches(count: Int, batchSize: Int) async throws {
        try await withTemporaryDirectory { root in
            let items = try numberedItems(count)
            let outbox = Journal(directory: root.appendingPathComponent("release/journal"))
            let entry = try outbox.append(OutboxBatch.split(items, size: batchSize))
            let log = RequestLog()
            let api = try client(FakeSession.echo.recording(into: log))
            var saved: [Item] = []
            var pending: [Int] = []
            for batch in try entry.loaded(outbox) {
                let outcome = try await api.deliver(batch, of: entry, outbox: outbox, verifyAnswer: true)
                guard case .delivered(let items, _) = outcome else {
                    Issue.record("expected delivered, got \(outcome)")
                    return
                }
                saved += items
                pending.append(try outbox.pendingCount())
            }
            let bodies = try await log.requests.map { try bodyObjects($0).compactMap { $0["id"] as? String } }
            #expect(bodies.count == (count + batchSize - 1) / batchSize)
            #expect(bodies.allSatisfy { $0.count <= batchSize })
            #expect(bodies.flatMap { $0 } == items.map(\.id))
            #expect(saved == items)
            #expect(pending == bodies.indices.map { count - min(($0 + 1) * batchSize, count) })
            #expect(fileNames(in: outbox.directory).isEmpty, "a fully delivered entry leaves no file")
        }
    }

    @Test("a failure in batch 2 leaves it and the later batches queued; batch 1 left the outbox")
    func failureInSecondBatch() async throws {
        try await withTemporaryDirectory { root in
            let log = RequestLog()
            let failure = APIError.httpStatus(url: try url("https://example.com/exec"), status: 500, snippet: "")
            let session = FakeSession { request in
                if await log.record(request) == 2 { throw failure }
                return try await FakeSession.echo.send(request)
            }
            let items = try numberedItems(5)
            let outbox = Journal(directory: root)
            let entry = try outbox.append(OutboxBatch.split(items, size: 2))
            let api = try client(session)
            let first = try await api.deliver(
                try entry.loaded(outbox)[0], of: entry, outbox: outbox, verifyAnswer: true)
            let second = try await api.deliver(
                try entry.loaded(outbox)[1], of: entry, outbox: outbox, verifyAnswer: true)
            guard case .delivered(let saved, _) = first, case let .failed(error, mayHaveBeenSaved) = second else {
                Issue.record("expected delivered then failed, got \(first) and \(second)")
                return
            }
            #expect(saved == Array(items[0..<2]))
            #expect(error == failure)
            #expect(mayHaveBeenSaved, "a 500 may come after the script ran")
            #expect(await log.requests.count == 2)
            #expect(try outbox.listing().itemEntries.map(\.batches) == [Array(entry.batches[1...])])
            #expect(try outbox.pendingCount() == 3)
        }
    }

    @Test("every error maps to the contract's exit code", arguments: try exitCases())
    func exitCodes(error: any Error & Sendable, code: Int32) {
        #expect(ExitCode(for: error).rawValue == code, "\(error)")
    }

    struct Unexpected: Error {}

    static func exitCases() throws -> [(any Error & Sendable, Int32)] {
        let base = try url("https://example.com/exec")
        let usage = try #require(throws: UsageError.self) {
            try ExpenseLogCommand.parser.parse(["fetch", "--month", "13"])
        }
        return [
            (APIError.network(url: base, reason: .refused), 69),
            (APIError.network(url: base, reason: .timedOut), 69),
            (APIError.httpStatus(url: base, status: 401, snippet: ""), 77),
            (APIError.httpStatus(url: base, status: 403, snippet: ""), 77),
            (APIError.httpStatus(url: base, status: 404, snippet: ""), 69),
            (APIError.httpStatus(url: base, status: 500, snippet: ""), 69),
            (APIError.invalidResponse(url: base, status: 200, reason: "HTML", snippet: ""), 76),
            (APIError.invalidMonth(year: 2024, month: 13), 64),
            (ConfigError.missingBaseURL(.release, configFile: "/c.json"), 78),
            (ConfigError.insecureBaseURL("http://x", source: "--base-url"), 78),
            (ConfigError.badConfigFile(path: "/c.json", reason: "bad"), 78),
            (ConfigError.missingConfigFile(path: "/c.json", source: "--config"), 78),
            (ConfigError.unknownEnvironment("prod", source: "--env"), 78),
            (StoreError.writeFailed(path: "/cache", reason: "read-only"), 74),
            (usage, 64),
            (Unexpected(), 1),
        ]
    }
}
