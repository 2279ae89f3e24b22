import ExpenseLogClient
import ExpenseLogHTTP
import Foundation

/// What the ledger needs from outside the library: the process environment (the token, the proxy), the live session and
/// the wait between attempts (tests pass their own), and where the client's events and the ledger's notices go.
public struct LedgerHooks: Sendable {
    /// The process environment.
    public var environment: [String: String]
    /// Makes the live session; nil: the platform's (libcurl on Linux, URLSession on macOS).
    public var makeLiveSession: (@Sendable () -> any Session)?
    /// Waits between a request's attempts.
    public var sleep: @Sendable (Double) async throws -> Void
    /// Hears each request's events (the CLI's `--verbose` log).
    public var onClientEvent: @Sendable (ClientEvent) -> Void
    /// Hears what the ledger did on its own that a person should know.
    public var notice: @Sendable (LedgerNotice) -> Void

    /// Hooks over an environment; the rest defaults to the platform's session, real waits, and nobody listening.
    public init(
        environment: [String: String], makeLiveSession: (@Sendable () -> any Session)? = nil,
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) },
        onClientEvent: @escaping @Sendable (ClientEvent) -> Void = { _ in },
        notice: @escaping @Sendable (LedgerNotice) -> Void = { _ in }
    ) {
        (self.environment, self.makeLiveSession, self.sleep) = (environment, makeLiveSession, sleep)
        (self.onClientEvent, self.notice) = (onClientEvent, notice)
    }
}

/// What the ledger did on its own, or noticed, that a person should know.
public enum LedgerNotice: Sendable {
    /// Months cached before the cache was kept per server were moved aside (`count`, into `legacy`; the cache is now
    /// `cache`).
    case legacyCacheMoved(count: Int, legacy: URL, cache: URL)
    /// Writes an earlier version queued in two folders were moved into the journal (`count`, into `journal`).
    case journalMoved(count: Int, journal: URL)
    /// What an earlier version queued could not be moved into the journal (it stays where it is, for the next run).
    case journalNotMoved(any Error)
    /// The token goes to `host` over plain http.
    case tokenOverPlainHTTP(host: String)
    /// Fixed-cost rules this machine kept (`count` new to the server) were moved up to the server, which now keeps them.
    case recurringRulesMoved(count: Int, from: URL, to: URL)
}
