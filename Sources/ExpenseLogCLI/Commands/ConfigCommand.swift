import ExpenseLogConfig
import Foundation

/// `config show|path|get|set|unset|set-token|clear-token`: the effective configuration, the config file, the token file.
enum ConfigCommand {
    static let spec = CommandSpec(
        name: "config",
        abstract: "Show the effective configuration, or manage the token file.",
        subcommands: [
            CommandSpec(name: "show", abstract: "Show each setting, its value and where it came from (the token redacted).",
                        options: [CommonOptions.listingFormat.spec]),
            CommandSpec(name: "path", abstract: "Print the path of the config file in use."),
            CommandSpec(name: "get", abstract: "Print a key's value in the config file (exit 1 when it is not set there).",
                        arguments: [key.spec]),
            CommandSpec(name: "set", abstract: "Set a key in the config file (made when missing), keeping every other key.",
                        discussion: """
                            The file is checked whole before it replaces the old one, so a bad value changes nothing \
                            (exit 78, naming the key). baseURL sets the URL of both real environments; \
                            baseURL.development or baseURL.release one of them.

                            EXAMPLES:
                              expense-log config set baseURL https://script.google.com/macros/s/ID/exec
                              expense-log config set environment development
                              expense-log config set serverTimeZone Asia/Tokyo
                            """,
                        arguments: [key.spec, value.spec]),
            CommandSpec(name: "init", abstract: "On a terminal, ask for the web app's URL, save it, and try a fetch."),
            CommandSpec(name: "unset", abstract: "Remove a key from the config file, keeping every other key.", arguments: [key.spec]),
            CommandSpec(name: "set-token", abstract: "Save a token in the token file (mode 0600): typed at a hidden prompt, or from stdin.",
                        discussion: """
                            The token is sent as `Authorization: Bearer TOKEN` and as the `key` query parameter \
                            (the bundled web app's EXPENSE_LOG_KEY; errors and --verbose show key=***). On a terminal it is asked for at a \
                            prompt that does not show it; otherwise it is read from stdin. Either way it never \
                            appears in the shell history or the process list.

                            EXAMPLES:
                              expense-log config set-token
                              expense-log config set-token < token.txt
                            """),
            CommandSpec(name: "clear-token", abstract: "Delete the token file."),
        ])

    static let key = Argument<String>("key", kind: .suggest(ConfigEdit.keys + ["budgets.total"]),
                                      help: "A key of the config file; budgets.NAME is a monthly budget (total, a category, category/sub).")
    static let value = Argument<String>("value", help: "The new value.")

    /// The key given, checked: one of `ConfigEdit.keys`, or `budgets.` and a name.
    static func checkedKey(_ invocation: Invocation) throws -> String {
        let given = invocation[key]
        guard ConfigEdit.isKey(given) else {
            throw UsageError(path: invocation.path, message: "'\(given)' is not a key of the config file (the keys are "
                             + "\(ConfigEdit.keys.joined(separator: ", ")) and budgets.NAME)"
                             + Suggestion.didYouMean(given, among: ConfigEdit.keys + ["budgets.total"]))
        }
        return given
    }

    /// The config file in use, which `set` makes when it is missing (even one `--config` names).
    static func filePath(_ context: Context) throws -> String {
        do {
            return try context.config().configFile.value
        } catch ConfigError.missingConfigFile(let path, _) {
            return path
        }
    }

    static func get(_ invocation: Invocation, _ context: Context) async throws {
        guard let value = try ConfigEdit.get(try checkedKey(invocation), in: try filePath(context)) else {
            throw CommandExit(code: .failure)
        }
        context.io.stdout.write(value + "\n")
    }

    static func set(_ invocation: Invocation, _ context: Context) async throws {
        let path = try filePath(context)
        try ConfigEdit.set(try checkedKey(invocation), to: invocation[value], in: path)
        context.note("Set \(invocation[key]) in \(path).")
    }

    static func unset(_ invocation: Invocation, _ context: Context) async throws {
        let path = try filePath(context)
        try ConfigEdit.set(try checkedKey(invocation), to: nil, in: path)
        context.note("Removed \(invocation[key]) from \(path).")
    }

    static func path(_ invocation: Invocation, _ context: Context) async throws {
        context.io.stdout.write(try context.config().configFile.value + "\n")
    }
}
