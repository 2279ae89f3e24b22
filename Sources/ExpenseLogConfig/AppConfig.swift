import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogHTTP
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// What the user chose on the command line, before the environment variables and the config file are consulted.
public struct ConfigOverrides: Sendable, Equatable {
    /// `--env`.
    public var environment: String?
    /// `--base-url`.
    public var baseURL: String?
    /// `--fixtures`.
    public var fixtures: String?
    /// `--config`.
    public var configFile: String?
    /// `--timeout`, seconds.
    public var timeout: Double?
    /// `--retries`.
    public var retries: Int?

    /// Overrides with nothing chosen.
    public init(
        environment: String? = nil, baseURL: String? = nil, fixtures: String? = nil,
        configFile: String? = nil, timeout: Double? = nil, retries: Int? = nil
    ) {
        self.environment = environment
        self.baseURL = baseURL
        self.fixtures = fixtures
        self.configFile = configFile
        self.timeout = timeout
        self.retries = retries
    }
}

/// A value together with where it came from, for `config show` and for error messages.
public struct Sourced<Value: Sendable & Equatable>: Sendable, Equatable {
    /// The value in force.
    public let value: Value
    /// `--env`, `EXPENSE_LOG_ENV`, `config file`, `default`…
    public let source: String
}

/// The effective configuration of one run.
public struct AppConfig: Sendable, Equatable {
    /// The environment in force.
    public let environment: Sourced<Environment>
    /// The base URL text for that environment as configured (checked by `requireBaseURL()`).
    public let baseURL: Sourced<String>?
    /// The config file consulted, and whether it exists.
    public let configFile: Sourced<String>
    /// Whether the config file was found.
    public let configFileExists: Bool
    /// A folder of fixtures chosen by `--fixtures` or `EXPENSE_LOG_FIXTURES`.
    public let fixturesDirectory: Sourced<String>?
    /// Where the files live.
    public let paths: Paths
    /// `--timeout`, overriding the per-request timeouts.
    public let timeout: Double?
    /// `--retries`, overriding the default count.
    public let retries: Int?
    /// The category catalogue: the config file's `categories`, else the app's.
    public let catalogue: Sourced<CategoryCatalogue>
    /// The spreadsheet's time zone: the config file's `serverTimeZone`, else Asia/Tokyo.
    public let serverTimeZone: Sourced<TimeZone>
    /// The largest answer accepted, in bytes: the config file's `maxAnswerMiB`, else 64 MiB.
    public let maxAnswerBytes: Sourced<Int>
    /// How long an unanswered POST may still run on the server: `serverMaxExecutionSeconds`, else Apps Script's 6 minutes.
    public let resendWait: Sourced<ResendWait>
    /// The monthly budgets: the config file's `budgets`, else none.
    public var budgets: Sourced<Budgets>? = nil
    /// Whether words are Japanese by the config file's `language` (over `LANG`); nil when it sets none.
    public var japanese: Sourced<Bool>? = nil
    /// Who pays what this machine registers: the config file's `payer`, else nobody named (the household).
    public var payer: Sourced<String>? = nil
    /// Who paid the app's items (it sends none): the config file's `payer.app`.
    public var appPayer: Sourced<String>? = nil
    /// How `settle` splits shared items (this machine's payer's part first): the config file's `ratio`.
    public var ratio: Sourced<Split>? = nil
    /// The categories (`食費`, `娯楽費/交通費`) whose items are one person's own by default: the config file's `personal`.
    public var personalCategories: [String] = []
    /// The account `export` balances each payer's items with (`household`: items with no payer).
    public var exportAccounts: [String: String] = [:]

    /// This environment's cache folder for the configured server (the environment's own when none is configured). The
    /// URL as written names it, checked or not: a URL the checks refuse must still never share another server's months.
    public var cacheDirectory: URL {
        paths.cacheDirectory(environment.value, server: baseURL.flatMap { URL(string: $0.value) })
    }
    /// This environment's journal of writes waiting for the server (the outbox).
    public var journalDirectory: URL { paths.journalDirectory(environment.value) }
    /// The retry policy in force.
    public var retryPolicy: RetryPolicy { RetryPolicy(maxRetries: retries ?? RetryPolicy.defaultRetries) }

    /// The base URL, checked: absolute http(s), and not plain http to another host in `release`.
    public func requireBaseURL() throws -> URL {
        guard let baseURL else {
            throw ConfigError.missingBaseURL(environment.value, configFile: configFile.value)
        }
        guard let url = URL(string: baseURL.value), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else { throw ConfigError.invalidBaseURL(baseURL.value, source: baseURL.source) }
        if environment.value == .release, scheme == "http", !LoopbackHost.matches(host) {
            throw ConfigError.insecureBaseURL(baseURL.value, source: baseURL.source)
        }
        return url
    }
}

