import Foundation

/// What a live session can fail with; the server client turns it into an `APIError`.
public enum TransportError: Error, Sendable, Equatable {
    /// The request did not reach the server, or no whole answer came back.
    case network(url: URL, reason: NetworkFailure)
    /// The answer was larger than the request's `maxAnswerBytes`, and cut off there.
    case answerTooLarge(url: URL, limit: Int)
}

/// Why a request never got an answer (from libcurl's or URLSession's error, wrapped in a `TransportError` for callers).
public enum NetworkFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing listens at the address (connection refused).
    case refused
    /// No answer in time.
    case timedOut
    /// The host name does not resolve.
    case hostNotFound
    /// The host name was not resolved before the timeout (nothing was sent).
    case lookupTimedOut
    /// The machine has no network.
    case offline
    /// The connection closed before a whole answer came.
    case connectionLost
    /// The TLS handshake failed.
    case tls(String)
    /// Redirects looped or led nowhere.
    case redirect(String)
    /// Anything else the transport reported.
    case other(String)

    /// The message shown to the user.
    public var description: String {
        switch self {
        case .refused: return "connection refused (is the server running and the URL right?)"
        case .timedOut: return "no answer before the timeout (try again, or raise --timeout)"
        case .hostNotFound: return "the host name could not be resolved (check the URL and your DNS)"
        case .lookupTimedOut:
            return "the host name was not resolved before the timeout (check your DNS, or raise --timeout)"
        case .offline: return "this machine is not connected to a network"
        case .connectionLost: return "the connection was closed before the whole answer arrived"
        case .tls(let detail): return "the secure connection failed: \(detail)"
        case .redirect(let detail): return "the redirects could not be followed: \(detail)"
        case .other(let detail): return detail
        }
    }
}
