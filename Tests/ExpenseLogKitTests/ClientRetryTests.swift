import ExpenseLogClient
import ExpenseLogHTTP
import ExpenseLogStore
import Foundation
import Synchronization
import Testing

/// What the scripted fake server does on one attempt.
enum ScriptedAnswer: Sendable {
    /// An HTTP answer; `from` is the URL that gave it (the request's own unless a redirect was followed).
    case status(Int, headers: [String: String] = [:], body: String = "[]", from: URL? = nil)
    /// No HTTP answer at all; `at` is the URL whose connection failed (the request's own unless a redirect was followed).
    case fail(NetworkFailure, at: URL? = nil)
    /// 200 with the items the request carried (a POST the server saved).
    case echo
}

/// A fake server that answers attempt n with `answers[n - 1]` (the last answer repeats), recording each request in `log`.
func scripted(_ answers: [ScriptedAnswer], log: RequestLog) -> FakeSession {
    FakeSession { request in
        let attempt = await log.record(request)
        switch answers[min(attempt, answers.count) - 1] {
        case let .status(status, headers, body, from):
            return HTTPResponse(status: status, headers: headers, body: Data(body.utf8), url: from ?? request.url)
        case let .fail(reason, at):
            throw APIError.network(url: at ?? request.url, reason: reason)
        case .echo:
            return HTTPResponse(status: 200, body: request.body ?? Data("[]".utf8), url: request.url)
        }
    }
}

/// The client's events in order, collected from any thread.
final class EventLog: Sendable {
    private let recorded = Mutex<[ClientEvent]>([])

    func record(_ event: ClientEvent) { recorded.withLock { $0.append(event) } }

    var events: [ClientEvent] { recorded.withLock { $0 } }

    /// Each event in a few words: `answered 503 #1`, `failed timedOut #1`, `retrying #2/3`.
    var summary: [String] {
        events.map { event in
            switch event {
            case let .answered(_, response, _, attempt): return "answered \(response.status) #\(attempt)"
            case let .failed(_, error, _, attempt):
                if case .network(_, let reason) = error { return "failed \(reason) #\(attempt)" }
                return "failed \(error) #\(attempt)"
            case let .retrying(_, _, _, attempt, of): return "retrying #\(attempt)/\(of)"
            }
        }
    }

    /// The delays announced by `.retrying` events.
    var retryDelays: [Double] {
        events.compactMap { if case let .retrying(_, _, delay, _, _) = $0 { return delay } else { return nil } }
    }
}

/// A client over a scripted session that reports its events and never really sleeps.
func observedClient(
    _ session: FakeSession, retries: Int, token: String? = nil, events: EventLog,
    sleeps: Sleeps
) throws -> ExpenseLogAPIClient {
    ExpenseLogAPIClient(
        session: session, baseURL: try url("https://example.com/exec"), token: token,
        retryPolicy: RetryPolicy(maxRetries: retries), onEvent: { events.record($0) },
        sleep: { await sleeps.record($0) })
}

/// An HTTP date (IMF-fixdate) for an instant.
func imfFixdate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
}

@Suite("Retries of a fetch (GET)")
struct ClientRetryTests {
    static let items = #"[{"id":"A","date":"20240122","name":"コーヒー","price":178,"category":0,"categorySub":1}]"#

    @Test(
        "a GET is retried after a retryable failure and returns the answer of the attempt that worked",
        arguments: [
            ScriptedAnswer.status(503), .status(502), .status(504), .status(429),
            .fail(.timedOut), .fail(.connectionLost), .fail(.refused), .fail(.hostNotFound), .fail(.offline),
            .fail(.other("reset")),
        ])
    func retriedThenSucceeds(failure: ScriptedAnswer) async throws {
        let log = RequestLog()
        let sleeps = Sleeps()
        let items = try await client(
            scripted([failure, .status(200, body: Self.items)], log: log), retries: 3, sleeps: sleeps
        )
        .fetch(january()).items
        #expect(items.map(\.id) == ["A"])
        #expect(await log.requests.count == 2)
        #expect(await sleeps.delays.count == 1)
    }