extension AppConfig {
    /// Resolves flags, then `EXPENSE_LOG_*` variables, then the config file, then defaults.
    public static func load(_ overrides: ConfigOverrides, environment env: [String: String]) throws -> AppConfig {
        let paths = Paths(environment: env)
        let configFile: Sourced<String>
        let explicitFile: Bool
        if let path = overrides.configFile {
            (configFile, explicitFile) = (Sourced(value: absolute(path), source: "--config"), true)
        } else if let path = env["EXPENSE_LOG_CONFIG"], !path.isEmpty {
            (configFile, explicitFile) = (Sourced(value: absolute(path), source: "EXPENSE_LOG_CONFIG"), true)
        } else {
            (configFile, explicitFile) = (Sourced(value: paths.configFile.path, source: "default"), false)
        }
        let exists = FileManager.default.fileExists(atPath: configFile.value)
        if explicitFile, !exists {
            throw ConfigError.missingConfigFile(path: configFile.value, source: configFile.source)
        }
        let file = exists ? try ConfigFile.read(path: configFile.value) : ConfigFile()

        let environment: Sourced<Environment>
        if let name = overrides.environment {
            environment = try parseEnvironment(name, source: "--env")
        } else if let name = env["EXPENSE_LOG_ENV"], !name.isEmpty {
            environment = try parseEnvironment(name, source: "EXPENSE_LOG_ENV")
        } else if let name = file.environment {
            environment = try parseEnvironment(name, source: "config file \(configFile.value)")
        } else {
            environment = Sourced(value: .release, source: "default")
        }

        var baseURL: Sourced<String>?
        if environment.value.usesNetwork {
            if let url = overrides.baseURL {
                baseURL = Sourced(value: url, source: "--base-url")
            } else if let url = env["EXPENSE_LOG_BASE_URL"], !url.isEmpty {
                baseURL = Sourced(value: url, source: "EXPENSE_LOG_BASE_URL")
            } else if let url = file.baseURLs[environment.value] {
                baseURL = Sourced(value: url, source: "config file \(configFile.value)")
            }
        }

        var fixtures: Sourced<String>?
        if let dir = overrides.fixtures {
            fixtures = Sourced(value: absolute(dir), source: "--fixtures")
        } else if let dir = env["EXPENSE_LOG_FIXTURES"], !dir.isEmpty {
            fixtures = Sourced(value: absolute(dir), source: "EXPENSE_LOG_FIXTURES")
        }

        var config = AppConfig(
            environment: environment, baseURL: baseURL, configFile: configFile,
            configFileExists: exists, fixturesDirectory: fixtures, paths: paths,
            timeout: overrides.timeout, retries: overrides.retries,
            catalogue: file.catalogue.map { Sourced(value: $0, source: "config file \(configFile.value)") }
                ?? Sourced(value: .standard, source: "default"),
            serverTimeZone: file.serverTimeZone.map { Sourced(value: $0, source: "config file \(configFile.value)") }
                ?? Sourced(value: SheetRows.defaultTimeZone, source: "default"),
            maxAnswerBytes: file.maxAnswerMiB.map {
                Sourced(value: $0 << 20, source: "config file \(configFile.value)")
            }
                ?? Sourced(value: HTTPRequest.defaultMaxAnswerBytes, source: "default"),
            resendWait: file.serverMaxExecutionSeconds.map {
                Sourced(value: ResendWait(seconds: $0), source: "config file \(configFile.value)")
            } ?? Sourced(value: .appsScript, source: "default"))
        config.budgets = file.budgets.map { Sourced(value: $0, source: "config file \(configFile.value)") }
        config.japanese = file.language.map { Sourced(value: $0 == "ja", source: "config file \(configFile.value)") }
        config.payer = file.payer.map { Sourced(value: $0, source: "config file \(configFile.value)") }
        config.appPayer = file.appPayer.map { Sourced(value: $0, source: "config file \(configFile.value)") }
        config.ratio = file.ratio.map { Sourced(value: $0, source: "config file \(configFile.value)") }
        config.personalCategories = file.personal ?? []
        config.exportAccounts = file.accounts ?? [:]
        return config
    }

    private static func parseEnvironment(_ name: String, source: String) throws -> Sourced<Environment> {
        guard let value = Environment(rawValue: name.lowercased()) else {
            throw ConfigError.unknownEnvironment(name, source: source)
        }
        return Sourced(value: value, source: source)
    }

    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}

extension AppConfig {
    /// How many times a failed request is tried again.
    public var retryCount: Int { retryPolicy.maxRetries }

    /// The timeout as `config show` says it: the one given, or the defaults of each request.
    public var timeoutText: String {
        timeout.map { "\($0) s" } ?? ExpenseLogAPI.defaultTimeoutText
    }
}
