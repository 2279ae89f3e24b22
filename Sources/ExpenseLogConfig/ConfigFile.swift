import ExpenseLogHTTP
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// The JSON config file: `{"environment": "development", "baseURL": {"development": "http://…"}}`.
struct ConfigFile: Equatable {
    /// The environment chosen by the file, if any.
    var environment: String?
    /// A base URL per environment; a plain string in the file applies to both real environments.
    var baseURLs: [Environment: String] = [:]
    /// A catalogue replacing the app's, in the shape `categories --format json` prints.
    var catalogue: CategoryCatalogue?
    /// The spreadsheet's time zone (an IANA name), for date cells the server hands back as instants.
    var serverTimeZone: TimeZone?
    /// The largest answer accepted from the server, in MiB.
    var maxAnswerMiB: Int?
    /// The server's longest execution, after which an unanswered POST can no longer be running.
    var serverMaxExecutionSeconds: Double?
    /// The monthly budgets, named by the catalogue in force.
    var budgets: Budgets?
    /// `ja` or `en`: the language of tables and messages whatever `LANG` says (cron has none).
    var language: String?
    /// Who pays what this machine registers, unless told otherwise (`add --payer`).
    var payer: String?
    /// Who paid the items the app registers (it sends no payer): `config set payer.app 花子`.
    var appPayer: String?
    /// How `settle` splits shared items, this machine's payer's part first (`60:40`).
    var ratio: Split?
    /// The categories (`嗜好品`, `娯楽費/交通費`) whose items are one person's own unless said otherwise.
    var personal: [String]?
    /// The account `export` balances each payer's items with (`花子` → `liabilities:card:vpass`; `household` for items
    /// with no payer).
    var accounts: [String: String]?

    static let knownKeys = [
        "environment", "baseURL", "categories", "serverTimeZone", "maxAnswerMiB",
        "serverMaxExecutionSeconds", "budgets", "language", "payer", "appPayer", "ratio", "personal", "accounts",
    ]
    /// Keys earlier versions read, accepted and ignored: `transport` chose between libcurl and a built-in client on
    /// Linux, which has one transport now.
    static let formerKeys = ["transport"]
    /// The languages `language` takes.
    static let languages = ["ja", "en"]

