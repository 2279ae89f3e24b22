import ExpenseLogConfig
import ExpenseLogFixtures
import ExpenseLogFormats
import ExpenseLogHTTP
import ExpenseLogModel
import ExpenseLogRendering
import Foundation

extension ConfigCommand {
    /// `config show`: every setting, its value and where it came from (the token redacted), as a table or JSON.
    struct Show: ParsableCommand {
        @Opt(CommonOptions.listingFormat) var format: ListingFormat?

        static let about = CommandAbout(
            name: "show", abstract: "Show each setting, its value and where it came from (the token redacted).")

        func run(_ context: Context) async throws -> ExitCode {
            let config = try context.config()
            let env = config.environment.value
            var rows = [["SETTING", "VALUE", "SOURCE"]]
            rows.append(["environment", env.rawValue, config.environment.source])
            if env.usesNetwork {
                rows.append([
                    "base-url",
                    config.baseURL.map { URLRedaction.redacted(URL(string: $0.value) ?? URL(fileURLWithPath: "/")) }
                        ?? "(none)",
                    config.baseURL?.source ?? "set --base-url, EXPENSE_LOG_BASE_URL or the config file",
                ])
            } else {
                let fixtures = config.fixturesDirectory?.value ?? FixtureBundle.directory()?.path ?? "(not found)"
                rows.append(["fixtures", fixtures, config.fixturesDirectory?.source ?? "bundled"])
            }
            rows.append([
                "config-file", config.configFile.value + (config.configFileExists ? "" : " (not found)"),
                config.configFile.source,
            ])
            if env.usesNetwork {
                let token = try Token.load(environment: context.environment, file: config.paths.tokenFile)
                rows.append([
                    "token", token.map { "(set, \($0.value.count) characters, redacted)" } ?? "(none)",
                    token?.source ?? "set EXPENSE_LOG_TOKEN or run config set-token",
                ])
            }
            rows.append([
                "language", context.japanese ? "ja" : "en",
                config.japanese?.source ?? "LANG (config set language ja|en overrides it)",
            ])
            rows.append(["server-time-zone", config.serverTimeZone.value.identifier, config.serverTimeZone.source])
            rows.append(["max-answer", "\(config.maxAnswerBytes.value >> 20) MiB", config.maxAnswerBytes.source])
            if env.usesNetwork {
                if let proxy = LiveSession.proxyVariable(in: context.environment) {
                    // The host and port only: a proxy URL may carry a user and password.
                    let text = context.environment[proxy] ?? ""
                    let url = URL(string: text.contains("://") ? text : "http://" + text)
                    rows.append([
                        "proxy", "\(url?.host ?? "?"):\(url?.port ?? 1080)",
                        "\(proxy) (no_proxy lists the hosts reached directly)",
                    ])
                }
                rows.append([
                    "server-max-execution", "\(Int(config.resendWait.value.seconds)) s", config.resendWait.source,
                ])
            }
            rows.append([
                "cache", config.cacheDirectory.path,
                config.paths.origin + (env.usesNetwork ? ", a folder per base URL" : ""),
            ])
            rows.append([
                "outbox", config.journalDirectory.path, config.paths.origin + ", items, edits and deletions waiting",
            ])
            rows.append([
                "decisions", try context.dataFiles().decisions.path,
                config.paths.origin + ", what imports and same decided about statement rows",
            ])
            rows.append(["rules", try context.dataFiles().rules.path, config.paths.origin + ", rule add"])
            rows.append([
                "private", "config, cache and state: folders 0700, files 0600", "always (docs/configuration.md)",
            ])
            rows.append(["timeout", config.timeoutText, config.timeout == nil ? "default" : "--timeout"])
            rows.append(["retries", String(config.retryCount), config.retries == nil ? "default" : "--retries"])
            let categories = config.catalogue.value.categories
            rows.append([
                "categories", "\(categories.count) categories, \(categories.reduce(0) { $0 + $1.subs.count }) subs",
                config.catalogue.source,
            ])
            let budgets = config.budgets?.value.entries.map { "\($0.name) ¥\(PriceText.format($0.monthly))" }.joined(
                separator: ", ")
            rows.append([
                "budgets", budgets.map { $0 + " a month" } ?? "(none)",
                config.budgets?.source ?? "set with config set budgets.NAME YEN",
            ])
            // Who paid and settling (docs/settle.md), and export's accounts: each machine's own, so shown to compare.
            let file = "config file \(config.configFile.value)"
            rows.append([
                "payer", config.payer?.value ?? "(none)", config.payer?.source ?? "set with config set payer NAME",
            ])
            rows.append([
                "payer.app", config.appPayer?.value ?? "(none)",
                config.appPayer?.source ?? "set with config set payer.app NAME",
            ])
            rows.append([
                "ratio", config.ratio?.value.description ?? "50:50", config.ratio?.source ?? "default",
            ])
            rows.append([
                "personal",
                config.personalCategories.isEmpty ? "(none)" : config.personalCategories.joined(separator: ","),
                config.personalCategories.isEmpty ? "set with config set personal CATEGORY,…" : file,
            ])
            rows.append([
                "accounts",
                config.exportAccounts.isEmpty
                    ? "(none)"
                    : config.exportAccounts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                        .joined(separator: ", "),
                config.exportAccounts.isEmpty ? "set with config set accounts.PAYER ACCOUNT" : file,
            ])
            guard format == .json else {
                context.io.stdout.write(TextTable(rows: rows).render())
                return .success
            }
            // {"environment": {"value": "release", "source": "default"}, …}: each setting by its name.
            let members = rows.dropFirst().map {
                "  \(ItemJSON.string($0[0])): {\"value\": \(ItemJSON.string($0[1])), \"source\": \(ItemJSON.string($0[2]))}"
            }
            context.io.stdout.write("{\n" + members.joined(separator: ",\n") + "\n}\n")
            return .success
        }
    }
}
