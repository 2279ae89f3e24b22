import ExpenseLogClient
import ExpenseLogHTTP
import ExpenseLogImport
import ExpenseLogStore
import Foundation
import Testing

/// One batch of `count` numbered items with a fresh key.
func oneBatch(_ count: Int = 2) throws -> OutboxBatch {
    try #require(OutboxBatch.split(try numberedItems(count), size: count).first)
}

/// Where Apps Script answers after running the script: a redirect away from the request's URL.
func redirectTarget() throws -> URL {
    try url("https://script.googleusercontent.com/macros/echo?user_content_key=abc&lib=xyz")
}

@Suite("Sending a batch (POST): retried only when the server provably did not run it")
struct ClientSendTests {
    @Test(
        "a POST refused before any connection is retried and its items come back",
        arguments: [
            NetworkFailure.refused, .hostNotFound, .offline,
        ])
    func retriedWhenNeverConnected(reason: NetworkFailure) async throws {
        let log = RequestLog()
        let sleeps = Sleeps()
        let batch = try oneBatch()
        let saved = try await client(scripted([.fail(reason), .echo], log: log), retries: 3, sleeps: sleeps).send(batch)
            .items
        #expect(saved == batch.items)
        #expect(await log.requests.count == 2)
        #expect(await sleeps.delays.count == 1)
    }

    @Test("a POST the endpoint itself refused with 503 or 429 is retried", arguments: [503, 429])
    func retriedWhenRefusedByStatus(status: Int) async throws {
        let log = RequestLog()
        let batch = try oneBatch()
        let saved = try await client(scripted([.status(status), .echo], log: log), retries: 3).send(batch).items
        #expect(saved == batch.items)
        #expect(await log.requests.count == 2)
    }

    /// Failures after which the server may have run the script: no proof it did not.
    static func unknownFateAnswers() throws -> [ScriptedAnswer] {
        let redirected = try redirectTarget()
        return [
            .fail(.timedOut), .fail(.connectionLost), .fail(.other("reset by peer")), .fail(.redirect("loop")),
            .status(500), .status(502), .status(504),
            .status(503, from: redirected), .status(429, from: redirected), .status(404, from: redirected),
            .status(200, body: "<html>error</html>"), .status(200, body: "[{\"id\""),
        ]
    }

