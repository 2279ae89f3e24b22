import ExpenseLogClient
import ExpenseLogConfig
import ExpenseLogStore
import Foundation

/// How long a batch whose answer was lost waits before it is sent again: not at all on the bundled web app, which under
/// its lock appends an id its month already has only once (so a resend cannot double an execution still running);
/// else the config's `serverMaxExecutionSeconds`, by default Apps Script's 6 minutes.
enum ResendPolicy {
    /// The wait for a server described by `info` (nil: never asked); a wait set in the config file is kept as set.
    static func wait(_ config: AppConfig, info: ServerInfo?) -> ResendWait {
        guard config.resendWait.source == "default", info?.app == "expense-log" else { return config.resendWait.value }
        return ResendWait(seconds: 0)
    }

    /// The wait for `sync`: when a batch would have to wait and the server was never asked, it is asked `?action=info`
    /// once (and the answer remembered), since a wait of minutes is worth a GET.
    static func wait(for entries: [OutboxEntry], _ outbox: Outbox, _ client: ExpenseLogAPIClient, _ repository: LocalRepository,
                     _ config: AppConfig, _ context: Context) async -> ResendWait {
        var info = await repository.serverInfo()
        let now = Date()
        let waits = entries.contains { outbox.attempts(in: $0).values.contains { now < config.resendWait.value.safe(after: $0) } }
        guard waits, config.resendWait.source == "default" else { return wait(config, info: info) }
        if info == nil, let asked = try? await client.info() {
            info = asked
            try? await repository.saveServerInfo(asked)
        }
        let wait = wait(config, info: info)
        if wait.seconds == 0 {
            context.note("The server is expense-log's web app, which saves an id only once: a batch whose answer was lost is sent again at once.")
        }
        return wait
    }
}
