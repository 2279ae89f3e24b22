import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

extension ConfigCommand {
    /// `config init`: asks for the web app's URL on a terminal, saves it as both real environments' base URL, asks for
    /// the token at a prompt that does not show it, and tries a fetch of this month, saying what the server answered (or
    /// why it did not), as `gh auth login` checks a login.
    struct Init: ParsableCommand {
        static let about = CommandAbout(
            name: "init", abstract: "On a terminal, ask for the web app's URL and token, save them, and try a fetch.")

        func run(_ context: Context) async throws -> ExitCode {
            guard context.canAsk else {
                throw UsageError(
                    path: context.invocation.path,
                    message: "config init asks questions, so it needs a terminal; "
                        + "in a script use: expense-log config set baseURL URL")
            }
            let path = try filePath(context)
            var url: String?
            let saved = try ConfigEdit.get("baseURL.release", in: path)
            if let saved {
                context.io.stderr.write(context.say("The URL saved now: ", ja: "いま保存されている URL: ") + "\(saved)\n")
            }
            while url == nil {
                guard
                    let answer = try await context.ask(
                        context.say(
                            "The web app's URL (ends in /exec, or /exec/KEY with a key)"
                                + (saved == nil ? "" : "; Enter keeps it"),
                            ja: "ウェブアプリの URL (/exec か、キー付きなら /exec/キー で終わる)" + (saved == nil ? "" : "。Enter でそのまま")))
                else {
                    context.io.stderr.write(
                        context.say("Cancelled; nothing was saved.", ja: "取り消しました。何も保存していません。") + "\n")
                    throw CommandExit(code: .failure)
                }
                let given = answer.isEmpty ? saved ?? "" : answer
                if let problem = ConfigEdit.urlProblem(given) { context.refuseAnswer(problem) } else { url = given }
            }
            // Both answers first, then both saved: Ctrl-C at the token leaves the file as it was.
            let token = try await Self.askToken(context)
            // The token first: one the file cannot hold (two words, a line break) then leaves the URL unsaved too.
            try token.map { try Token.save($0, to: try context.config().paths.tokenFile) }
            if token != nil { context.note(context.say("Saved the token (mode 0600).", ja: "トークンを保存しました (モード 0600)。")) }
            if let url { try ConfigEdit.set("baseURL", to: url, in: path) }
            context.configWritten()
            let config = try context.config()
            guard config.environment.value.usesNetwork else {
                context.note(
                    context.say(
                        "Saved it in \(path). The \(config.environment.value.rawValue) environment is in force "
                            + "(\(config.environment.source)), which uses no URL; release and development will use this one.",
                        ja: "\(path) に保存しました。いまは URL を使わない \(config.environment.value.rawValue) 環境 "
                            + "(\(config.environment.source)) です。release と development がこの URL を使います。"))
                return .success
            }
            if let inForce = config.baseURL, inForce.value != url {
                context.warn(
                    context.say(
                        "the URL in force comes from \(inForce.source), which overrides the file; the fetch below uses that one",
                        ja: "使われる URL はファイルより優先される \(inForce.source) のものです。下の取得はそれを使います"))
            }
            context.note(
                context.say("Saved it in \(path). Trying a fetch of this month…", ja: "\(path) に保存しました。今月を取得してみます…"))
            let month = YearMonth.current()
            do {
                let read = try await context.ledger().read(
                    [month], policy: .refresh, strict: false, link: try context.link())
                guard let loaded = read.loaded.first else { throw CommandExit(code: .failure) }
                if let failure = loaded.missing { throw failure }
                let count = loaded.items.count + loaded.outside.count
                context.note(
                    context.say(
                        "It works: the server answered \(count) item\(count == 1 ? "" : "s") for \(month). "
                            + "Try `expense-log fetch` or `expense-log add NAME PRICE`.",
                        ja: "動きました: サーバーは \(month) の項目を\(count)件返しました。`expense-log fetch` や "
                            + "`expense-log add 品名 金額` を試してください。"))
            } catch {
                context.io.stderr.write(
                    context.errorLine(error)
                        + context.say(
                            "The URL is saved; fix what is named above, then run `expense-log fetch` "
                                + "(or `expense-log config init` again).",
                            ja: "URL は保存しました。上の問題を直してから `expense-log fetch` "
                                + "(または `expense-log config init`) を実行してください。") + "\n")
                throw CommandExit(code: ExitCode(for: error))
            }
            return .success
        }

        /// Asks for the web app's key (EXPENSE_LOG_KEY) as `set-token` does, without showing it: nil for Enter, which keeps
        /// the saved one, or goes on without one for a web app that has no key.
        private static func askToken(_ context: Context) async throws -> String? {
            let file = try context.config().paths.tokenFile
            let saved = FileManager.default.fileExists(atPath: file.path)
            let question =
                "Token, the web app's EXPENSE_LOG_KEY (not shown; Enter "
                + (saved ? "keeps the saved one)" : "for none)")
            guard let typed = try await context.ask(question, secret: true), !typed.isEmpty else {
                if !saved {
                    context.note(
                        context.say(
                            "No token saved; `expense-log config set-token` saves one later.",
                            ja: "トークンは保存していません。あとで `expense-log config set-token` で保存できます。"))
                }
                return nil
            }
            return typed
        }
    }
}
