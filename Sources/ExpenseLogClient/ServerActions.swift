import ExpenseLogFormats
import ExpenseLogHTTP
import ExpenseLogModel
import Foundation

/// One item to delete: its id and the day its month's sheet holds it under.
public struct ItemReference: Sendable, Equatable {
    /// The id.
    public let id: String
    /// Its date, which names the sheet.
    public let date: Day

    /// A reference.
    public init(id: String, date: Day) {
        (self.id, self.date) = (id, date)
    }
}

extension ExpenseLogAPIClient {
    /// `GET ?action=info`: the bundled script's description, or nil when the server answers something else (the original
    /// script answers no such object): then it has no extensions. A failure to reach it is thrown.
    public func info() async throws -> ServerInfo? {
        let request = authorized(
            HTTPRequest(
                method: "GET", url: actionURL("info"),
                headers: ["Accept": "application/json", "User-Agent": ExpenseLogAPI.userAgent],
                timeout: timeout ?? ExpenseLogAPI.fetchTimeout))
        return try await perform(request, mayRetry: { _ in true }) { response -> ServerInfo? in
            guard (200...299).contains(response.status) else {
                // The original script fails on a GET without a month: a 4xx or its error page means "no extensions".
                if (400...499).contains(response.status), ![401, 403].contains(response.status) { return nil }
                throw APIError.httpStatus(
                    url: response.url, status: response.status,
                    snippet: APIError.snippet(response.body, hiding: secrets))
            }
            try Self.refusal(response, hiding: secrets)
            return ServerInfo(json: Array(response.body))
        }
    }

    /// The most ids one delete asks for: 100 scattered rows (a call each) stay well inside the 30 s timeout.
    public static let deleteBatch = 100

    /// `POST {"action":"delete",…}`: the ids deleted, those missing and the notices; an answer not naming each id once throws.
    public func delete(
        _ items: [ItemReference]
    ) async throws -> (deleted: [String], missing: [String], notices: [String]) {
        let list = items.map { "{\"id\":\(ItemJSON.string($0.id)),\"date\":\"\($0.date.compact)\"}" }.joined(
            separator: ",")
        let (answer, raw, url) = try await post("{\"action\":\"delete\",\"items\":[\(list)]}")
        func strings(_ key: String) -> [String]? {
            guard case .array(let values, _)? = answer[member: key] else { return nil }
            let texts = values.compactMap { value -> String? in
                if case .string(let text, _) = value { text } else { nil }
            }
            return texts.count == values.count ? texts : nil
        }
        let asked = Set(items.map(\.id))
        guard let deleted = strings("deleted"), let missing = strings("missing") else {
            throw APIError.invalidResponse(
                url: url, status: 200, reason: "the answer to a delete is not {\"deleted\":[ids],\"missing\":[ids]}",
                snippet: APIError.snippet(raw, hiding: secrets))
        }
        let answered = deleted + missing
        guard answered.count == asked.count, Set(answered) == asked else {
            let unanswered = asked.subtracting(answered).sorted(), unasked = Set(answered).subtracting(asked).sorted()
            let reason =
                "the answer to a delete of \(asked.count) id\(asked.count == 1 ? "" : "s") does not account for each exactly once"
                + (unanswered.isEmpty ? "" : " (it says nothing of \(Self.listed(unanswered)))")
                + (unasked.isEmpty ? "" : " (it names \(Self.listed(unasked)), which were not asked)")
            throw APIError.invalidResponse(
                url: url, status: 200, reason: reason, snippet: APIError.snippet(raw, hiding: secrets))
        }
        return (deleted, missing, strings("notices") ?? [])
    }

