import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogHTTP
import ExpenseLogModel
import Foundation
import Synchronization
import Testing

/// The bundled web app as a session in memory, for running commands in-process: months of items, `?action=info`,
/// register, delete and update as `Resources/server/Code.gs` answers them, and a switch that takes it down. Anything
/// else it is asked fails the test. The CLI tests run the real script under Node.js; this is for exit codes and words.
final class FakeWebApp: Sendable {
    private let state = Mutex<(items: [Item], down: Bool, posts: Int, lost: Set<String>, arriving: [Item])>(
        ([], false, 0, [], []))

    /// A web app holding `items`.
    init(_ items: [Item] = []) {
        state.withLock { $0.items = items }
    }

    /// Every item it holds, in the order saved.
    var items: [Item] { state.withLock { $0.items } }
    /// How many POSTs reached it.
    var posts: Int { state.withLock { $0.posts } }

    /// Takes it down (every request is refused, as by a closed port) or brings it back.
    func setDown(_ down: Bool) {
        state.withLock { $0.down = down }
    }

    /// Loses the answer to every request of these actions (`update`, `delete`): the connection drops before it comes.
    func loseAnswers(to actions: Set<String>) {
        state.withLock { $0.lost = actions }
    }

    /// Saves `items` just before the next POST is run, as another import sending them at the same moment would.
    func arriveBeforeNextPost(_ items: [Item]) {
        state.withLock { $0.arriving = items }
    }

    /// The session commands reach it through.
    var session: FakeSession {
        FakeSession { request in try self.answer(request) }
    }

    private func answer(_ request: HTTPRequest) throws -> HTTPResponse {
        func json(_ text: String) -> HTTPResponse { HTTPResponse(status: 200, body: Data(text.utf8), url: request.url) }
        if state.withLock({ $0.down }) { throw TransportError.network(url: request.url, reason: .refused) }
        let query = Dictionary(
            URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.map {
                ($0.name, $0.value ?? "")
            } ?? [],
            uniquingKeysWith: { $1 })
        if request.method == "GET", query["action"] == "info" {
            return json(#"{"app":"expense-log","version":2,"actions":["info","register","delete","update","check"]}"#)
        }
        if request.method == "GET", let year = query["year"].flatMap(Int.init),
            let month = query["month"].flatMap(Int.init)
        {
            return json(ItemJSON.array(items.filter { $0.date.year == year && $0.date.month == month }))
        }
        guard request.method == "POST", let body = request.body else {
            Issue.record("the fake web app was asked \(request.method) \(request.url)")
            throw TransportError.network(url: request.url, reason: .other("not faked"))
        }
        state.withLock { state in
            state.posts += 1
            state.items += state.arriving
            state.arriving = []
        }
        if let sent = try? ItemCodec.items(body) {
            state.withLock { state in
                for item in sent where !state.items.contains(where: { $0.id == item.id }) { state.items.append(item) }
            }
            return json(ItemJSON.array(sent))
        }
        let action = try JSONSerialization.jsonObject(with: body) as? [String: Any] ?? [:]
        if let name = action["action"] as? String, state.withLock({ $0.lost.contains(name) }) {
            throw TransportError.network(url: request.url, reason: .connectionLost)
        }
        switch action["action"] as? String {
        case "register":
            // As the script answers: every item as stored (the one already there for a known id), and those ids.
            let sent = try ItemCodec.items(JSONSerialization.data(withJSONObject: action["items"] ?? []))
            let existing: [String] = state.withLock { state in
                let held = Set(state.items.map(\.id))
                for item in sent where !held.contains(item.id) { state.items.append(item) }
                return sent.map(\.id).filter(held.contains)
            }
            return json("{\"saved\":\(ItemJSON.array(sent)),\"existing\":\(Self.strings(existing))}")
        case "delete":
            let ids = (action["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            let held = Set(items.map(\.id))
            state.withLock { $0.items.removeAll { ids.contains($0.id) } }
            let deleted = ids.filter(held.contains), missing = ids.filter { !held.contains($0) }
            return json("{\"deleted\":\(Self.strings(deleted)),\"missing\":\(Self.strings(missing))}")
        case "update":
            let id = action["id"] as? String ?? ""
            let changes = action["changes"] as? [String: Any] ?? [:]
            let saved: Item? = state.withLock { state in
                guard let index = state.items.firstIndex(where: { $0.id == id }) else { return nil }
                let item = state.items[index]
                let date = (changes["date"] as? String).flatMap { Day(parsing: $0) } ?? item.date
                state.items[index] = Item(
                    id: id, date: date, name: changes["name"] as? String ?? item.name,
                    price: changes["price"] as? Int ?? item.price,
                    category: changes["category"] as? Int ?? item.category,
                    categorySub: changes.keys.contains("categorySub")
                        ? changes["categorySub"] as? Int : item.categorySub)
                return state.items[index]
            }
            guard let saved else {
                return json(#"{"error":{"kind":"not-found","message":"no item \#(id) in its month"}}"#)
            }
            return json(ItemJSON.object(saved))
        default:
            Issue.record("the fake web app was posted \(String(decoding: body, as: UTF8.self))")
            throw TransportError.network(url: request.url, reason: .other("not faked"))
        }
    }

    private static func strings(_ values: [String]) -> String {
        "[" + values.map(ItemJSON.string).joined(separator: ",") + "]"
    }
}
