import ExpenseLogConfig
import ExpenseLogUseCases
import Foundation

/// `server check`: asks the deployed web app to test itself on Google and prints what held as a checklist.
struct ServerCheck: ParsableCommand {
    static let about = CommandAbout(
        name: "check", abstract: "Ask the deployed web app to test itself on Google (run it after each deployment).",
        discussion: """
            The bundled script (version 2 or later) creates a temporary spreadsheet in your Drive, writes what this \
            tool relies on (0120, TRUE, 12:30, 2024/2/3, =1+1, +81, @x, 'quoted, an id 00123, a refund, a 50,000-character \
            name, the longest batch the client sends), reads it back as the client would, edits and deletes, times \
            each action, and moves the spreadsheet to the trash, also when a step fails. It runs under the script's \
            lock, with the key when one is set. It also compares the script's version with the one this binary \
            bundles, and says how to update an older one in place. Exit 0 only when every check held; 1 when one \
            did not (an older script included); 69 when the \
            URL runs an older version of the script or not the bundled script at all, or the check did not finish; \
            77 when the key is refused; 78 in the dummy environment, which has no web app.

            EXAMPLES:
              expense-log server check
              expense-log --env development server check
            """)

    func run(_ context: Context) async throws -> ExitCode {
        let config = try context.config()
        guard config.environment.value.usesNetwork else {
            context.io.stderr.write(
                context.say(
                    "Error: server check asks a deployed web app to test itself, and the dummy environment "
                        + "(\(config.environment.source)) has none: use --env development or --env release.",
                    ja: "エラー: server check は公開したウェブアプリに自己テストを頼みますが、dummy 環境 "
                        + "(\(config.environment.source)) にはありません。--env development か --env release を使ってください。") + "\n")
            throw CommandExit(code: .configuration)
        }
        let ledger = try context.ledger()
        let link = try ledger.link()
        let url = DeploymentReportText.shown(link)
        context.note(
            context.say(
                "Asking \(url) to test itself on Google (a temporary spreadsheet in your Drive; a few seconds, up to a "
                    + "minute on a slow deployment)…",
                ja: "\(url) に Google 上での自己テストを頼んでいます (ドライブの一時スプレッドシート。数秒、遅いデプロイでは1分ほど)…"))
        let outcome = try await ledger.check(link)
        try DeploymentReportText.render(
            outcome, url: url, timeout: config.timeout, bundled: BundledScript.version(), context)
        return .success
    }
}
