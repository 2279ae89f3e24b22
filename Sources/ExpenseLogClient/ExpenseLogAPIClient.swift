import ExpenseLogFormats
import ExpenseLogHTTP
import ExpenseLogModel
import Foundation

/// Fetches and registers items over a `Session`, retrying what the contract allows and turning answers into items or `APIError`s.
public struct ExpenseLogAPIClient: Sendable {
    /// The transport.
    public let session: any Session
    /// The web app's URL.
    public let baseURL: URL
    /// Overrides the per-call timeouts when set.
    public let timeout: Double?
    /// Sent as `Authorization: Bearer …` and as the `key` query parameter when set; never logged.
    let token: String?
    /// When to try again.
    public let retryPolicy: RetryPolicy
    /// Told about every attempt and every wait.
    let onEvent: @Sendable (ClientEvent) -> Void
    /// Waits between attempts (tests pass one that does not really sleep).
    let sleep: @Sendable (Double) async throws -> Void
    /// Reads answers as the spreadsheet behind the server retypes them.
    public let rows: SheetRows
    /// The largest answer accepted, in bytes.
    public let maxAnswerBytes: Int

    /// A client for one base URL over a session.
    public init(
        session: any Session, baseURL: URL, timeout: Double? = nil, token: String? = nil,
        retryPolicy: RetryPolicy = RetryPolicy(), serverTimeZone: TimeZone = SheetRows.defaultTimeZone,
        maxAnswerBytes: Int = HTTPRequest.defaultMaxAnswerBytes,
        onEvent: @escaping @Sendable (ClientEvent) -> Void = { _ in },
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
    ) {
        self.session = session
        self.baseURL = baseURL
        self.timeout = timeout
        self.token = token
        self.retryPolicy = retryPolicy
        self.onEvent = onEvent
        self.sleep = sleep
        rows = SheetRows(timeZone: serverTimeZone)
        self.maxAnswerBytes = maxAnswerBytes
    }

    /// The items of one month, as the server has them (with the rows it could not read); a GET is retried on every
    /// transient failure.
    /// `withPayer` asks the bundled script for who paid (`&fields=payer`).
    public func fetch(_ month: YearMonth, withPayer: Bool = false) async throws -> SheetAnswer {
        let request = authorized(
            ExpenseLogAPI.fetch(month, withPayer: withPayer).request(baseURL: baseURL, timeout: timeout))
        return try await perform(request, mayRetry: { _ in true })
    }

    /// The items of one month given as numbers; an impossible month is an `APIError.invalidMonth`.
    public func fetch(year: Int, month: Int) async throws -> SheetAnswer {
        guard let value = YearMonth(year: year, month: month) else {
            throw APIError.invalidMonth(year: year, month: month)
        }
        return try await fetch(value)
    }

    /// POSTs one batch with its `Idempotency-Key` and returns the items the server saved, or throws a `BatchFailure`.
    ///
    /// A POST is retried only when the failure proves the server did not run it; any other failure leaves
    /// its fate unknown, and re-sending it blindly could register the items twice. With `action`, the batch goes as
    /// the bundled script's register action, whose answer names the ids that were already there.
    /// `keepsShare`: the server keeps who paid (the bundled script's `payer`); else the items go as the app's six fields.
    public func send(_ batch: OutboxBatch, action: Bool = false, keepsShare: Bool = false) async throws -> SheetAnswer {
        // Another script keeps the app's six fields only (and a strict one refuses more): who paid stays here.
        let batch =
            !keepsShare && batch.items.contains(where: \.hasShare)
            ? OutboxBatch(key: batch.key, items: batch.items.map(\.withoutShare)) : batch
        var request = authorized(
            action
                ? ExpenseLogAPI.registerAction(body: batch.body, baseURL: baseURL, timeout: timeout)
                : ExpenseLogAPI.register(body: batch.body, baseURL: baseURL, timeout: timeout))
        request.headers["Idempotency-Key"] = batch.key
        let url = request.url
        do {
            guard action else {
                return try await perform(request, mayRetry: { $0.provesNotProcessed(requestURL: url) }) { response in
                    try Self.decodeAnswer(response, rows: rows, hiding: secrets, sent: batch)
                }
            }
            return try await perform(request, mayRetry: { $0.provesNotProcessed(requestURL: url) }) { response in
                try Self.decodeRegisterAnswer(response, rows: rows, hiding: secrets)
            }
        } catch let error as APIError {
            throw BatchFailure(error: error, mayHaveBeenSaved: !error.provesNotProcessed(requestURL: url))
        }
    }

