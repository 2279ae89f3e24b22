import ExpenseLogConfig
import ExpenseLogHTTP
import ExpenseLogImport
import ExpenseLogStore
import Foundation
import Testing

/// Loads the configuration with `EXPENSE_LOG_HOME` at `home` and any other variables.
func loadConfig(
    home: URL, _ overrides: ConfigOverrides = ConfigOverrides(), env: [String: String] = [:]
) throws -> AppConfig {
    try AppConfig.load(overrides, environment: env.merging(["EXPENSE_LOG_HOME": home.path]) { given, _ in given })
}

/// Writes the default config file under `EXPENSE_LOG_HOME`.
func writeConfig(_ json: String, home: URL) throws -> URL {
    let file = home.appendingPathComponent("config/config.json")
    try writeText(json, to: file)
    return file
}

/// A source as `AppConfig` reports it: the default config file's source names its path.
func named(_ source: String, _ home: URL) -> String {
    source == "config file"
        ? "config file \(home.appendingPathComponent("config/config.json").standardizedFileURL.path)" : source
}

/// The configuration error loading gives, failing the test when loading succeeds.
func configError(
    home: URL, _ overrides: ConfigOverrides = ConfigOverrides(), env: [String: String] = [:]
) throws -> ConfigError {
    try #require(throws: ConfigError.self) { try loadConfig(home: home, overrides, env: env) }
}

/// A sourced value as `value (source)`, to compare both at once.
func shown<Value>(_ sourced: Sourced<Value>?) -> String? {
    sourced.map { "\($0.value) (\($0.source))" }
}

/// The checked base URL of a configuration chosen by flags.
func requireBaseURL(env: String, url: String, home: URL) throws -> URL {
    try loadConfig(home: home, ConfigOverrides(environment: env, baseURL: url)).requireBaseURL()
}

@Suite("Configuration: precedence, paths and checks")
struct ConfigTests {
    @Test(
        "the environment comes from --env, then EXPENSE_LOG_ENV, then the config file, then release",
        arguments: [
            (
                String?.some("development"), String?.some("dummy"), String?.some("dummy"), Environment.development,
                "--env"
            ),
            (nil, "dummy", "development", .dummy, "EXPENSE_LOG_ENV"),
            (nil, "DUMMY", nil, .dummy, "EXPENSE_LOG_ENV"),
            (nil, nil, "development", .development, "config file"),
            (nil, "", "dummy", .dummy, "config file"),
            (nil, nil, nil, .release, "default"),
        ])
    func environmentPrecedence(
        flag: String?, variable: String?, file: String?, expected: Environment, source: String
    ) async throws {
        try await withTemporaryDirectory { home in
            if let file { _ = try writeConfig(#"{"environment":"\#(file)"}"#, home: home) }
            let config = try loadConfig(
                home: home, ConfigOverrides(environment: flag),
                env: variable.map { ["EXPENSE_LOG_ENV": $0] } ?? [:])
            #expect(shown(config.environment) == "\(expected) (\(named(source, home)))")
        }
    }

    @Test(
        "the base URL comes from --base-url, then EXPENSE_LOG_BASE_URL, then the config file's entry",
        arguments: [
            (
                String?.some("https://flag.example/exec"), String?.some("https://var.example/exec"),
                "https://flag.example/exec", "--base-url"
            ),
            (nil, "https://var.example/exec", "https://var.example/exec", "EXPENSE_LOG_BASE_URL"),
            (nil, "", "https://file.example/exec", "config file"),
            (nil, nil, "https://file.example/exec", "config file"),
        ])
    func baseURLPrecedence(flag: String?, variable: String?, expected: String, source: String) async throws {
        try await withTemporaryDirectory { home in
            _ = try writeConfig(
                #"{"baseURL":{"release":"https://file.example/exec","development":"http://dev.example/exec"}}"#,
                home: home)
            let config = try loadConfig(
                home: home, ConfigOverrides(baseURL: flag),
                env: variable.map { ["EXPENSE_LOG_BASE_URL": $0] } ?? [:])
            #expect(shown(config.baseURL) == "\(expected) (\(named(source, home)))")
        }
    }

    @Test("the config file's base URL is the chosen environment's; a plain string serves both real ones")
    func baseURLPerEnvironment() async throws {
        try await withTemporaryDirectory { home in
            _ = try writeConfig(
                #"{"environment":"development","baseURL":{"release":"https://r.example","development":"http://d.example"}}"#,
                home: home)
            #expect(try loadConfig(home: home).baseURL?.value == "http://d.example")
            #expect(
                try loadConfig(home: home, ConfigOverrides(environment: "release")).baseURL?.value
                    == "https://r.example")
            _ = try writeConfig(#"{"baseURL":"https://both.example"}"#, home: home)
            #expect(
                try loadConfig(home: home, ConfigOverrides(environment: "development")).baseURL?.value
                    == "https://both.example")
            #expect(
                try loadConfig(home: home, ConfigOverrides(environment: "dummy", baseURL: "https://x.example")).baseURL
                    == nil)
        }
    }