    @Test("a GET gives up after maxRetries retries with the last failure, waiting before each retry only")
    func givesUp() async throws {
        let log = RequestLog()
        let sleeps = Sleeps()
        let error = try await #require(throws: APIError.self) {
            try await client(scripted([.status(503, body: "down")], log: log), retries: 2, sleeps: sleeps).fetch(
                january()
            ).items
        }
        guard case .httpStatus(_, 503, _) = error else {
            Issue.record("expected the 503, got \(error)")
            return
        }
        #expect(await log.requests.count == 3)
        #expect(await sleeps.delays.count == 2)
    }

    @Test("the backoff waits stay under the doubling ceilings 0.5, 1, 2 s")
    func backoffCeilings() async throws {
        let sleeps = Sleeps()
        _ = try? await client(scripted([.fail(.timedOut)], log: RequestLog()), retries: 3, sleeps: sleeps).fetch(
            january()
        ).items
        let delays = await sleeps.delays
        try #require(delays.count == 3)
        #expect((0...0.5).contains(delays[0]))
        #expect((0...1).contains(delays[1]))
        #expect((0...2).contains(delays[2]))
    }

    @Test("with retries 0 a GET is sent once")
    func noRetries() async throws {
        let log = RequestLog()
        let sleeps = Sleeps()
        _ = try? await client(scripted([.status(503)], log: log), retries: 0, sleeps: sleeps).fetch(january()).items
        #expect(await log.requests.count == 1)
        #expect(await sleeps.delays.isEmpty)
    }

    @Test(
        "a GET is not retried when a retry cannot help",
        arguments: [
            ScriptedAnswer.status(400), .status(401), .status(403), .status(404), .status(500),
            .status(200, body: "<html>Sign in</html>"), .status(200, body: "[{"),
            .fail(.tls("bad certificate")), .fail(.redirect("too many")),
        ])
    func notRetried(failure: ScriptedAnswer) async throws {
        let log = RequestLog()
        let sleeps = Sleeps()
        await #expect(throws: APIError.self) {
            try await client(scripted([failure, .status(200)], log: log), retries: 3, sleeps: sleeps).fetch(january())
                .items
        }
        #expect(await log.requests.count == 1)
        #expect(await sleeps.delays.isEmpty)
    }

    @Test("every attempt sends the same request")
    func sameRequest() async throws {
        let log = RequestLog()
        _ = try await client(scripted([.status(503), .fail(.timedOut), .status(200)], log: log), retries: 3).fetch(
            january()
        ).items
        let requests = await log.requests
        #expect(requests.count == 3)
        #expect(Set(requests.map(\.url)).count == 1)
        #expect(requests.allSatisfy { $0 == requests[0] })
    }

    @Test("Retry-After in seconds is the exact wait", arguments: [(429, "7", 7.0), (503, "0", 0), (503, "60", 60)])
    func retryAfterSeconds(status: Int, header: String, seconds: Double) async throws {
        let sleeps = Sleeps()
        let session = scripted([.status(status, headers: ["retry-after": header]), .status(200)], log: RequestLog())
        _ = try await client(session, retries: 3, sleeps: sleeps).fetch(january()).items
        #expect(await sleeps.delays == [seconds])
    }

    @Test("Retry-After as an HTTP date waits until that instant")
    func retryAfterDate() async throws {
        let sleeps = Sleeps()
        let target = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) + 31)
        let session = scripted(
            [.status(503, headers: ["retry-after": imfFixdate(target)]), .status(200)], log: RequestLog())
        _ = try await client(session, retries: 1, sleeps: sleeps).fetch(january()).items
        let delays = await sleeps.delays
        try #require(delays.count == 1)
        #expect(delays[0] > 29 && delays[0] <= 31, "waited \(delays[0]) s")
    }

    @Test("a Retry-After above 60 s is not waited for: the failure comes at once", arguments: ["61", "3600"])
    func retryAfterTooLong(header: String) async throws {
        let log = RequestLog()
        let sleeps = Sleeps()
        let error = try await #require(throws: APIError.self) {
            try await client(
                scripted([.status(503, headers: ["retry-after": header]), .status(200)], log: log),
                retries: 3, sleeps: sleeps
            ).fetch(january()).items
        }
        guard case .httpStatus(_, 503, _) = error else {
            Issue.record("expected the 503, got \(error)")
            return
        }
        #expect(await log.requests.count == 1)
        #expect(await sleeps.delays.isEmpty)
    }

    @Test("an unreadable Retry-After falls back to the backoff")
    func retryAfterGarbage() async throws {
        let sleeps = Sleeps()
        let session = scripted([.status(503, headers: ["retry-after": "soon"]), .status(200)], log: RequestLog())
        _ = try await client(session, retries: 1, sleeps: sleeps).fetch(january()).items
        let delays = await sleeps.delays
        try #require(delays.count == 1)
        #expect((0...0.5).contains(delays[0]))
    }

    @Test("each attempt is reported: failed or answered, and a retrying notice before each retry")
    func events() async throws {
        let events = EventLog()
        let sleeps = Sleeps()
        let session = scripted([.fail(.timedOut), .status(503), .status(200)], log: RequestLog())
        _ = try await observedClient(session, retries: 2, events: events, sleeps: sleeps).fetch(january()).items
        #expect(
            events.summary == [
                "failed \(NetworkFailure.timedOut) #1", "retrying #2/3",
                "answered 503 #2", "retrying #3/3",
                "answered 200 #3",
            ])
        let slept = await sleeps.delays
        #expect(slept.count == 2)
        #expect(events.retryDelays == slept)
    }

    @Test("the retrying notice carries the failure that caused it")
    func retryingCarriesFailure() async throws {
        let events = EventLog()
        let session = scripted([.status(429, headers: ["retry-after": "3"]), .status(200)], log: RequestLog())
        _ = try await observedClient(session, retries: 1, events: events, sleeps: Sleeps()).fetch(january()).items
        let retrying = events.events.compactMap { event -> (APIError, Double)? in
            if case let .retrying(_, error, delay, _, _) = event { return (error, delay) } else { return nil }
        }
        try #require(retrying.count == 1)
        guard case .httpStatus(_, 429, _) = retrying[0].0 else {
            Issue.record("expected the 429, got \(retrying[0].0)")
            return
        }
        #expect(retrying[0].1 == 3)
    }

    @Test("no retrying notice when the failure is final")
    func noNoticeWhenFinal() async throws {
        let events = EventLog()
        _ = try? await observedClient(
            scripted([.status(503)], log: RequestLog()), retries: 1, events: events, sleeps: Sleeps()
        )
        .fetch(january()).items
        #expect(events.summary == ["answered 503 #1", "retrying #2/2", "answered 503 #2"])
    }
}