    /// `POST {"action":"update",…}` of `fields` with what they held and the change's name: the item as saved, checked.
    public func update(
        _ item: Item, to changed: Item, fields: Set<ItemField>, change: String? = nil
    ) async throws -> Item {
        let share =
            item.payer != changed.payer || item.personal != changed.personal || item.shared != changed.shared
        let sayShared = item.personal != changed.personal || item.shared != changed.shared
        func members(_ of: Item, withShare: Bool = false) -> String {
            var members: [String] = []
            // Who paid, when the change is to it; never in "was" (a copy read without it would look like a conflict).
            // Only what changes: `--personal` must not write over who paid as this machine last read it.
            if withShare, item.payer != changed.payer {
                members.append("\"payer\":" + (of.payer.map(ItemJSON.string) ?? "null"))
            }
            // personal: true one person's own, false said to be shared, null unsaid.
            if withShare, sayShared {
                members.append("\"personal\":" + (of.personal ? "true" : of.shared ? "false" : "null"))
            }
            for field in ItemField.allCases where fields.contains(field) {
                switch field {
                case .id: continue
                case .date: members.append("\"date\":\"\(of.date.compact)\"")
                case .name: members.append("\"name\":\(ItemJSON.string(of.name))")
                case .price: members.append("\"price\":\(of.price)")
                case .category: members.append("\"category\":\(of.category)")
                case .categorySub: members.append("\"categorySub\":\(of.categorySub.map(String.init) ?? "null")")
                }
            }
            return "{" + members.joined(separator: ",") + "}"
        }
        // Only the fields changed are sent, so another machine's change to another field is kept; what they held lets the
        // script refuse, as a conflict, to undo a change made since; the name makes it once however often it arrives.
        let body =
            "{\"action\":\"update\",\"id\":\(ItemJSON.string(item.id)),\"date\":\"\(item.date.compact)\","
            + "\"changes\":\(members(changed, withShare: share)),\"was\":\(members(item))"
            + (change.map { ",\"change\":\(ItemJSON.string($0))" } ?? "") + "}"
        let (answer, raw, url) = try await post(body)
        guard let saved = try? ItemCodec.items(Data("[".utf8) + raw + Data("]".utf8)).first else {
            throw APIError.invalidResponse(
                url: url, status: 200, reason: "the answer to an update is not the item saved",
                snippet: APIError.snippet(raw, hiding: secrets))
        }
        // A change the script made before (its answer lost) is answered as the item is now, which a later change may have moved on.
        let madeBefore: Bool = if case .bool(true, _)? = answer[member: "already"] { true } else { false }
        let unchanged = fields.filter { field in
            switch field {
            case .id: false
            case .date: saved.date != changed.date
            case .name: saved.name != changed.name
            case .price: saved.price != changed.price
            case .category: saved.category != changed.category
            case .categorySub: saved.categorySub != changed.categorySub
            }
        }
        let shareUnchanged =
            (item.payer != changed.payer && saved.payer != changed.payer)
            || (sayShared && (saved.personal != changed.personal || saved.shared != changed.shared))
        guard SheetText.key(saved.id) == SheetText.key(item.id), madeBefore || (unchanged.isEmpty && !shareUnchanged)
        else {
            let reason =
                SheetText.key(saved.id) != SheetText.key(item.id)
                ? "the answer to an update of \(item.id) is another item (\(saved.id))"
                : "the answer to an update of \(item.id) does not show the change made (\(unchanged.map(\.rawValue).sorted().joined(separator: ", ")))"
            throw APIError.invalidResponse(
                url: url, status: 200, reason: reason, snippet: APIError.snippet(raw, hiding: secrets))
        }
        return saved
    }

    /// Gives a row typed into the sheet by hand (no id; `item` as it was read) the id `newID`, through the bundled
    /// script's adopt action; returns the item as saved. Sending it again is safe: the row that has the id is answered.
    public func adopt(_ item: Item, id newID: String) async throws -> Item {
        let body =
            "{\"action\":\"adopt\",\"id\":\(ItemJSON.string(newID)),\"item\":{\"date\":\"\(item.date.compact)\","
            + "\"name\":\(ItemJSON.string(item.name)),\"price\":\(item.price),\"category\":\(item.category),"
            + "\"categorySub\":\(item.categorySub.map(String.init) ?? "null")}}"
        let (_, raw, url) = try await post(body)
        guard let saved = try? ItemCodec.items(Data("[".utf8) + raw + Data("]".utf8)).first,
            SheetText.key(saved.id) == SheetText.key(newID)
        else {
            throw APIError.invalidResponse(
                url: url, status: 200, reason: "the answer to giving a row typed by hand an id is not that row with it",
                snippet: APIError.snippet(raw, hiding: secrets))
        }
        return saved
    }

    static func listed(_ ids: [String]) -> String {
        ids.prefix(5).joined(separator: ", ") + (ids.count > 5 ? " and \(ids.count - 5) more" : "")
    }

    /// An extension's POST, sent once: its answer's members, or the script's refusal.
    func post(
        _ body: String, timeout seconds: Double? = nil
    ) async throws -> (members: [(key: String, value: JSONValue)], body: Data, url: URL) {
        let request = authorized(
            HTTPRequest(
                method: "POST", url: baseURL,
                headers: [
                    "Accept": "application/json", "Content-Type": "application/json; charset=utf-8",
                    "User-Agent": ExpenseLogAPI.userAgent,
                ],
                body: Data(body.utf8), timeout: timeout ?? seconds ?? ExpenseLogAPI.registerTimeout))
        let url = request.url
        return try await perform(request, mayRetry: { $0.provesNotProcessed(requestURL: url) }) { response in
            (try object(of: response, what: "the body"), response.body, response.url)
        }
    }

    /// An extension's answer as a JSON object's members: a status, an Apps Script error page or the script's refusal
    /// is thrown, and so is an answer that is no object (`what` names it in the error).
    func object(of response: HTTPResponse, what: String) throws -> [(key: String, value: JSONValue)] {
        guard (200...299).contains(response.status) else {
            throw APIError.httpStatus(
                url: response.url, status: response.status, snippet: APIError.snippet(response.body, hiding: secrets))
        }
        try Self.pageFailure(response, hiding: secrets)
        try Self.refusal(response, hiding: secrets)
        guard case .object(let members, _)? = try? JSONParser.parse(Array(response.body)) else {
            throw APIError.invalidResponse(
                url: response.url, status: response.status, reason: "\(what) is not the JSON object expected",
                snippet: APIError.snippet(response.body, hiding: secrets))
        }
        return members
    }
}
