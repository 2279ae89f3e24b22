import ExpenseLogHTTP
import Foundation

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
