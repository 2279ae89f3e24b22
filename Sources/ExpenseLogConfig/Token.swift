import ExpenseLogStore
import Foundation

/// The bearer token: from `EXPENSE_LOG_TOKEN`, else from the token file, which must be readable by its owner only.
public enum Token {
    /// The token in force and where it came from, or nil when none is set.
    public static func load(environment env: [String: String], file: URL) throws -> Sourced<String>? {
        if let value = env["EXPENSE_LOG_TOKEN"], !value.isEmpty {
            let token = value.trimmingCharacters(in: .whitespacesAndNewlines)
            if let problem = problem(in: token) {
                throw ConfigError.badToken(source: "EXPENSE_LOG_TOKEN", reason: problem)
            }
            return Sourced(value: token, source: "EXPENSE_LOG_TOKEN")
        }
        var info = stat()
        guard stat(file.path, &info) == 0 else { return nil }
        if info.st_mode & 0o077 != 0 {
            throw ConfigError.insecureTokenFile(path: file.path, mode: String(info.st_mode & 0o777, radix: 8))
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw ConfigError.badToken(source: file.path, reason: "the file cannot be read")
        }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if let problem = problem(in: token) { throw ConfigError.badToken(source: file.path, reason: problem) }
        return Sourced(value: token, source: file.path)
    }

    /// Why a text cannot be a token (empty, or characters a header cannot carry), or nil when it can.
    public static func problem(in token: String) -> String? {
        if token.isEmpty { return "it is empty" }
        // Spaces, control characters and non-ASCII would break or inject into the Authorization header.
        if !token.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) {
            return "it holds spaces, line breaks or other characters a token cannot have"
        }
        return nil
    }

    /// Saves a token with mode 0600 (replacing any), after checking it.
    public static func save(_ text: String, to file: URL) throws {
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let problem = problem(in: token) { throw ConfigError.badToken(source: "standard input", reason: problem) }
        try AtomicFile.write(Data((token + "\n").utf8), to: file, mode: 0o600)
    }

    /// Deletes the token file; false when there was none.
    public static func remove(_ file: URL) throws -> Bool {
        guard FileManager.default.fileExists(atPath: file.path) else { return false }
        do {
            try FileManager.default.removeItem(at: file)
        } catch {
            throw StoreError.writeFailed(
                path: file.path, reason: "it cannot be removed (\(StoreError.reason(of: error)))")
        }
        return true
    }
}
