import ExpenseLogKit
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
                        arguments: [key]),
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
                        arguments: [key, ArgumentSpec("value", help: "The new value.")]),
            CommandSpec(name: "init", abstract: "On a terminal, ask for the web app's URL, save it, and try a fetch."),
            CommandSpec(name: "unset", abstract: "Remove a key from the config file, keeping every other key.", arguments: [key]),
            CommandSpec(name: "set-token", abstract: "Save a token in the token file (mode 0600): typed at a hidden prompt, or from stdin.",
                        discussion: """
                            The token is sent as `Authorization: Bearer TOKEN`. On a terminal it is asked for at a \
                            prompt that does not show it; otherwise it is read from stdin. Either way it never \
                            appears in the shell history or the process list.

                            EXAMPLES:
                              expense-log config set-token
                              expense-log config set-token < token.txt
                            """),
            CommandSpec(name: "clear-token", abstract: "Delete the token file."),
        ])

    static let key = ArgumentSpec("key", kind: .choice(ConfigEdit.keys), help: "A key of the config file.")

    /// The config file in use, which `set` makes when it is missing (even one `--config` names).
    static func filePath(_ context: Context) throws -> String {
        do {
            return try context.config().configFile.value
        } catch ConfigError.missingConfigFile(let path, _) {
            return path
        }
    }

    static func get(_ invocation: Invocation, _ context: Context) async throws {
        guard let value = try ConfigEdit.get(invocation.arguments[0], in: try filePath(context)) else {
            throw CommandExit(code: .failure)
        }
        context.io.stdout.write(value + "\n")
    }

    static func set(_ invocation: Invocation, _ context: Context) async throws {
        let path = try filePath(context)
        try ConfigEdit.set(invocation.arguments[0], to: invocation.arguments[1], in: path)
        context.note("Set \(invocation.arguments[0]) in \(path).")
    }

    static func unset(_ invocation: Invocation, _ context: Context) async throws {
        let path = try filePath(context)
        try ConfigEdit.set(invocation.arguments[0], to: nil, in: path)
        context.note("Removed \(invocation.arguments[0]) from \(path).")
    }

    static func show(_ invocation: Invocation, _ context: Context) async throws {
        let config = try context.config()
        let env = config.environment.value
        var rows = [["SETTING", "VALUE", "SOURCE"]]
        rows.append(["environment", env.rawValue, config.environment.source])
        if env.usesNetwork {
            rows.append(["base-url", config.baseURL.map { APIError.redacted(URL(string: $0.value) ?? URL(fileURLWithPath: "/")) } ?? "(none)",
                         config.baseURL?.source ?? "set --base-url, EXPENSE_LOG_BASE_URL or the config file"])
        } else {
            let fixtures = config.fixturesDirectory?.value ?? FixtureSession.bundledDirectory()?.path ?? "(not found)"
            rows.append(["fixtures", fixtures, config.fixturesDirectory?.source ?? "bundled"])
        }
        rows.append(["config-file", config.configFile.value + (config.configFileExists ? "" : " (not found)"), config.configFile.source])
        if env.usesNetwork {
            let token = try Token.load(environment: context.environment, file: config.paths.tokenFile)
            rows.append(["token", token.map { "(set, \($0.value.count) characters, redacted)" } ?? "(none)",
                         token?.source ?? "set EXPENSE_LOG_TOKEN or run config set-token"])
        }
        rows.append(["server-time-zone", config.serverTimeZone.value.identifier, config.serverTimeZone.source])
        rows.append(["max-answer", "\(config.maxAnswerBytes.value >> 20) MiB", config.maxAnswerBytes.source])
        if env.usesNetwork {
            rows.append(["transport", config.transport.value.rawValue, config.transport.source])
            rows.append(["server-max-execution", "\(Int(config.resendWait.value.seconds)) s", config.resendWait.source])
        }
        rows.append(["cache", config.cacheDirectory.path, config.paths.origin + (env.usesNetwork ? ", a folder per base URL" : "")])
        rows.append(["outbox", config.outboxDirectory.path, config.paths.origin])
        rows.append(["timeout", config.timeout.map { "\($0) s" } ?? ExpenseLogAPI.defaultTimeoutText, config.timeout == nil ? "default" : "--timeout"])
        rows.append(["retries", String(config.retryPolicy.maxRetries), config.retries == nil ? "default" : "--retries"])
        let categories = config.catalogue.value.categories
        rows.append(["categories", "\(categories.count) categories, \(categories.reduce(0) { $0 + $1.subs.count }) subs",
                     config.catalogue.source])
        guard invocation[CommonOptions.listingFormat] == .json else { return context.io.stdout.write(TextTable(rows: rows).render()) }
        // {"environment": {"value": "release", "source": "default"}, …}: each setting by its name.
        let members = rows.dropFirst().map { "  \(ItemJSON.string($0[0])): {\"value\": \(ItemJSON.string($0[1])), \"source\": \(ItemJSON.string($0[2]))}" }
        context.io.stdout.write("{\n" + members.joined(separator: ",\n") + "\n}\n")
    }

    static func path(_ invocation: Invocation, _ context: Context) async throws {
        context.io.stdout.write(try context.config().configFile.value + "\n")
    }

    static func setToken(_ invocation: Invocation, _ context: Context) async throws {
        let file = try context.config().paths.tokenFile
        let token: String
        if context.canAsk {
            // On a terminal the token is typed (or pasted) at a prompt that does not show it.
            guard let typed = await context.ask("Token (not shown; Ctrl-D cancels)", secret: true), !typed.isEmpty else {
                context.io.stderr.write("Cancelled; nothing was saved.\n")
                throw CommandExit(code: .failure)
            }
            token = typed
        } else {
            let input = try context.io.readStdin(InputLimits.tokenBytes)
            if input.count > InputLimits.tokenBytes {
                throw ConfigError.badToken(source: "standard input", reason: "it is longer than \(InputLimits.tokenBytes >> 10) KiB, "
                                           + "which no real token is (was the wrong file given?); nothing was saved")
            }
            token = String(decoding: input, as: UTF8.self)
        }
        try Token.save(token, to: file)
        context.note("Saved the token to \(file.path) (mode 0600).")
        if context.environment["EXPENSE_LOG_TOKEN"].map({ !$0.isEmpty }) == true {
            context.warn("EXPENSE_LOG_TOKEN is set and takes precedence over the file")
        }
    }

    static func clearToken(_ invocation: Invocation, _ context: Context) async throws {
        let file = try context.config().paths.tokenFile
        if FileManager.default.fileExists(atPath: file.path) {
            do {
                try FileManager.default.removeItem(at: file)
            } catch {
                throw StoreError.writeFailed(path: file.path, reason: "it cannot be removed (\(StoreError.reason(of: error)))")
            }
            context.note("Deleted the token file \(file.path).")
        } else {
            context.note("There is no token file at \(file.path).")
        }
        if context.environment["EXPENSE_LOG_TOKEN"].map({ !$0.isEmpty }) == true {
            context.warn("EXPENSE_LOG_TOKEN is still set and still provides a token")
        }
    }
}
