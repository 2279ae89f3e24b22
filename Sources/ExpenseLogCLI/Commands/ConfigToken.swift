import ExpenseLogConfig
import ExpenseLogFormats
import Foundation

/// `config set-token` and `config clear-token`: the token file, written with mode 0600, never from argv.
extension ConfigCommand {
    /// `config set-token`.
    struct SetToken: ParsableCommand {
        static let about = CommandAbout(
            name: "set-token",
            abstract: "Save a token in the token file (mode 0600): typed at a hidden prompt, or from stdin.",
            discussion: """
                The token is sent as `Authorization: Bearer TOKEN` and as the `key` query parameter \
                (the bundled web app's EXPENSE_LOG_KEY; errors and --verbose show key=***). On a terminal it is asked for at a \
                prompt that does not show it; otherwise it is read from stdin. Either way it never \
                appears in the shell history or the process list.

                EXAMPLES:
                  expense-log config set-token
                  expense-log config set-token < token.txt
                """)

        func run(_ context: Context) async throws -> ExitCode {
            let file = try context.config().paths.tokenFile
            let token: String
            if context.canAsk {
                // On a terminal the token is typed (or pasted) at a prompt that does not show it.
                guard let typed = try await context.ask("Token (not shown; Ctrl-D cancels)", secret: true),
                    !typed.isEmpty
                else {
                    context.io.stderr.write(
                        context.say("Cancelled; nothing was saved.", ja: "取り消しました。何も保存していません。") + "\n")
                    throw CommandExit(code: .failure)
                }
                token = typed
            } else {
                let input = try context.io.readStdin(InputLimits.tokenBytes)
                if input.count > InputLimits.tokenBytes {
                    throw ConfigError.badToken(
                        source: "standard input",
                        reason: "it is longer than \(InputLimits.tokenBytes >> 10) KiB, "
                            + "which no real token is (was the wrong file given?); nothing was saved")
                }
                token = String(decoding: input, as: UTF8.self)
            }
            try Token.save(token, to: file)
            context.note(
                context.say(
                    "Saved the token to \(file.path) (mode 0600).", ja: "トークンを \(file.path) に保存しました (モード 0600)。"))
            if context.environment["EXPENSE_LOG_TOKEN"].map({ !$0.isEmpty }) == true {
                context.warn(
                    context.say(
                        "EXPENSE_LOG_TOKEN is set and takes precedence over the file",
                        ja: "EXPENSE_LOG_TOKEN が設定されていて、ファイルより優先されます"))
            }
            return .success
        }
    }

    /// `config clear-token`.
    struct ClearToken: ParsableCommand {
        static let about = CommandAbout(
            name: "clear-token", abstract: "Delete the token file.")

        func run(_ context: Context) async throws -> ExitCode {
            let file = try context.config().paths.tokenFile
            if try Token.remove(file) {
                context.note(context.say("Deleted the token file \(file.path).", ja: "トークンファイル \(file.path) を削除しました。"))
            } else {
                context.note(
                    context.say("There is no token file at \(file.path).", ja: "\(file.path) にトークンファイルはありません。"))
            }
            if context.environment["EXPENSE_LOG_TOKEN"].map({ !$0.isEmpty }) == true {
                context.warn(
                    context.say(
                        "EXPENSE_LOG_TOKEN is still set and still provides a token",
                        ja: "EXPENSE_LOG_TOKEN がまだ設定されていて、トークンを与えています"))
            }
            return .success
        }
    }
}
