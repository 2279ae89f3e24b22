import ExpenseLogClient
import ExpenseLogHTTP
import Foundation

/// Words the client's events for the person (stderr): every attempt when `verbose`, every retry unless `quiet`; the
/// ledger hands them over through its hooks.
///
/// Only the method, the URL without secrets, the status, sizes and times are shown: never headers or bodies,
/// so the token cannot appear.
public struct RequestLog: Sendable {
    /// Where the lines go.
    let write: @Sendable (String) -> Void
    let verbose: Bool
    let quiet: Bool

    /// A log writing its lines through `write`.
    public init(write: @escaping @Sendable (String) -> Void, verbose: Bool, quiet: Bool) {
        (self.write, self.verbose, self.quiet) = (write, verbose, quiet)
    }

    /// Says an event, if this log's verbosity shows it.
    public func record(_ event: ClientEvent) {
        switch event {
        case let .answered(request, response, elapsed, attempt) where verbose:
            let redirected = response.url == request.url ? "" : " via \(URLRedaction.redacted(response.url))"
            write(
                "> \(Self.target(request)) -> \(response.status), \(request.body?.count ?? 0) bytes sent, "
                    + "\(response.body.count) bytes received in \(Self.milliseconds(elapsed)) ms\(redirected)"
                    + "\(Self.attemptText(attempt))\n")
        case let .failed(request, error, elapsed, attempt) where verbose:
            let reason = if case .network(_, let reason) = error { "\(reason)" } else { "\(error)" }
            write(
                "> \(Self.target(request)) -> failed after \(Self.milliseconds(elapsed)) ms: \(reason)\(Self.attemptText(attempt))\n"
            )
        case let .retrying(request, error, delay, attempt, attempts) where !quiet:
            let cause =
                switch error {
                case .httpStatus(_, let status, _): "HTTP \(status)"
                case .network(_, let reason): Self.shortReason(reason)
                default: "\(error)"
                }
            write(
                "warning: \(Self.target(request)): \(cause); retrying in \(String(format: "%.1f", delay)) s "
                    + "(attempt \(attempt) of \(attempts))\n")
        default:
            break
        }
    }

    static func target(_ request: HTTPRequest) -> String { "\(request.method) \(URLRedaction.redacted(request.url))" }

    static func attemptText(_ attempt: Int) -> String { attempt > 1 ? " (attempt \(attempt))" : "" }

    static func shortReason(_ reason: NetworkFailure) -> String {
        switch reason {
        case .refused: return "connection refused"
        case .timedOut: return "timed out"
        case .connectionLost: return "connection lost"
        default: return "\(reason)"
        }
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
