import Foundation

/// The JSON config file: `{"environment": "development", "baseURL": {"development": "http://…"}}`.
struct ConfigFile: Equatable {
    /// The environment chosen by the file, if any.
    var environment: String?
    /// A base URL per environment; a plain string in the file applies to both real environments.
    var baseURLs: [Environment: String] = [:]

    static let knownKeys = ["environment", "baseURL"]

    /// Reads and checks the file, naming the offending key in every error.
    static func read(path: String) throws -> ConfigFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigError.badConfigFile(path: path, reason: "it cannot be read (\(error.localizedDescription))")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data), let root = object as? [String: Any] else {
            throw ConfigError.badConfigFile(path: path, reason: "it is not a JSON object, e.g. {\"environment\": \"release\"}")
        }
        if let unknown = root.keys.sorted().first(where: { !knownKeys.contains($0) }) {
            throw ConfigError.badConfigFile(path: path, reason: "unknown key '\(unknown)'; the keys are \(knownKeys.joined(separator: ", "))")
        }
        var file = ConfigFile()
        if let value = root["environment"] {
            guard let name = value as? String else {
                throw ConfigError.badConfigFile(path: path, reason: "'environment' must be a string")
            }
            file.environment = name
        }
        switch root["baseURL"] {
        case nil: break
        case let url as String:
            file.baseURLs = [.release: url, .development: url]
        case let perEnvironment as [String: Any]:
            for (key, value) in perEnvironment {
                guard let env = Environment(rawValue: key), env.usesNetwork else {
                    throw ConfigError.badConfigFile(path: path, reason: "'baseURL' has an entry for '\(key)'; only release and development use one")
                }
                guard let url = value as? String else {
                    throw ConfigError.badConfigFile(path: path, reason: "'baseURL.\(key)' must be a string")
                }
                file.baseURLs[env] = url
            }
        default:
            throw ConfigError.badConfigFile(path: path, reason: "'baseURL' must be a URL string or an object of one per environment")
        }
        return file
    }
}