    @Test("a POST whose fate is unknown is not retried and may have been saved", arguments: try unknownFateAnswers())
    func unknownFate(answer: ScriptedAnswer) async throws {
        let log = RequestLog()
        let sleeps = Sleeps()
        let failure = try await #require(throws: BatchFailure.self) {
            try await client(scripted([answer, .echo], log: log), retries: 3, sleeps: sleeps).send(try oneBatch()).items
        }
        #expect(failure.mayHaveBeenSaved)
        #expect(await log.requests.count == 1, "a blind re-send could register the items twice")
        #expect(await sleeps.delays.isEmpty)
    }

    @Test(
        "a POST the endpoint refused with a 4xx before running it is not retried and was not saved",
        arguments: [400, 401, 403, 404, 413])
    func refusedByClientError(status: Int) async throws {
        let log = RequestLog()
        let failure = try await #require(throws: BatchFailure.self) {
            try await client(scripted([.status(status, body: "no"), .echo], log: log), retries: 3).send(try oneBatch())
                .items
        }
        #expect(!failure.mayHaveBeenSaved)
        #expect(failure.error == .httpStatus(url: try url("https://example.com/exec"), status: status, snippet: "no"))
        #expect(await log.requests.count == 1)
    }

    @Test("a failed TLS handshake is not retried and was not saved")
    func tlsFailure() async throws {
        let log = RequestLog()
        let failure = try await #require(throws: BatchFailure.self) {
            try await client(scripted([.fail(.tls("expired certificate")), .echo], log: log), retries: 3).send(
                try oneBatch()
            ).items
        }
        #expect(!failure.mayHaveBeenSaved)
        #expect(await log.requests.count == 1)
    }

    @Test(
        "when every retry is refused the batch fails as not saved, after 1 + retries attempts",
        arguments: [ScriptedAnswer.fail(.refused), .status(503)])
    func exhausted(answer: ScriptedAnswer) async throws {
        let log = RequestLog()
        let sleeps = Sleeps()
        let failure = try await #require(throws: BatchFailure.self) {
            try await client(scripted([answer], log: log), retries: 2, sleeps: sleeps).send(try oneBatch()).items
        }
        #expect(!failure.mayHaveBeenSaved)
        #expect(await log.requests.count == 3)
        #expect(await sleeps.delays.count == 2)
        #expect(failure.description == failure.error.description)
    }

    @Test("a 503's Retry-After is the exact wait before re-sending")
    func retryAfter() async throws {
        let sleeps = Sleeps()
        let batch = try oneBatch()
        let session = scripted([.status(503, headers: ["retry-after": "12"]), .echo], log: RequestLog())
        #expect(try await client(session, retries: 1, sleeps: sleeps).send(batch).items == batch.items)
        #expect(await sleeps.delays == [12])
    }

    @Test("a 503 asking for more than 60 s fails at once, as not saved")
    func retryAfterTooLong() async throws {
        let log = RequestLog()
        let session = scripted([.status(503, headers: ["retry-after": "120"]), .echo], log: log)
        let failure = try await #require(throws: BatchFailure.self) {
            try await client(session, retries: 3).send(try oneBatch()).items
        }
        #expect(!failure.mayHaveBeenSaved)
        #expect(await log.requests.count == 1)
    }

    @Test("every attempt carries the batch's Idempotency-Key and the same body")
    func idempotencyKey() async throws {
        let log = RequestLog()
        let batch = try oneBatch(3)
        _ = try await client(scripted([.fail(.refused), .status(503), .echo], log: log), retries: 3).send(batch).items
        let requests = await log.requests
        #expect(requests.count == 3)
        #expect(requests.map { $0.headers["Idempotency-Key"] } == Array(repeating: batch.key, count: 3))
        #expect(requests.allSatisfy { $0.method == "POST" && $0.body == requests[0].body })
        #expect(try bodyObjects(requests[0]).compactMap { $0["id"] as? String } == batch.items.map(\.id))
    }

    @Test("each batch of an entry is delivered with its own Idempotency-Key, the one it was queued with")
    func distinctKeysPerBatch() async throws {
        try await withTemporaryDirectory { root in
            let log = RequestLog()
            let outbox = Journal(directory: root)
            let entry = try outbox.append(OutboxBatch.split(try numberedItems(5), size: 2))
            let api = try client(FakeSession.echo.recording(into: log))
            for batch in try entry.loaded(outbox) {
                _ = try await api.deliver(batch, of: entry, outbox: outbox, verifyAnswer: true)
            }
            let keys = await log.requests.compactMap { $0.headers["Idempotency-Key"] }
            #expect(keys == entry.batches.map(\.key))
            #expect(Set(keys).count == 3)
            #expect(keys.allSatisfy { UUID(uuidString: $0) != nil })
        }
    }

    @Test(
        "a connection failure at a redirect's target is not retried and may have been saved: the script already ran",
        arguments: [NetworkFailure.refused, .hostNotFound, .offline, .tls("expired certificate")])
    func failureAfterRedirect(reason: NetworkFailure) async throws {
        let log = RequestLog()
        let sleeps = Sleeps()
        let target = try redirectTarget()
        let session = scripted([.fail(reason, at: target), .echo], log: log)
        let failure = try await #require(throws: BatchFailure.self) {
            try await client(session, retries: 3, sleeps: sleeps).send(try oneBatch()).items
        }
        #expect(failure.mayHaveBeenSaved)
        #expect(failure.error == .network(url: target, reason: reason))
        #expect(await log.requests.count == 1, "a blind re-send could register the items twice")
        #expect(await sleeps.delays.isEmpty)
    }
}

@Suite("The bearer token on requests and out of error messages")
struct ClientTokenTests {
    static let token = "tok-S3CRET-4242"

