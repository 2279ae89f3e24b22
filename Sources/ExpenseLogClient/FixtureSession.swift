import ExpenseLogFixtures
import ExpenseLogFormats
import ExpenseLogHTTP
import ExpenseLogModel
import Foundation

/// The dummy environment's session: GET answers `fetch.json`, POST answers `register.json`, no network; the bundled
/// script's extensions are answered as the script would, so `edit` and `delete` can be tried offline too.
public struct FixtureSession: Session {
    /// The folder holding the two fixture files.
    public let directory: URL

    /// A session answering from a folder.
    public init(directory: URL) {
        self.directory = directory
    }

    /// Answers from the fixture file for the request's method; a missing file is an `APIError.fixtureUnreadable`.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if let answer = try extensionAnswer(request) {
            return HTTPResponse(
                status: 200, headers: ["content-type": "application/json"], body: Data(answer.utf8), url: request.url)
        }
        let file = directory.appendingPathComponent(request.method == "POST" ? "register.json" : "fetch.json")
        return HTTPResponse(
            status: 200, headers: ["content-type": "application/json"], body: try read(file), url: request.url)
    }

    private func read(_ file: URL) throws -> Data {
        do {
            return try Data(contentsOf: file)
        } catch {
            throw APIError.fixtureUnreadable(path: file.path, reason: FixtureSession.reason(error, path: file.path))
        }
    }

    /// The script's answer to `?action=info`, a deletion (every id deleted) or an update (the fixtures' item with that id,
    /// changed; else the script's not-found refusal); nil for the original protocol's requests.
    private func extensionAnswer(_ request: HTTPRequest) throws -> String? {
        if request.method == "GET" {
            let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            guard query.contains(URLQueryItem(name: "action", value: "info")) else { return nil }
            return ServerInfo(
                app: "expense-log", version: 1, actions: ["info", "fetch", "register", "delete", "update"]
            ).json
        }
        // A register batch (an array, up to 512 KiB) is not parsed here: only an object can carry an action.
        let body = request.body ?? Data()
        guard JSONParser.firstSignificantByte(of: body) == UInt8(ascii: "{"),
            case .object(let members, _)? = try? JSONParser.parse(Array(body)),
            case .string(let action, _)? = members[member: "action"]
        else { return nil }
        switch action {
        case "delete":
            guard case .array(let targets, _)? = members[member: "items"] else { return nil }
            let ids = targets.compactMap { target -> String? in
                guard case .object(let fields, _) = target, case .string(let id, _)? = fields[member: "id"] else {
                    return nil
                }
                return id
            }
            return "{\"deleted\":[\(ids.map(ItemJSON.string).joined(separator: ","))],\"missing\":[]}"
        case "update":
            guard case .string(let id, _)? = members[member: "id"],
                case .object(let changes, _)? = members[member: "changes"]
            else { return nil }
            let known =
                try
                (ItemCodec.items(read(directory.appendingPathComponent("fetch.json")))
                + ItemCodec.items(read(directory.appendingPathComponent("register.json"))))
            guard let item = known.first(where: { $0.id == id }) else {
                return
                    "{\"error\":{\"kind\":\"not-found\",\"message\":\(ItemJSON.string("no item \(id) in the dummy fixtures"))}}"
            }
            func change(_ key: ItemField) -> JSONValue? { changes[member: key.rawValue] }
            func number(_ key: ItemField) -> Int? {
                if case .number(let text, _)? = change(key) { Int(text) } else { nil }
            }
            var date = item.date, name = item.name
            if case .string(let text, _)? = change(.date), let day = Day(parsing: text) { date = day }
            if case .string(let text, _)? = change(.name) { name = text }
            let sub = change(.categorySub) == nil ? item.categorySub : number(.categorySub)
            return ItemJSON.object(
                Item(
                    id: item.id, date: date, name: name, price: number(.price) ?? item.price,
                    category: number(.category) ?? item.category, categorySub: sub))
        default:
            return nil
        }
    }

    static func reason(_ error: any Error, path: String) -> String {
        FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "no such file"
    }
}
