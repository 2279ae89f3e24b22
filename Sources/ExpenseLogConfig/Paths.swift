import ExpenseLogStore
import Foundation

/// Where the tool keeps its files, following the XDG base directories unless `EXPENSE_LOG_HOME` moves them.
public struct Paths: Sendable, Equatable {
    /// The folder holding the config file and the token file.
    public let configDirectory: URL
    /// The root of the per-environment caches.
    public let cacheRoot: URL
    /// The root of the per-environment state (the outbox).
    public let stateRoot: URL
    /// What chose these folders: `EXPENSE_LOG_HOME`, `XDG`, or `explicit`.
    public let origin: String

    /// Paths with explicit roots, for tests.
    public init(configDirectory: URL, cacheRoot: URL, stateRoot: URL, origin: String = "explicit") {
        self.configDirectory = configDirectory
        self.cacheRoot = cacheRoot
        self.stateRoot = stateRoot
        self.origin = origin
    }

    /// Paths from the process environment: `EXPENSE_LOG_HOME`, then `XDG_*_HOME`, then the XDG defaults under `HOME`.
    public init(environment env: [String: String]) {
        if let home = env["EXPENSE_LOG_HOME"], !home.isEmpty {
            let root = URL(fileURLWithPath: home, isDirectory: true)
            self.init(
                configDirectory: root.appendingPathComponent("config", isDirectory: true),
                cacheRoot: root.appendingPathComponent("cache", isDirectory: true),
                stateRoot: root.appendingPathComponent("state", isDirectory: true), origin: "EXPENSE_LOG_HOME")
            return
        }
        let userHome = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        func xdg(_ variable: String, _ fallback: String) -> URL {
            // The XDG spec says relative paths in these variables are invalid and must be ignored.
            if let value = env[variable], value.hasPrefix("/") {
                return URL(fileURLWithPath: value, isDirectory: true).appendingPathComponent(
                    "expense-log", isDirectory: true)
            }
            return URL(fileURLWithPath: userHome, isDirectory: true)
                .appendingPathComponent(fallback, isDirectory: true)
                .appendingPathComponent("expense-log", isDirectory: true)
        }
        self.init(
            configDirectory: xdg("XDG_CONFIG_HOME", ".config"),
            cacheRoot: xdg("XDG_CACHE_HOME", ".cache"),
            stateRoot: xdg("XDG_STATE_HOME", ".local/state"), origin: "XDG")
    }

    /// The default config file.
    public var configFile: URL { configDirectory.appendingPathComponent("config.json") }

    /// The cache folder of one environment, holding a folder per server.
    public func cacheDirectory(_ environment: Environment) -> URL {
        cacheRoot.appendingPathComponent(environment.rawValue, isDirectory: true)
    }

    /// The cache folder of one server of an environment (`<env>/<host>-<hash>/`); the dummy environment has one
    /// server, its fixtures, and keeps its months in the environment's folder.
    public func cacheDirectory(_ environment: Environment, server: URL?) -> URL {
        guard environment.usesNetwork, let server else { return cacheDirectory(environment) }
        return cacheDirectory(environment).appendingPathComponent(CacheFolder.name(for: server), isDirectory: true)
    }

    /// The token file.
    public var tokenFile: URL { configDirectory.appendingPathComponent("token") }

    /// The journal of one environment: every write waiting for the server (the contract's "outbox").
    public func journalDirectory(_ environment: Environment) -> URL {
        stateDirectory(environment).appendingPathComponent("journal", isDirectory: true)
    }

    /// The folders where versions before the journal kept one environment's waiting writes: items, then changes.
    public func legacyQueueDirectories(_ environment: Environment) -> [URL] {
        ["outbox", "edits"].map { stateDirectory(environment).appendingPathComponent($0, isDirectory: true) }
    }

    /// The state folder of one environment.
    public func stateDirectory(_ environment: Environment) -> URL {
        stateRoot.appendingPathComponent(environment.rawValue, isDirectory: true)
    }
}