    @Test("no base URL anywhere is nil, and requireBaseURL says how to set one and that dummy works offline")
    func missingBaseURL() async throws {
        try await withTemporaryDirectory { home in
            let config = try loadConfig(home: home)
            #expect(config.baseURL == nil)
            let error = try #require(throws: ConfigError.self) { try config.requireBaseURL() }
            #expect(
                error == .missingBaseURL(.release, configFile: home.appendingPathComponent("config/config.json").path))
            #expect(error.description.contains("--base-url") && error.description.contains("--env dummy"))
        }
    }

    @Test("EXPENSE_LOG_HOME holds config, cache and state, and wins over the XDG variables")
    func homeLayout() async throws {
        try await withTemporaryDirectory { home in
            let config = try loadConfig(
                home: home, env: ["XDG_CONFIG_HOME": "/xdg/config", "XDG_CACHE_HOME": "/xdg/cache"])
            #expect(shown(config.configFile) == "\(home.appendingPathComponent("config/config.json").path) (default)")
            #expect(!config.configFileExists)
            #expect(config.paths.cacheRoot.path == home.appendingPathComponent("cache").path)
            #expect(config.paths.stateRoot.path == home.appendingPathComponent("state").path)
            #expect(config.cacheDirectory.path == home.appendingPathComponent("cache/release").path)
            #expect(config.paths.stateDirectory(.dummy).path == home.appendingPathComponent("state/dummy").path)
        }
    }

    @Test("each environment has its own cache folder")
    func cachePerEnvironment() async throws {
        try await withTemporaryDirectory { home in
            let folders = try Environment.allCases.map {
                try loadConfig(home: home, ConfigOverrides(environment: $0.rawValue)).cacheDirectory.path
            }
            #expect(Set(folders).count == Environment.allCases.count)
        }
    }

    @Test("XDG variables place the files; a relative value is ignored")
    func xdg() {
        let paths = Paths(environment: [
            "HOME": "/home/u", "XDG_CONFIG_HOME": "/x/config", "XDG_CACHE_HOME": "relative/cache",
            "XDG_STATE_HOME": "/x/state",
        ])
        #expect(paths.configFile.path == "/x/config/expense-log/config.json")
        #expect(paths.cacheRoot.path == "/home/u/.cache/expense-log")
        #expect(paths.stateRoot.path == "/x/state/expense-log")
        let defaults = Paths(environment: ["HOME": "/home/u"])
        #expect(defaults.configDirectory.path == "/home/u/.config/expense-log")
        #expect(defaults.cacheDirectory(.development).path == "/home/u/.cache/expense-log/development")
        #expect(defaults.stateRoot.path == "/home/u/.local/state/expense-log")
    }

    @Test(
        "a bad config file is refused, naming the file and what is wrong",
        arguments: [
            (#"{"environment":"development","token":"x"}"#, "'token'"),
            (#"{"environment":"#, "not a JSON object"),
            ("[1, 2]", "not a JSON object"),
            (#"{"baseURL": 42}"#, "'baseURL'"),
            (#"{"baseURL": {"dummy": "http://x"}}"#, "'dummy'"),
            (#"{"baseURL": {"release": 1}}"#, "'baseURL.release'"),
            (#"{"environment": 1}"#, "'environment'"),
            (#"{"categories": []}"#, "non-empty array"),
            (#"{"categories": [{"id": 0, "ja": "食費"}]}"#, "categories[0].en"),
            (#"{"categories": [{"id": 0.5, "ja": "a", "en": "b"}]}"#, "categories[0].id"),
            (
                #"{"categories": [{"id": 0, "ja": "a", "en": "b"}, {"id": 0, "ja": "c", "en": "d"}]}"#,
                "categories[1].id 0 is used twice"
            ),
            (
                #"{"categories": [{"id": 0, "ja": "a", "en": "b", "subs": [{"id": 1, "ja": "x", "en": "y", "note": 1}]}]}"#,
                "categories[0].subs[0] has an unknown key 'note'"
            ),
        ])
    func badConfigFile(json: String, mention: String) async throws {
        try await withTemporaryDirectory { home in
            let file = try writeConfig(json, home: home)
            let error = try configError(home: home)
            guard case .badConfigFile(let path, let reason) = error else {
                Issue.record("expected badConfigFile, got \(error)")
                return
            }
            #expect(path == file.path)
            #expect(reason.contains(mention))
        }
    }

    @Test("a config file of an earlier version that names a transport still reads: there is one per platform now")
    func aFormerTransportKeyIsAccepted() async throws {
        try await withTemporaryDirectory { home in
            _ = try writeConfig(#"{"transport": "native", "language": "ja"}"#, home: home)
            #expect(try loadConfig(home: home).japanese?.value == true)
        }
    }

    @Test("the config file's categories replace the catalogue, ids 0 and 1 included; without them it is the app's")
    func catalogue() async throws {
        try await withTemporaryDirectory { home in
            let defaults = try loadConfig(home: home).catalogue
            #expect(defaults.value == .standard && defaults.source == "default")
            let file = try writeConfig(
                #"""
                {"categories": [{"id": 0, "ja": "住居", "en": "Housing", "subs": [{"id": 0, "ja": "家賃", "en": "Rent"},
                 {"id": 1, "ja": "光熱費", "en": "Utilities"}]}, {"id": 1, "ja": "食費", "en": "Food"}]}
                """#, home: home)
            let config = try loadConfig(home: home)
            #expect(config.catalogue.source == "config file \(file.path)")
            let catalogue = config.catalogue.value
            #expect(catalogue.categories.map(\.english) == ["Housing", "Food"])
            #expect(catalogue.name(ofSub: 1, in: 0, japanese: true) == "光熱費")
            #expect(catalogue.name(of: 1, japanese: false) == "Food" && catalogue.category(1)?.subs.isEmpty == true)
        }
    }

    @Test("an unknown environment name is refused with where it came from")
    func unknownEnvironment() async throws {
        try await withTemporaryDirectory { home in
            #expect(
                try configError(home: home, ConfigOverrides(environment: "prod"))
                    == .unknownEnvironment("prod", source: "--env"))
            _ = try writeConfig(#"{"environment":"staging"}"#, home: home)
            #expect(try configError(home: home) == .unknownEnvironment("staging", source: named("config file", home)))
        }
    }

    @Test("an explicit config file must exist; the default one may be missing")
    func explicitConfigFile() async throws {
        try await withTemporaryDirectory { home in
            let missing = home.appendingPathComponent("nope.json").path
            #expect(
                try configError(home: home, ConfigOverrides(configFile: missing))
                    == .missingConfigFile(path: missing, source: "--config"))
            #expect(
                try configError(home: home, env: ["EXPENSE_LOG_CONFIG": missing])
                    == .missingConfigFile(path: missing, source: "EXPENSE_LOG_CONFIG"))
            let other = home.appendingPathComponent("other.json")
            try writeText(#"{"environment":"dummy"}"#, to: other)
            let config = try loadConfig(
                home: home, ConfigOverrides(configFile: other.path), env: ["EXPENSE_LOG_CONFIG": missing])
            #expect(shown(config.configFile) == "\(other.path) (--config)")
            #expect(config.configFileExists)
            #expect(shown(config.environment) == "dummy (config file \(other.path))")
        }
    }

    @Test(
        "a base URL must be an absolute http(s) URL",
        arguments: ["example.com/exec", "ftp://example.com/exec", "https://", "file:///tmp/x"])
    func invalidBaseURL(text: String) async throws {
        try await withTemporaryDirectory { home in
            let error = try #require(throws: ConfigError.self) {
                try requireBaseURL(env: "development", url: text, home: home)
            }
            #expect(error == .invalidBaseURL(text, source: "--base-url"))
        }
    }

    @Test("release refuses plain http to another host")
    func releaseRefusesHTTP() async throws {
        try await withTemporaryDirectory { home in
            let error = try #require(throws: ConfigError.self) {
                try requireBaseURL(env: "release", url: "http://example.com/exec", home: home)
            }
            #expect(error == .insecureBaseURL("http://example.com/exec", source: "--base-url"))
        }
    }

    @Test(
        "release refuses plain http to a host name that merely starts with 127.",
        arguments: ["http://127.attacker.example/exec", "http://127.0.0.1.example.com/exec"])
    func releaseRefusesLookalikeLoopback(text: String) async throws {
        try await withTemporaryDirectory { home throws in
            #expect(throws: ConfigError.insecureBaseURL(text, source: "--base-url")) {
                try requireBaseURL(env: "release", url: text, home: home)
            }
        }
    }

    @Test(
        "plain http is allowed to loopback in release, anywhere in development, and https always",
        arguments: [
            ("release", "http://127.0.0.1:8080/exec"), ("release", "http://localhost/exec"),
            ("release", "https://script.google.com/macros/s/X/exec"), ("development", "http://example.com/exec"),
        ])
    func allowedBaseURL(env: String, text: String) async throws {
        try await withTemporaryDirectory { home throws in
            #expect(try requireBaseURL(env: env, url: text, home: home).absoluteString == text)
        }
    }

    @Test("an IPv6 literal counts as loopback through curl (and on macOS)")
    func ipv6Literal() async throws {
        try await withTemporaryDirectory { home throws in
            let text = "http://[::1]:9000/exec"
            #expect(try requireBaseURL(env: "release", url: text, home: home).absoluteString == text)
        }
    }
}
