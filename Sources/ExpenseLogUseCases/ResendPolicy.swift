import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// How long a batch whose answer was lost waits before it is sent again: not at all on the bundled web app, which under
/// its lock appends an id its month already has only once (so a resend cannot double an execution still running);
/// else the configured wait (`serverMaxExecutionSeconds`), by default Apps Script's 6 minutes.
public struct ResendPolicy: Sendable {
    /// The wait the config gives.
    public let configured: ResendWait
    /// Whether that is the default (a wait set in the config file is kept as set, whatever the server).
    public let isDefault: Bool

    /// A policy over the configured wait.
    public init(configured: ResendWait, isDefault: Bool) {
        (self.configured, self.isDefault) = (configured, isDefault)
    }

    /// The wait for a server described by `info` (nil: never asked).
    public func wait(info: ServerInfo?) -> ResendWait {
        guard isDefault, info?.app == "expense-log" else { return configured }
        return ResendWait(seconds: 0)
    }

    /// The wait for sending `entries`: when a batch would have to wait and the server was never asked, it is asked
    /// `?action=info` once (and the answer remembered), since a wait of minutes is worth a GET. `atOnce` is true when
    /// that answer (or one remembered) lifted the wait.
    public func wait(
        for entries: [ItemEntry], _ journal: Journal, _ client: ExpenseLogAPIClient,
        _ repository: LocalRepository
    ) async -> (wait: ResendWait, atOnce: Bool) {
        var info = await repository.serverInfo()
        let now = Date()
        let waits = entries.contains { journal.attempts(in: $0).values.contains { now < configured.safe(after: $0) } }
        guard waits, isDefault else { return (wait(info: info), false) }
        if info == nil, let asked = try? await client.info() {
            info = asked
            try? await repository.saveServerInfo(asked)
        }
        let wait = wait(info: info)
        return (wait, wait.seconds == 0)
    }
}
