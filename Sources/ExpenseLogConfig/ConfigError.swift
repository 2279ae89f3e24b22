import Foundation

/// A configuration problem: each names the setting, where it came from, and how to fix it.
public enum ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A real environment was chosen but no base URL is set anywhere.
    case missingBaseURL(Environment, configFile: String)
    /// A base URL that is not an absolute http(s) URL.
    case invalidBaseURL(String, source: String)
    /// `release` with a plain-http URL to a host that is not this machine.
    case insecureBaseURL(String, source: String)
    /// An environment name that is not one of the three.
    case unknownEnvironment(String, source: String)
    /// The config file exists but cannot be read or parsed.
    case badConfigFile(path: String, reason: String)
    /// `config set` was given a value the file cannot hold; the file was left as it was.
    case refusedValue(path: String, key: String, reason: String)
    /// The config file named by `--config` or `EXPENSE_LOG_CONFIG` does not exist.
    case missingConfigFile(path: String, source: String)
    /// The token file can be read by others than its owner.
    case insecureTokenFile(path: String, mode: String)
    /// The token (from the variable or the file) cannot be sent.
    case badToken(source: String, reason: String)

    /// The message shown to the user.
    public var description: String {
        switch self {
        case let .missingBaseURL(env, configFile):
            return """
                no base URL is configured for the '\(env.rawValue)' environment.
                Set one with --base-url URL, the EXPENSE_LOG_BASE_URL variable, or in \(configFile):
                  {"environment": "\(env.rawValue)", "baseURL": {"\(env.rawValue)": "https://script.google.com/macros/s/…/exec"}}
                To try the tool without a server, use --env dummy (no network needed).
                """
        case let .refusedValue(path, key, reason):
            return "\(key) was not changed in \(path): \(reason)"
        case let .invalidBaseURL(url, source):
            return "the base URL '\(url)' (from \(source)) is not an absolute http:// or https:// URL."
        case let .insecureBaseURL(url, source):
            return """
                the base URL '\(url)' (from \(source)) uses plain http://, which the release environment refuses \
                because the token and your data would travel unencrypted. Use https://, or --env development for a test server.
                """
        case let .unknownEnvironment(name, source):
            return "unknown environment '\(name)' (from \(source)); expected release, development or dummy."
        case let .badConfigFile(path, reason):
            return "the config file \(path) is invalid: \(reason)"
        case let .missingConfigFile(path, source):
            return "the config file \(path) (from \(source)) does not exist. Create it or point \(source) elsewhere."
        case let .insecureTokenFile(path, mode):
            return "the token file \(path) has mode \(mode), so others can read it; it must be 600. "
                + "Run: chmod 600 '\(path)' (and consider the token leaked and renewing it)."
        case let .badToken(source, reason):
            return "the token from \(source) cannot be used: \(reason). "
                + "Save a new one with `expense-log config set-token < FILE`, or remove it with `expense-log config clear-token`."
        }
    }
}