    /// Reads and checks the file, naming the offending key in every error.
    static func read(path: String) throws -> ConfigFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigError.badConfigFile(path: path, reason: "it cannot be read (\(StoreError.reason(of: error)))")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data), let root = object as? [String: Any] else {
            throw ConfigError.badConfigFile(
                path: path, reason: "it is not a JSON object, e.g. {\"environment\": \"release\"}")
        }
        if let unknown = root.keys.sorted().first(where: { !knownKeys.contains($0) && !formerKeys.contains($0) }) {
            let meant = ClosestWord.to(unknown, among: knownKeys).map { " (did you mean '\($0)'?)" } ?? ""
            throw ConfigError.badConfigFile(
                path: path,
                reason: "unknown key '\(unknown)'\(meant); the keys are \(knownKeys.joined(separator: ", "))")
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
                    throw ConfigError.badConfigFile(
                        path: path, reason: "'baseURL' has an entry for '\(key)'; only release and development use one")
                }
                guard let url = value as? String else {
                    throw ConfigError.badConfigFile(path: path, reason: "'baseURL.\(key)' must be a string")
                }
                file.baseURLs[env] = url
            }
        default:
            throw ConfigError.badConfigFile(
                path: path, reason: "'baseURL' must be a URL string or an object of one per environment")
        }
        if let value = root["appPayer"] {
            guard let name = value as? String, !name.trimmingSpaces().isEmpty else {
                throw ConfigError.badConfigFile(
                    path: path, reason: "'payer.app' must be a name (who paid what the app registers: 花子)")
            }
            file.appPayer = name.trimmingSpaces()
        }
        if let value = root["ratio"] {
            guard let split = (value as? String).flatMap(Split.init(parsing:)) else {
                throw ConfigError.badConfigFile(
                    path: path,
                    reason: "'ratio' must be two whole numbers such as \"60:40\" (this machine's payer's first)")
            }
            file.ratio = split
        }
        if let value = root["accounts"] {
            guard let object = value as? [String: Any], let accounts = object as? [String: String],
                accounts.values.allSatisfy(Self.isAccount)
            else {
                throw ConfigError.badConfigFile(
                    path: path,
                    reason:
                        "'accounts' must name an account for each payer, such as {\"花子\": \"liabilities:card:vpass\", "
                        + "\"household\": \"assets:bank\"}: assets, liabilities, equity, income or expenses, then words "
                        + "of ASCII letters, digits and - (which hledger, Ledger and Beancount all take)")
            }
            file.accounts = accounts
        }
        if let value = root["personal"] {
            guard let text = value as? String else {
                throw ConfigError.badConfigFile(
                    path: path, reason: "'personal' must be categories separated by commas (\"嗜好品,娯楽費/交通費\")")
            }
            file.personal = text.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        }
        if let value = root["payer"] {
            guard let name = value as? String, !name.trimmingSpaces().isEmpty else {
                throw ConfigError.badConfigFile(
                    path: path, reason: "'payer' must be a name (who pays what this machine registers: 太郎)")
            }
            file.payer = name.trimmingSpaces()
        }
        if let value = root["language"] {
            guard let name = value as? String, languages.contains(name) else {
                throw ConfigError.badConfigFile(
                    path: path, reason: "'language' must be ja or en (Japanese or English words, whatever LANG says)")
            }
            file.language = name
        }
        if let value = root["serverTimeZone"] {
            guard let name = value as? String, let zone = TimeZone(identifier: name) else {
                throw ConfigError.badConfigFile(
                    path: path,
                    reason: "'serverTimeZone' must be a time zone name such as \"Asia/Tokyo\" "
                        + "(the spreadsheet's File > Settings > Time zone)")
            }
            file.serverTimeZone = zone
        }
        if let value = root["maxAnswerMiB"] {
            guard let number = value as? NSNumber, let mib = Int(exactly: number.doubleValue), (1...4096).contains(mib)
            else {
                throw ConfigError.badConfigFile(
                    path: path,
                    reason: "'maxAnswerMiB' must be a whole number of MiB from 1 to 4096 "
                        + "(the default is \(HTTPRequest.defaultMaxAnswerBytes >> 20))")
            }
            file.maxAnswerMiB = mib
        }
        if let value = root["serverMaxExecutionSeconds"] {
            guard let number = value as? NSNumber, number.doubleValue >= 0, number.doubleValue <= 86_400 else {
                throw ConfigError.badConfigFile(
                    path: path,
                    reason: "'serverMaxExecutionSeconds' must be a number of seconds "
                        + "from 0 (a server that skips ids it has) to 86400; Apps Script's is 360")
            }
            file.serverMaxExecutionSeconds = number.doubleValue
        }
        if let value = root["categories"] {
            file.catalogue = try catalogue(from: value, path: path)
        }
        if let value = root["budgets"] {
            guard let object = value as? [String: Any] else {
                throw ConfigError.badConfigFile(
                    path: path,
                    reason: "'budgets' must be an object of yen per month, "
                        + "e.g. {\"total\": 80000, \"食費\": 30000, \"娯楽費/交通費\": 10000}")
            }
            do {
                let budgets = try Budgets(
                    object.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, catalogue: file.catalogue ?? .standard
                )
                file.budgets = budgets.isEmpty ? nil : budgets
            } catch {
                throw ConfigError.badConfigFile(path: path, reason: error.message)
            }
        }
        return file
    }

    /// `[{"id": 0, "ja": "食費", "en": "Food", "subs": [{"id": 0, "ja": "食品", "en": "Grocery"}]}]`.
    static func catalogue(from value: Any, path: String) throws -> CategoryCatalogue {
        func fail(_ reason: String) -> ConfigError { .badConfigFile(path: path, reason: reason) }
        func entry(
            _ value: Any, at place: String, allowing keys: Set<String>
        ) throws -> (id: Int, ja: String, en: String, object: [String: Any]) {
            guard let object = value as? [String: Any] else {
                throw fail("\(place) must be an object like {\"id\": 0, \"ja\": \"食費\", \"en\": \"Food\"}")
            }
            if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
                throw fail(
                    "\(place) has an unknown key '\(unknown)'; the keys are \(keys.sorted().joined(separator: ", "))")
            }
            // No `is Bool` check: on Linux every NSNumber, 0 and 1 included, passes it.
            guard let number = object["id"] as? NSNumber, let id = Int(exactly: number.doubleValue) else {
                throw fail("\(place).id must be a whole number")
            }
            let names = try ["ja", "en"].map { key in
                guard let name = object[key] as? String, !name.trimmingSpaces().isEmpty else {
                    throw fail("\(place).\(key) must be a non-empty name")
                }
                return name
            }
            return (id, names[0], names[1], object)
        }
        guard let list = value as? [Any], !list.isEmpty else {
            throw fail("'categories' must be a non-empty array, as printed by `expense-log categories --format json`")
        }
        var categories: [Category] = []
        for (index, element) in list.enumerated() {
            let place = "categories[\(index)]"
            let found = try entry(element, at: place, allowing: ["id", "ja", "en", "subs"])
            if categories.contains(where: { $0.id == found.id }) { throw fail("\(place).id \(found.id) is used twice") }
            var subs: [SubCategory] = []
            guard let subList = (found.object["subs"] ?? [Any]()) as? [Any] else {
                throw fail("\(place).subs must be an array")
            }
            for (subIndex, subElement) in subList.enumerated() {
                let sub = try entry(subElement, at: "\(place).subs[\(subIndex)]", allowing: ["id", "ja", "en"])
                if subs.contains(where: { $0.id == sub.id }) {
                    throw fail("\(place).subs[\(subIndex)].id \(sub.id) is used twice")
                }
                subs.append(SubCategory(id: sub.id, japanese: sub.ja, english: sub.en))
            }
            categories.append(Category(id: found.id, japanese: found.ja, english: found.en, subs: subs))
        }
        return CategoryCatalogue(categories: categories)
    }

    /// Whether an account is one hledger, Ledger and Beancount all take: a root Beancount knows, then words of ASCII
    /// letters, digits and `-`.
    static func isAccount(_ account: String) -> Bool {
        let parts = account.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2,
            ["assets", "liabilities", "equity", "income", "expenses"].contains(parts[0].lowercased())
        else { return false }
        return parts.allSatisfy { part in
            guard let first = part.first, first.isASCII, first.isLetter || first.isNumber else { return false }
            return part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}
