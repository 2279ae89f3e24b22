import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// `config set|get|unset`: one key of the config file read or changed, every other key kept, the file checked as a
/// whole before it replaces the old one (atomically), so a bad value never leaves a broken file behind.
public enum ConfigEdit {
    /// The keys that take a single value (`baseURL.development` sets one environment's URL; `baseURL` both).
    public static let keys = [
        "environment", "baseURL", "baseURL.release", "baseURL.development", "serverTimeZone", "maxAnswerMiB",
        "serverMaxExecutionSeconds", "language", "payer", "payer.app", "ratio", "personal",
    ]
    private static let numeric: Set<String> = ["maxAnswerMiB", "serverMaxExecutionSeconds", "budgets"]

    /// Whether `config get|set|unset` takes the key: one of `keys`, or `budgets.` and a name (`budgets.食費`).
    public static func isKey(_ key: String) -> Bool {
        keys.contains(key) || key.hasPrefix("budgets.") && key.count > "budgets.".count
            || key.hasPrefix("accounts.") && key.count > "accounts.".count
    }

    /// The file's value of `key` as text, or nil when the file (or the key) is not there.
    public static func get(_ key: String, in path: String) throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        _ = try ConfigFile.read(path: path)  // a broken file is reported as such, not read around
        let root = try object(at: path)
        let (top, sub) = split(key)
        if top == "budgets", let sub {
            // A budget by what it names: `budgets.Food` finds the one the file calls 食費.
            let budgets = root[top] as? [String: Any] ?? [:]
            return try budgetEntry(sub, in: budgets, path: path).flatMap { budgets[$0] }.map { "\($0)" }
        }
        // One environment's URL is the object's entry, or the plain string both environments share.
        let value: Any? = sub.map { (root[top] as? [String: Any])?[$0] ?? root[top] as? String as Any? } ?? root[top]
        switch value {
        case let text as String: return text
        case let number as NSNumber: return number.stringValue
        default: return nil
        }
    }

    /// Sets `key` to `value` (nil removes it), creating the file and its folder when missing; throws the file's check
    /// (naming the key) when the value is not one the file can hold, and then leaves the file as it was.
    public static func set(_ key: String, to value: String?, in path: String) throws {
        var root = FileManager.default.fileExists(atPath: path) ? try object(at: path) : [:]
        let (top, sub) = split(key)
        if let value, top == "environment", Environment(rawValue: value) == nil {
            throw ConfigError.refusedValue(
                path: path, key: key,
                reason: "it must be one of "
                    + Environment.allCases.map(\.rawValue).joined(separator: ", "))
        }
        if let value, top == "baseURL", let problem = urlProblem(value) {
            throw ConfigError.refusedValue(path: path, key: key, reason: problem)
        }
        let typed: Any? = value.map { text in
            numeric.contains(top)
                ? (Double(text).flatMap { $0.isFinite ? NSNumber(value: $0) : nil } ?? text as Any) : text
        }
        if top == "budgets", let sub {
            // The entry that budgets the same thing is replaced (or removed) whatever name it was given.
            var budgets = root[top] as? [String: Any] ?? [:]
            let existing = try budgetEntry(sub, in: budgets, path: path)
            if value == nil, existing == nil {
                throw ConfigError.refusedValue(path: path, key: key, reason: "no budget is set for it")
            }
            if let existing { budgets[existing] = nil }
            budgets[existing ?? sub] = typed
            root[top] = budgets.isEmpty ? nil : budgets
        } else if let sub {
            // One environment's URL: a plain string for both becomes an object of one per environment first.
            var perEnvironment =
                (root[top] as? [String: Any]) ?? (root[top] as? String).map { ["release": $0, "development": $0] }
                ?? [:]
            perEnvironment[sub] = typed
            root[top] = perEnvironment.isEmpty ? nil : perEnvironment
        } else {
            root[top] = typed
        }
        let data = try JSONSerialization.data(
            withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        let checked = path + ".checking-\(getpid())"
        try AtomicFile.write(data, to: URL(fileURLWithPath: checked), durable: false)
        defer { try? FileManager.default.removeItem(atPath: checked) }
        do {
            _ = try ConfigFile.read(path: checked)
        } catch ConfigError.badConfigFile(_, let reason) {
            throw ConfigError.refusedValue(path: path, key: key, reason: reason)
        }
        try AtomicFile.createDirectory(URL(fileURLWithPath: path).deletingLastPathComponent())
        // Readable by its owner only (as gh keeps its hosts.yml): a base URL may carry the web app's key (…/exec/KEY).
        try AtomicFile.write(data + Data("\n".utf8), to: URL(fileURLWithPath: path), mode: PrivateFiles.file)
    }

    /// Why text is no web app's base URL: not http(s), or a Google address that is not a deployed web app's (the script
    /// editor's `…/edit`, a Drive link), which would only answer with a sign-in page; nil when it may be one.
    public static func urlProblem(_ value: String) -> String? {
        guard let url = URL(string: value), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            return
                "it must be an http:// or https:// URL, such as the web app's https://script.google.com/macros/s/…/exec"
        }
        let host = url.host?.lowercased() ?? ""
        guard host == "script.google.com" || host.hasSuffix(".google.com") else { return nil }
        let parts = url.path.split(separator: "/")
        // /macros/s/ID/exec, /macros/s/ID/exec/KEY, and a Workspace domain's /a/macros/DOMAIN/s/ID/exec; /dev for tests.
        guard let last = parts.lastIndex(where: { $0 == "exec" || $0 == "dev" }), parts.count - last <= 2,
            parts.contains("macros")
        else {
            return
                "it is not a web app's URL: a deployed web app's ends in /exec (Deploy > Manage deployments > Web app URL), "
                + "not the script editor's …/edit"
        }
        return nil
    }

    /// The file's name of the budget that `name` names (`Food` → `食費`), or nil; throws when no category is called so.
    private static func budgetEntry(_ name: String, in budgets: [String: Any], path: String) throws -> String? {
        let catalogue =
            FileManager.default.fileExists(atPath: path)
            ? (try ConfigFile.read(path: path)).catalogue ?? .standard : .standard
        func key(_ name: String) throws(BudgetError) -> BudgetKey? {
            try Budgets([(name, 1)], catalogue: catalogue).entries.first?.key
        }
        let wanted: BudgetKey?
        do {
            wanted = try key(name)
        } catch {
            throw ConfigError.refusedValue(path: path, key: "budgets.\(name)", reason: error.message)
        }
        return budgets.keys.sorted().first { (try? key($0)) == wanted }
    }

    private static func split(_ key: String) -> (String, String?) {
        // The app's payer is a key of its own in the file (`payer` stays a plain name).
        if key == "payer.app" { return ("appPayer", nil) }
        let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
        return (parts[0], parts.count == 2 ? parts[1] : nil)
    }

    private static func object(at path: String) throws -> [String: Any] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigError.badConfigFile(path: path, reason: "it cannot be read (\(StoreError.reason(of: error)))")
        }
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw ConfigError.badConfigFile(path: path, reason: "it is not a JSON object; fix or remove it first")
        }
        return root
    }
}
