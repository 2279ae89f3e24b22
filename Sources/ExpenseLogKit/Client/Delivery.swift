import Foundation

/// A batch of items sent in one POST, with the `Idempotency-Key` it keeps on every re-send.
public struct OutboxBatch: Sendable, Equatable {
    /// The key (an uppercase UUID) sent as `Idempotency-Key`, the same on every attempt and every `sync`.
    public let key: String
    /// The items, in input order.
    public let items: [Item]
    /// The items as the JSON array that is POSTed and queued: encoded once, here, for both.
    public let body: Data

    /// A batch with a given key.
    public init(key: String, items: [Item]) {
        self.key = key
        self.items = items
        body = Data(ItemJSON.arrayBytes(items))
    }

    /// A batch whose body was already encoded from these items (and queued), so it is not encoded again.
    public init(key: String, items: [Item], body: Data) {
        (self.key, self.items, self.body) = (key, items, body)
    }

    /// The same batch with fewer items. Its key is derived from the original key and the items' ids, so a re-send of
    /// the same narrowed batch repeats the key, while a server that honours keys never sees one key with two bodies.
    public func narrowed(to items: [Item]) -> OutboxBatch {
        guard items.map(\.id) != self.items.map(\.id) else { return self }
        let text = ([key] + items.map(\.id)).joined(separator: "\u{1F}")
        func fnv1a(_ seed: UInt64) -> UInt64 {
            text.utf8.reduce(seed) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
        }
        let high = fnv1a(0xCBF2_9CE4_8422_2325), low = fnv1a(0x8422_2325_CBF2_9CE4)
        let hex = String(high, radix: 16, uppercase: true).leftPadded(16) + String(low, radix: 16, uppercase: true).leftPadded(16)
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return OutboxBatch(key: parts.joined(separator: "-"), items: items)
    }

    /// Splits items into batches of at most `size`, each with a fresh key.
    public static func split(_ items: [Item], size: Int) -> [OutboxBatch] {
        let size = max(1, size)
        return stride(from: 0, to: items.count, by: size).map { start in
            OutboxBatch(key: RandomID.make(), items: Array(items[start..<min(start + size, items.count)]))
        }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
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
        case .invalidResponse, .answerTooLarge, .fixtureUnreadable, .invalidMonth: return false
        }
    }

    /// Whether a retry may help: connection failures, timeouts, 429, 502, 503 and 504 (the contract's list).
    public var isRetryable: Bool {
        switch self {
        case .network: return isTransient
        case .httpStatus(_, let status, _): return [429, 502, 503, 504].contains(status)
        case .invalidResponse, .answerTooLarge, .fixtureUnreadable, .invalidMonth: return false
        }
    }

    /// Whether a POST that failed like this provably never ran: no connection to the endpoint was made, or the endpoint
    /// itself (not a redirect's target: Apps Script redirects only after running the script) refused it with a 4xx or 503.
    func provesNotProcessed(requestURL: URL) -> Bool {
        switch self {
        case let .network(url, reason):
            // Only a failure reaching the endpoint itself: one on a redirect's target comes after the script ran.
            switch reason {
            case .refused, .hostNotFound, .offline, .tls: return url == requestURL
            case .timedOut, .connectionLost, .redirect, .other: return false
            }
        case let .httpStatus(url, status, _):
            return url == requestURL && ((400...499).contains(status) || status == 503)
        case .invalidResponse, .answerTooLarge: return false
        case .fixtureUnreadable, .invalidMonth: return true
        }
    }

    /// Whether the failure came after the script ran to its end, so that nothing can still be running on the server: an
    /// answer was read (a 200 that is no list of items), or the failure was on the redirect's target, which Apps Script
    /// gives only once the script has finished.
    func scriptFinished(requestURL: URL) -> Bool {
        switch self {
        case .invalidResponse, .answerTooLarge, .fixtureUnreadable, .invalidMonth: return true
        case .httpStatus(let url, _, _), .network(let url, _): return url != requestURL
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
