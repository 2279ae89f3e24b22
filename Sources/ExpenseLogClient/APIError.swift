import ExpenseLogHTTP
import Foundation

/// A failed call to the server, saying what to do next.
public enum APIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request got no HTTP answer.
    case network(url: URL, reason: NetworkFailure)
    /// The server answered with an error status.
    case httpStatus(url: URL, status: Int, snippet: String)
    /// The server answered 2xx, but not with the JSON expected.
    case invalidResponse(url: URL, status: Int, reason: String, snippet: String)
    /// The answer's body passed the size limit and was cut off.
    case answerTooLarge(url: URL, limit: Int)
    /// A dummy-environment fixture file is missing or unreadable.
    case fixtureUnreadable(path: String, reason: String)
    /// A month that no sheet can hold (month outside 1–12, year outside 1–9999); nothing was sent.
    case invalidMonth(year: Int, month: Int)
    /// The bundled web app (`server script`) refused the request with its JSON error: `{"error":{"kind","message"}}`.
    case scriptRefused(url: URL, kind: String, message: String)
    /// Apps Script's page for an execution it ended (its time limit, its services failing): fate unknown, safe to send again.
    case scriptStopped(url: URL, message: String)

    /// The message shown to the user.
    public var description: String {
        switch self {
        case let .network(url, reason):
            return "could not reach \(URLRedaction.redacted(url)): \(reason)"
        case let .httpStatus(url, status, snippet) where status == 401 || status == 403:
            return
                "\(URLRedaction.redacted(url)) answered HTTP \(status) (\(status == 401 ? "unauthorized" : "forbidden")). "
                + "Check that the web app is deployed for the account you use and that your token is right."
                + APIError.quote(snippet)
        case let .httpStatus(url, status, snippet):
            let hint = status >= 500 ? "The server failed; try again later." : "Check the base URL and the request."
            return "\(URLRedaction.redacted(url)) answered HTTP \(status). \(hint)" + APIError.quote(snippet)
        case let .invalidResponse(url, status, reason, snippet):
            return "\(URLRedaction.redacted(url)) answered HTTP \(status), but \(reason)." + APIError.quote(snippet)
        case let .answerTooLarge(url, limit):
            return
                "\(URLRedaction.redacted(url)) sent an answer larger than \(limit >> 20) MiB, and it was cut off there: a "
                + "month of items is far smaller, so this is not the web app's answer (check the URL). If it really is, raise "
                + "\"maxAnswerMiB\" in the config file."
        case let .fixtureUnreadable(path, reason):
            return "the dummy fixture \(path) is unavailable (\(reason)). "
                + "Point --fixtures or EXPENSE_LOG_FIXTURES at a folder holding fetch.json and register.json."
        case let .scriptRefused(url, kind, message)
        where kind == "unauthorized" && URLRedaction.pathKey(of: url) != nil:
            return
                "\(URLRedaction.redacted(url)) refused the request: \(message). The key at the end of the base URL (…/exec/***) "
                + "must be the web app's script property EXPENSE_LOG_KEY (and a token set here as well must be the same): "
                + "fix the URL with `expense-log config set baseURL`"
        case let .scriptRefused(url, kind, message) where kind == "unauthorized":
            return
                "\(URLRedaction.redacted(url)) refused the request: \(message). The web app's script property EXPENSE_LOG_KEY and "
                + "the token here must be the same: set it with `expense-log config set-token` (or EXPENSE_LOG_TOKEN)"
        case let .scriptRefused(url, kind, message) where kind == "unavailable":
            return
                "\(URLRedaction.redacted(url)) could not finish: Google's services failed under the web app's script (\(message)); "
                + "what it did before that stays, and asking again is safe"
        case let .scriptRefused(url, kind, message):
            return "\(URLRedaction.redacted(url)) refused the request (\(kind)): \(message)"
        case let .scriptStopped(url, message):
            return
                "\(URLRedaction.redacted(url)) did not finish: Apps Script stopped the web app's script (\(message)); what it did "
                + "before that stays, and asking again is safe"
        case let .invalidMonth(year, month):
            return "\(year)-\(month) is not a month (the year has four digits, the month is 1 to 12); nothing was sent."
        }
    }

    static func quote(_ snippet: String) -> String {
        snippet.isEmpty ? "" : "\nThe answer began: \(snippet)"
    }

    /// The start of a body, one line, for error messages, with each of `secrets` hidden in every form a server may echo
    /// it in (raw, JSON-escaped, percent-encoded), across the whole of the first 64 KiB, before the cut: no part of it can
    /// show at the edge, however often it is repeated.
    static func snippet(_ body: Data, hiding secrets: [String] = []) -> String {
        var whole = body
        let secrets = secrets.filter { !$0.isEmpty }
        if !secrets.isEmpty {
            var text = String(decoding: body.prefix(65_536), as: UTF8.self)
            for form in secrets.flatMap(escapedForms).sorted(by: { $0.count > $1.count }) {
                text = text.replacingOccurrences(of: form, with: "***")
            }
            whole = Data(text.utf8)
        }
        let text = String(decoding: whole.prefix(160), as: UTF8.self)
        let oneLine = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return oneLine.count < text.count || whole.count > 160 ? oneLine + "…" : oneLine
    }

    /// The secret as JSON encoders (with and without `\/`) and URL encoders (RFC 3986's unreserved set, or letters
    /// and digits only) write it.
    static func escapedForms(of secret: String) -> Set<String> {
        let json = secret.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        var unreserved = CharacterSet.alphanumerics
        unreserved.insert(charactersIn: "-._~")
        return [
            secret, json, json.replacingOccurrences(of: "/", with: "\\/"),
            secret.addingPercentEncoding(withAllowedCharacters: unreserved) ?? secret,
            secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret,
        ]
    }
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
        case .scriptRefused(_, let kind, _): return kind == "busy" || kind == "unavailable"
        case .scriptStopped: return true
        case .invalidResponse, .answerTooLarge, .fixtureUnreadable, .invalidMonth: return false
        }
    }

    /// Whether the bundled script said the item asked for is not where it was named.
    public var isNotFound: Bool {
        if case .scriptRefused(_, "not-found", _) = self { return true }
        return false
    }

    /// Whether the bundled script refused an update because a field it changes was changed on the server since.
    public var isConflict: Bool {
        if case .scriptRefused(_, "conflict", _) = self { return true }
        return false
    }

    /// Whether a retry may help: connection failures, timeouts, 429, 502, 503 and 504 (the contract's list).
    public var isRetryable: Bool {
        switch self {
        case .network: return isTransient
        case .httpStatus(_, let status, _): return [429, 502, 503, 504].contains(status)
        case .scriptRefused(_, let kind, _): return kind == "busy" || kind == "unavailable"
        case .scriptStopped: return true
        case .invalidResponse, .answerTooLarge, .fixtureUnreadable, .invalidMonth: return false
        }
    }

    /// Whether the server could not be reached at all: nothing listens there, or this machine has no network.
    public var isUnreachable: Bool {
        guard case .network(_, let reason) = self else { return false }
        switch reason {
        case .refused, .offline: return true
        default: return false
        }
    }

    /// Whether a POST that failed like this provably never ran: no connection to the endpoint was made, or the endpoint
    /// itself (not a redirect's target: Apps Script redirects only after running the script) refused it with a 4xx or 503.
    func provesNotProcessed(requestURL: URL) -> Bool {
        switch self {
        case let .network(url, reason):
            // Only a failure reaching the endpoint itself: one on a redirect's target comes after the script ran.
            switch reason {
            case .refused, .hostNotFound, .lookupTimedOut, .offline, .tls: return url == requestURL
            case .timedOut, .connectionLost, .redirect, .other: return false
            }
        case let .httpStatus(url, status, _):
            return url == requestURL && ((400...499).contains(status) || status == 503)
        case .invalidResponse, .answerTooLarge, .scriptStopped: return false
        // The script refused before it changed anything; a failure of the script or of Google's services may come after.
        case .scriptRefused(_, let kind, _): return !["script", "unavailable"].contains(kind)
        case .fixtureUnreadable, .invalidMonth: return true
        }
    }

    /// Whether the failure came after the script ran to its end, so that nothing can still be running on the server: an
    /// answer was read (a 200 that is no list of items), or the failure was on the redirect's target, which Apps Script
    /// gives only once the script has finished.
    public func scriptFinished(requestURL: URL) -> Bool {
        switch self {
        case .invalidResponse, .answerTooLarge, .fixtureUnreadable, .invalidMonth, .scriptRefused, .scriptStopped:
            return true
        case .httpStatus(let url, _, _), .network(let url, _): return url != requestURL
        }
    }

    /// The same error with the secrets replaced wherever the server's answer echoed them.
    func redacting(_ secrets: [String]) -> APIError {
        let secrets = secrets.filter { !$0.isEmpty }
        guard !secrets.isEmpty else { return self }
        func clean(_ text: String) -> String { secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "***") } }
        switch self {
        case let .httpStatus(url, status, snippet):
            return .httpStatus(url: url, status: status, snippet: clean(snippet))
        case let .invalidResponse(url, status, reason, snippet):
            return .invalidResponse(url: url, status: status, reason: clean(reason), snippet: clean(snippet))
        case let .network(url, .other(detail)): return .network(url: url, reason: .other(clean(detail)))
        case let .scriptRefused(url, kind, message):
            return .scriptRefused(url: url, kind: kind, message: clean(message))
        case let .scriptStopped(url, message): return .scriptStopped(url: url, message: clean(message))
        default: return self
        }
    }
}

extension APIError {
    /// The client's error for what the transport reported.
    public init(_ failure: TransportError) {
        switch failure {
        case let .network(url, reason): self = .network(url: url, reason: reason)
        case let .answerTooLarge(url, limit): self = .answerTooLarge(url: url, limit: limit)
        }
    }
}
