import ExpenseLogKit
import Foundation

/// `config show|path`: the effective configuration and where each value came from.
enum ConfigCommand {
    static let spec = CommandSpec(
        name: "config",
        abstract: "Show the effective configuration or the config file's path.",
        subcommands: [
            CommandSpec(name: "show", abstract: "Show each setting, its value and where it came from.", run: show),
            CommandSpec(name: "path", abstract: "Print the path of the config file in use.", run: path),
        ])

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
        rows.append(["cache", config.cacheDirectory.path, config.paths.origin])
        rows.append(["timeout", config.timeout.map { "\($0) s" } ?? ExpenseLogAPI.defaultTimeoutText, config.timeout == nil ? "default" : "--timeout"])
        context.io.stdout.write(TextTable(rows: rows).render())
    }

    static func path(_ invocation: Invocation, _ context: Context) async throws {
        context.io.stdout.write(try context.config().configFile.value + "\n")
    }
}
