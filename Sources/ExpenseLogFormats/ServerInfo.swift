import ExpenseLogModel
import Foundation

/// What a server says of itself at `GET ?action=info`: the bundled script's extensions, or none (the original script).
public struct ServerInfo: Sendable, Equatable {
    /// `expense-log` for the bundled script.
    public let app: String
    /// The extensions' version.
    public let version: Int
    /// The calls it takes (`delete`, `update`…).
    public let actions: [String]

    /// Information as the server gave it.
    public init(app: String, version: Int, actions: [String]) {
        (self.app, self.version, self.actions) = (app, version, actions)
    }

    /// Whether the server takes an action.
    public func offers(_ action: String) -> Bool { app == "expense-log" && actions.contains(action) }

    /// The info as JSON, for the cache.
    public var json: String {
        "{\"app\":\(ItemJSON.string(app)),\"version\":\(version),\"actions\":[\(actions.map(ItemJSON.string).joined(separator: ","))]}\n"
    }

    /// Info read back from `json`, or nil when the bytes are not such an object.
    public init?(json bytes: [UInt8]) {
        guard case .object(let members, _)? = try? JSONParser.parse(bytes),
            case .string(let app, _)? = members[member: "app"],
            case .number(let version, _)? = members[member: "version"], let number = Int(version),
            case .array(let list, _)? = members[member: "actions"]
        else { return nil }
        let actions = list.compactMap { value -> String? in
            if case .string(let text, _) = value { return text } else { return nil }
        }
        self.init(app: app, version: number, actions: actions)
    }
}
