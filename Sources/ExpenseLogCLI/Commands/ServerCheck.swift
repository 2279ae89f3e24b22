import ExpenseLogHTTP
import ExpenseLogUseCases
import Foundation

/// `server check`: asks the deployed web app to test itself on Google and prints what held as a checklist.
enum ServerCheck {
    static let spec = CommandSpec(
        name: "check", abstract: "Ask the deployed web app to test itself on Google (run it after each deployment).",
        discussion: """
            The bundled script (version 2 or later) creates a temporary spreadsheet in your Drive, writes what this \
            tool relies on (0120, TRUE, 12:30, 2024/2/3, =1+1, +81, @x, an id 00123, a refund, a 50,000-character \
            name, the longest batch the client sends), reads it back as the client would, edits and deletes, times \
            each action, and moves the spreadsheet to the trash, also when a step fails. It runs under the script's \
            lock, with the key when one is set. Exit 0 only when every check held; 1 when one did not; 69 when the \
            URL runs an older version of the script or not the bundled script at all, or the check did not finish; \
            77 when the key is refused; 78 in the dummy environment, which has no web app.

            EXAMPLES:
              expense-log server check
              expense-log --env development server check
            """)

    static func run(_ invocation: Invocation, _ context: Context) async throws {
        let config = try context.config()
        guard config.environment.value.usesNetwork else {
            context.io.stderr.write("Error: server check asks a deployed web app to test itself, and the dummy environment "
                                    + "(\(config.environment.source)) has none: use --env development or --env release.\n")
            throw CommandExit(code: .configuration)
        }
        let client = try context.client(config)
        let url = URLRedaction.redacted(client.baseURL)
        context.note("Asking \(url) to test itself on Google (a temporary spreadsheet in your Drive; a few seconds, up to a "
                     + "minute on a slow deployment)…")
        switch try await DeploymentChecking(client: client, repository: context.repository(config)).run() {
        case .unfinished(let error):
            context.io.stderr.write("Error: \(error)\nThe check did not finish, so a temporary spreadsheet \"expense-log check …\" may "
                                    + "remain in your Drive: the next check moves it to the trash (or delete it by hand). A check "
                                    + "that does not finish in time means this deployment answers slowly; try again later, or with "
                                    + "a longer --timeout.\n")
            throw CommandExit(code: .unavailable)
        case .notBundled:
            context.io.stderr.write("Error: \(url) does not run expense-log's script (it answers no ?action=info as the bundled "
                                    + "script does; the original app's script, say), and only that script can test itself. Deploy "
                                    + "it: `expense-log server script` prints it, and docs/server.md walks through it.\n")
            throw CommandExit(code: .unavailable)
        case .outdated(let info):
            context.io.stderr.write("Error: \(url) runs an older version of expense-log's script (version \(info.version)), which has "
                                    + "no self-test. Update it: paste the output of `expense-log server script` over Code.gs, then "
                                    + "Deploy › Manage deployments › Edit › Version: New version (the URL stays the same), and run "
                                    + "`expense-log server check` again.\n")
            throw CommandExit(code: .unavailable)
        case let .checked(_, report):
            DeploymentReportText.render(report, timeout: config.timeout, context)
            guard report.passed else { throw CommandExit(code: .failure) }
        }
    }
}
