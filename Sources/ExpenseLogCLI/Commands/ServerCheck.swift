import ExpenseLogKit
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
        let url = APIError.redacted(client.baseURL)
        context.note("Asking \(url) to test itself on Google (a temporary spreadsheet in your Drive; a few seconds, up to a "
                     + "minute on a slow deployment)…")
        let outcome: DeploymentCheckOutcome
        do {
            outcome = try await DeploymentChecking(client: client, repository: context.repository(config)).run()
        } catch let error as APIError where unfinished(error) {
            context.io.stderr.write("Error: \(error)\nThe check did not finish, so a temporary spreadsheet \"expense-log check …\" may "
                                    + "remain in your Drive: the next check moves it to the trash (or delete it by hand). A check "
                                    + "that does not finish in time means this deployment answers slowly; try again later, or with "
                                    + "a longer --timeout.\n")
            throw CommandExit(code: .unavailable)
        }
        switch outcome {
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
            render(report, timeout: config.timeout, context)
            guard report.passed else { throw CommandExit(code: .failure) }
        }
    }

    /// Whether the check may have run without finishing: Apps Script or Google's services stopped it, or its answer never came.
    static func unfinished(_ error: APIError) -> Bool {
        switch error {
        case .scriptStopped, .scriptRefused(_, "unavailable", _), .network(_, .timedOut), .network(_, .connectionLost): true
        default: false
        }
    }

    /// The checklist on stdout, then the timings and what became of the temporary spreadsheet.
    static func render(_ report: DeploymentReport, timeout: Double?, _ context: Context) {
        var out = ""
        for step in report.steps {
            out += "\(step.held ? "✓" : "✗") \(TextTable.printable(step.what))"
            out += step.detail.isEmpty || step.held ? "\n" : ": \(TextTable.printable(step.detail))\n"
        }
        if let error = report.error { out += "✗ the check stopped before its end: \(TextTable.printable(error))\n" }
        if !report.timings.isEmpty {
            // Below a few milliseconds a call's time is noise (an imitation, a cache), and so is a count made from it.
            let call = report.callSeconds.flatMap { $0 >= 0.005 ? $0 : nil }
            out += "\nOn Google, at this deployment's pace" + (call.map { String(format: " (one Sheets call took %.0f ms)", $0 * 1000) } ?? "") + ":\n"
            for timing in report.timings {
                let calls = call.map { ", about \(Int((timing.seconds / $0).rounded())) calls' time" } ?? ""
                out += String(format: "  %@ %d item%@: %.2f s%@\n", timing.action, timing.items, timing.items == 1 ? "" : "s",
                              timing.seconds, calls)
            }
        }
        context.io.stdout.write(out)
        let limit = timeout ?? ExpenseLogAPI.registerTimeout
        for timing in report.timings where timing.seconds > limit / 2 {
            let remedy = timing.action == "register" ? "send smaller batches (register --batch-size) or give a longer --timeout"
                : "give a longer --timeout (a deletion goes in batches of \(ExpenseLogAPIClient.deleteBatch) ids)"
            context.warn("\(timing.action) of \(timing.items) items took \(String(format: "%.1f", timing.seconds)) s on Google, more than "
                         + "half the client's \(Int(limit)) s timeout: \(remedy)")
        }
        if report.leftovers > 0 {
            context.note("\(report.leftovers) spreadsheet\(report.leftovers == 1 ? "" : "s") of an earlier check that did not finish "
                         + "went to the trash as well.")
        }
        if report.removed {
            context.note("The temporary spreadsheet \"\(report.spreadsheet)\" is in your Drive's trash (Drive empties it after 30 days).")
        } else {
            context.warn("the temporary spreadsheet \"\(report.spreadsheet)\" could not be moved to the trash"
                         + (report.removalError.map { " (\($0))" } ?? "") + "; remove it from your Drive by hand")
        }
        let failed = report.steps.filter { !$0.held }.count
        if report.passed {
            context.note("All \(report.steps.count) checks held: this deployment keeps what the client writes as docs/server.md says.")
        } else if report.error == nil, report.steps.allSatisfy({ $0.held || $0.aboutBooks }) {
            context.io.stderr.write("\(failed) of \(report.steps.count) checks did not hold: a year's spreadsheet of the log is not "
                                    + "where the web app expects it. Do what each ✗ above says in your Drive, then run the check again.\n")
        } else {
            let what = report.error == nil ? "\(failed) of \(report.steps.count) checks did not hold"
                : "The check stopped early (\(failed) of the \(report.steps.count) checks made did not hold)"
            context.io.stderr.write("\(what): this deployment may not keep what the client writes as docs/server.md says. If the "
                                    + "check stopped on Google's services failing, run it again later; else make sure the deployment "
                                    + "runs the script of this version (`expense-log server script`, then Deploy › Manage deployments "
                                    + "› Edit › New version), run the check again, and if it still fails, report it with this output.\n")
        }
    }
}
