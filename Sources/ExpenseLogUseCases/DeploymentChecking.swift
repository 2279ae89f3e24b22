import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// What `server check` found: which script answers at the URL, and, for the bundled one, its self-test on Google.
public enum DeploymentCheckOutcome: Sendable {
    /// The URL answers no `?action=info` of ours: the original app's script (or another server), which has no self-test.
    case notBundled
    /// The bundled script, in a version older than the self-test: it needs updating.
    case outdated(ServerInfo)
    /// The self-test ran.
    case checked(ServerInfo, DeploymentReport)
    /// The self-test may have run without finishing (Apps Script or Google's services stopped it, or its answer never
    /// came), so its temporary spreadsheet may remain.
    case unfinished(APIError)
}

/// Asks a deployment which script it runs (`?action=info`) and, for the bundled script with one, to run its self-test.
public struct DeploymentChecking: Sendable {
    /// The client that asks.
    public let client: ExpenseLogAPIClient
    /// The cache that remembers what the server is.
    public let repository: LocalRepository

    /// A check over a client and the server's cache.
    public init(client: ExpenseLogAPIClient, repository: LocalRepository) {
        (self.client, self.repository) = (client, repository)
    }

    /// Runs the check; a failure to reach the server or a refusal (a wrong key) is thrown.
    public func run() async throws -> DeploymentCheckOutcome {
        guard let info = try await client.info() else {
            // No info of ours: a web app of another script only if it answers a month; else what is wrong (a 404, a
            // sign-in page) is thrown as a fetch would say it.
            _ = try await client.fetch(YearMonth.current())
            return .notBundled
        }
        // Asked anew, so a deployment updated since is seen as it is now.
        try? await repository.saveServerInfo(info)
        guard info.offers("check") else { return .outdated(info) }
        do {
            return .checked(info, try await client.selfCheck())
        } catch let error as APIError where Self.unfinished(error) {
            return .unfinished(error)
        }
    }

    /// Whether a failed request may have run without finishing: stopped by Apps Script or Google's services, or its
    /// answer never came.
    static func unfinished(_ error: APIError) -> Bool {
        switch error {
        case .scriptStopped, .scriptRefused(_, "unavailable", _), .network(_, .timedOut), .network(_, .connectionLost):
            true
        default: false
        }
    }
}
