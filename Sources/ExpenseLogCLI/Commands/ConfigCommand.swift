import ExpenseLogConfig
import Foundation

/// `config show|path|get|set|unset|set-token|clear-token`: the effective configuration, the config file, the token file.
enum ConfigCommand: CommandGroup {
    static var subcommands: [any Command.Type] {
        [Show.self, Path.self, Get.self, SetKey.self, Init.self, Unset.self, SetToken.self, ClearToken.self]
    }

    static let about = CommandAbout(
        name: "config",
        abstract: "Show the effective configuration, or manage the token file.")

    static let key = Argument<String>(
        "key", kind: .suggest(ConfigEdit.keys + ["budgets.total"]),
        help: "A key of the config file; budgets.NAME is a monthly budget (total, a category, category/sub).")

    /// The key given, checked: one of `ConfigEdit.keys`, or `budgets.` and a name.
    static func checkedKey(_ given: String, _ context: Context) throws -> String {
        guard ConfigEdit.isKey(given) else {
            throw UsageError(
                path: context.invocation.path,
                message: "'\(given)' is not a key of the config file (the keys are "
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

    /// `config get`.
    struct Get: ParsableCommand {
        @Arg(ConfigCommand.key) var key: String

        static let about = CommandAbout(
            name: "get", abstract: "Print a key's value in the config file (exit 1 when it is not set there).")

        func run(_ context: Context) async throws -> ExitCode {
            guard let value = try ConfigEdit.get(try checkedKey(key, context), in: try filePath(context)) else {
                throw CommandExit(code: .failure)
            }
            context.io.stdout.write(value + "\n")
            return .success
        }
    }

    /// `config set`.
    struct SetKey: ParsableCommand {
        @Arg(ConfigCommand.key) var key: String
        @Arg("value", help: "The new value.") var value: String

        static let about = CommandAbout(
            name: "set", abstract: "Set a key in the config file (made when missing), keeping every other key.",
            discussion: """
                The file is checked whole before it replaces the old one, so a bad value changes nothing \
                (exit 78, naming the key). baseURL sets the URL of both real environments; \
                baseURL.development or baseURL.release one of them.

                EXAMPLES:
                  expense-log config set baseURL https://script.google.com/macros/s/ID/exec
                  expense-log config set environment development
                  expense-log config set serverTimeZone Asia/Tokyo
                """)

        func run(_ context: Context) async throws -> ExitCode {
            let path = try filePath(context)
            let before = key.hasPrefix("baseURL") ? try? context.config() : nil
            try ConfigEdit.set(try checkedKey(key, context), to: value, in: path)
            context.configWritten()
            context.note(context.say("Set \(key) in \(path).", ja: "\(path) の \(key) を設定しました。"))
            if let before { try BaseURLChangeText.warnOfWaitingWrites(before, context) }
            return .success
        }
    }

    /// `config unset`.
    struct Unset: ParsableCommand {
        @Arg(ConfigCommand.key) var key: String

        static let about = CommandAbout(
            name: "unset", abstract: "Remove a key from the config file, keeping every other key.")

        func run(_ context: Context) async throws -> ExitCode {
            let path = try filePath(context)
            try ConfigEdit.set(try checkedKey(key, context), to: nil, in: path)
            context.configWritten()
            context.note(context.say("Removed \(key) from \(path).", ja: "\(path) から \(key) を削除しました。"))
            return .success
        }
    }

    /// `config path`.
    struct Path: ParsableCommand {
        static let about = CommandAbout(
            name: "path", abstract: "Print the path of the config file in use.")

        func run(_ context: Context) async throws -> ExitCode {
            context.io.stdout.write(try context.config().configFile.value + "\n")
            return .success
        }
    }
}