    @Test("a token is sent as Authorization: Bearer on GET and on every POST attempt")
    func bearerHeader() async throws {
        let getLog = RequestLog()
        let postLog = RequestLog()
        _ = try await client(scripted([.status(200)], log: getLog), token: Self.token).fetch(january()).items
        _ = try await client(scripted([.fail(.refused), .echo], log: postLog), retries: 1, token: Self.token).send(
            try oneBatch()
        ).items
        let requests = await getLog.requests + postLog.requests
        #expect(requests.map(\.method) == ["GET", "POST", "POST"])
        #expect(requests.allSatisfy { $0.headers["Authorization"] == "Bearer \(Self.token)" })
    }

    @Test("without a token no Authorization header is sent")
    func noToken() async throws {
        let log = RequestLog()
        _ = try await client(FakeSession.json("[]").recording(into: log)).fetch(january()).items
        _ = try await client(FakeSession.echo.recording(into: log)).send(try oneBatch()).items
        let requests = await log.requests
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.headers["Authorization"] == nil })
    }

    @Test("a token the server echoes in an error status is scrubbed from the error", arguments: [401, 403, 500])
    func scrubbedFromStatus(status: Int) async throws {
        let body = #"{"error":"invalid token \#(Self.token) for this deployment"}"#
        let error = try await #require(throws: APIError.self) {
            try await client(.json(body, status: status), token: Self.token).fetch(january()).items
        }
        guard case .httpStatus(_, status, let snippet) = error else {
            Issue.record("expected httpStatus, got \(error)")
            return
        }
        #expect(!snippet.contains(Self.token))
        #expect(snippet.contains("invalid token ***"))
        #expect(!error.description.contains(Self.token))
    }

    @Test(
        "a token echoed in an HTML page or broken JSON is scrubbed too",
        arguments: ["<html>Bearer \(ClientTokenTests.token)</html>", "[{\"id\":\"\(ClientTokenTests.token)\""])
    func scrubbedFromInvalidResponse(body: String) async throws {
        let error = try await #require(throws: APIError.self) {
            try await client(.json(body), token: Self.token).fetch(january()).items
        }
        guard case .invalidResponse = error else {
            Issue.record("expected invalidResponse, got \(error)")
            return
        }
        #expect(!error.description.contains(Self.token))
        #expect(error.description.contains("***"))
    }

    @Test("a failed POST's BatchFailure does not carry the echoed token")
    func scrubbedFromBatchFailure() async throws {
        let body = "forbidden: \(Self.token)"
        let failure = try await #require(throws: BatchFailure.self) {
            try await client(.json(body, status: 403), token: Self.token).send(try oneBatch()).items
        }
        #expect(!failure.description.contains(Self.token))
        #expect(!"\(failure.error)".contains(Self.token))
        #expect(!failure.mayHaveBeenSaved)
    }

    @Test("the retry notice does not carry the echoed token")
    func scrubbedFromRetryNotice() async throws {
        let events = EventLog()
        let session = scripted(
            [.status(503, body: "overloaded, token=\(Self.token)"), .status(200)], log: RequestLog())
        _ = try await observedClient(session, retries: 1, token: Self.token, events: events, sleeps: Sleeps()).fetch(
            january()
        ).items
        let notices = events.events.compactMap { event -> APIError? in
            if case let .retrying(_, error, _, _, _) = event { return error } else { return nil }
        }
        try #require(notices.count == 1)
        #expect(!notices[0].description.contains(Self.token))
    }

    @Test("a transport failure whose detail holds the token is scrubbed from the error and from the failed event")
    func scrubbedFromTransportDetail() async throws {
        let events = EventLog()
        let session = scripted([.fail(.other("proxy refused header Bearer \(Self.token)"))], log: RequestLog())
        let error = try await #require(throws: APIError.self) {
            try await observedClient(session, retries: 0, token: Self.token, events: events, sleeps: Sleeps()).fetch(
                january()
            ).items
        }
        #expect(!error.description.contains(Self.token))
        let failed = events.events.compactMap { event -> APIError? in
            if case let .failed(_, error, _, _) = event { return error } else { return nil }
        }
        try #require(failed.count == 1)
        // `--verbose` prints this event's reason, so it must be as clean as the thrown error.
        #expect(!failed[0].description.contains(Self.token), "the .failed event leaks: \(failed[0])")
    }
}
