import Foundation

/// A batch of items sent in one POST, with the `Idempotency-Key` it keeps on every re-send.
public struct OutboxBatch: Sendable, Equatable {
    /// The key (an uppercase UUID) sent as `Idempotency-Key`, the same on every attempt and every `sync`.
    public let key: String
    /// The items, in input order.
    public let items: [Item]

    /// A batch with a given key.
    public init(key: String, items: [Item]) {
        self.key = key
        self.items = items
    }

    /// Splits items into batches of at most `size`, each with a fresh key.
    public static func split(_ items: [Item], size: Int) -> [OutboxBatch] {
        let size = max(1, size)
        return stride(from: 0, to: items.count, by: size).map { start in
            OutboxBatch(key: UUID().uuidString, items: Array(items[start..<min(start + size, items.count)]))
        }
    }
}

/// A POST the server did not confirm, and whether it may have been saved anyway.
public struct BatchFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong (after any retries).
    public let error: APIError
    /// False only when the failure proves the server never ran the request (refused, or refused by status before a redirect).
    public let mayHaveBeenSaved: Bool

    /// The underlying error's message.
    public var description: String { error.description }
}

/// What the client did, for `--verbose` logs and retry notices.
public enum ClientEvent: Sendable {
    /// An attempt got an HTTP answer.
    case answered(HTTPRequest, HTTPResponse, elapsed: Duration, attempt: Int)
    /// An attempt got no HTTP answer.
    case failed(HTTPRequest, APIError, elapsed: Duration, attempt: Int)
    /// The client waits `delay` seconds before attempt `attempt` of at most `of`.
    case retrying(HTTPRequest, APIError, delay: Double, attempt: Int, of: Int)
}

extension APIError {
    /// Whether the failure may pass by itself (network failures, 429, 5xx): fetch then serves the cache, register queues.
    public var isTransient: Bool {
        switch self {
        case .network(_, let reason):
            if case .tls = reason { return false }
            if case .redirect = reason { return false }
            return true
        case .httpStatus(_, let status, _): return status == 429 || (500...599).contains(status)
        case .invalidResponse, .fixtureUnreadable, .invalidMonth: return false
        }
    }

    /// Whether a retry may help: connection failures, timeouts, 429, 502, 503 and 504 (the contract's list).
    public var isRetryable: Bool {
        switch self {
        case .network: return isTransient
        case .httpStatus(_, let status, _): return [429, 502, 503, 504].contains(status)
        case .invalidResponse, .fixtureUnreadable, .invalidMonth: return false
        }
    }

    /// Whether a POST that failed like this provably never ran: no connection was made, or the endpoint itself
    /// (before any redirect, which Apps Script sends only after running the script) refused it with a 4xx or 503.
    func provesNotProcessed(requestURL: URL) -> Bool {
        switch self {
        case .network(_, let reason):
            switch reason {
            case .refused, .hostNotFound, .offline, .tls: return true
            case .timedOut, .connectionLost, .redirect, .other: return false
            }
        case let .httpStatus(url, status, _):
            return url == requestURL && ((400...499).contains(status) || status == 503)
        case .invalidResponse: return false
        case .fixtureUnreadable, .invalidMonth: return true
        }
    }

    /// The same error with a secret replaced wherever the server's answer echoed it.
    func redacting(_ secret: String?) -> APIError {
        guard let secret, !secret.isEmpty else { return self }
        func clean(_ text: String) -> String { text.replacingOccurrences(of: secret, with: "***") }
        switch self {
        case let .httpStatus(url, status, snippet): return .httpStatus(url: url, status: status, snippet: clean(snippet))
        case let .invalidResponse(url, status, reason, snippet):
            return .invalidResponse(url: url, status: status, reason: clean(reason), snippet: clean(snippet))
        case let .network(url, .other(detail)): return .network(url: url, reason: .other(clean(detail)))
        default: return self
        }
    }
}