    /// What no message may show: the token, and the key in the base URL's path (`…/exec/KEY`).
    var secrets: [String] { [token, URLRedaction.pathKey(of: baseURL)].compactMap { $0 } }

    /// The request with the token and the answer size limit (for the extensions' calls too). The token goes as `Authorization: Bearer …` and as the
    /// `key` query parameter: Apps Script hands a web app no request headers, so the bundled script (`server script`)
    /// reads its key from the query. Every URL shown (errors, `--verbose`) has its query values but the month's masked.
    func authorized(_ request: HTTPRequest) -> HTTPRequest {
        var request = request
        request.maxAnswerBytes = maxAnswerBytes
        if let token {
            request.headers["Authorization"] = "Bearer \(token)"
            if var parts = URLComponents(url: request.url, resolvingAgainstBaseURL: false) {
                parts.queryItems = (parts.queryItems ?? []) + [URLQueryItem(name: "key", value: token)]
                // `+` and `&` in a token must reach the script as they are, not as a space or a new parameter.
                parts.percentEncodedQuery = parts.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
                if let url = parts.url { request.url = url }
            }
        }
        return request
    }

    /// Sends with retries: backoff with full jitter, or the server's `Retry-After`.
    private func perform(_ request: HTTPRequest, mayRetry: (APIError) -> Bool) async throws -> SheetAnswer {
        try await perform(request, mayRetry: mayRetry) { response in
            try Self.decodeAnswer(response, rows: rows, hiding: secrets)
        }
    }

    /// As `perform(_:mayRetry:)`, reading the answer with `decode`.
    func perform<Answer>(
        _ request: HTTPRequest, mayRetry: (APIError) -> Bool,
        decode: (HTTPResponse) throws -> Answer
    ) async throws -> Answer {
        let clock = ContinuousClock()
        let attempts = retryPolicy.maxRetries + 1
        var attempt = 1
        while true {
            let start = clock.now
            var retryAfter: Double?
            let failure: APIError
            do {
                let response = try await session.send(request)
                onEvent(.answered(request, response, elapsed: clock.now - start, attempt: attempt))
                retryAfter = response.headers["retry-after"].flatMap { RetryAfter.seconds($0, now: Date()) }
                return try decode(response)
            } catch let error as TransportError {
                failure = APIError(error).redacting(secrets)
                if case .network = failure {
                    onEvent(.failed(request, failure, elapsed: clock.now - start, attempt: attempt))
                }
            } catch let error as APIError {
                // A refusal is named by the URL asked, not by the one Apps Script answered from (its echo host).
                if case let .scriptRefused(_, kind, message) = error {
                    failure = APIError.scriptRefused(url: request.url, kind: kind, message: message).redacting(secrets)
                } else {
                    failure = error.redacting(secrets)
                }
                if case .network = failure {
                    onEvent(.failed(request, failure, elapsed: clock.now - start, attempt: attempt))
                }
            }
            guard attempt < attempts, failure.isRetryable, mayRetry(failure),
                retryPolicy.retriesUnreachable || !failure.isUnreachable,
                let delay = retryPolicy.delay(beforeRetry: attempt, retryAfter: retryAfter)
            else { throw failure }
            onEvent(.retrying(request, failure, delay: delay, attempt: attempt + 1, of: attempts))
            try await sleep(delay)
            attempt += 1
        }
    }
}
