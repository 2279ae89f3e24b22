import ExpenseLogFormats
import ExpenseLogHTTP
import ExpenseLogModel
import Foundation

/// The household's fixed costs as the bundled script keeps them (its `rules` action), with what it says of rows a person
/// typed that it could not read.
public struct ServerRules: Sendable {
    /// The rules, in the sheet's order.
    public let rules: [RecurringRule]
    /// The script's notices (a row of the rules sheet left out, and why).
    public let notices: [String]
}

extension ExpenseLogAPIClient {
    /// `GET ?action=rules`: the rules the server keeps.
    public func rules() async throws -> ServerRules {
        let (members, body, url) = try await getAction("rules")
        return try decodeRules(members, url: url, body: body)
    }

    /// `GET ?action=NAME` of the bundled script (retried as a read is): its answer's members, or its refusal.
    func getAction(_ name: String) async throws -> (members: [(key: String, value: JSONValue)], body: Data, url: URL) {
        let request = authorized(
            HTTPRequest(
                method: "GET", url: actionURL(name),
                headers: ["Accept": "application/json", "User-Agent": ExpenseLogAPI.userAgent],
                timeout: timeout ?? ExpenseLogAPI.fetchTimeout))
        return try await perform(request, mayRetry: { _ in true }) { response in
            (try object(of: response, what: "the answer to ?action=\(name)"), response.body, response.url)
        }
    }

    /// The base URL with `action=NAME` added to its query as written (re-encoding it would turn a `%2B` into `+`).
    func actionURL(_ name: String) -> URL {
        var parts = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
        let existing = parts?.percentEncodedQuery ?? ""
        parts?.percentEncodedQuery = existing.isEmpty ? "action=\(name)" : existing + "&action=\(name)"
        return parts?.url ?? baseURL
    }

    /// `POST {"action":"rules",…}`: adds or replaces `put` (by id) and deletes the rules named in `remove`; every rule
    /// after the change.
    public func saveRules(put: [RecurringRule], remove: [String]) async throws -> ServerRules {
        let body =
            "{\"action\":\"rules\",\"put\":[\(put.map(RecurringRuleJSON.object).joined(separator: ","))],"
            + "\"remove\":[\(remove.map(ItemJSON.string).joined(separator: ","))]}"
        let (members, raw, url) = try await post(body)
        return try decodeRules(members, url: url, body: raw)
    }

    private func decodeRules(
        _ members: [(key: String, value: JSONValue)], url: URL, body: Data
    ) throws -> ServerRules {
        guard let list = members[member: "rules"] else {
            throw APIError.invalidResponse(
                url: url, status: 200, reason: "the answer has no \"rules\"",
                snippet: APIError.snippet(body, hiding: secrets))
        }
        do {
            let rules = try RecurringRuleJSON.rules(list)
            var notices: [String] = []
            if case .array(let values, _)? = members[member: "notices"] {
                notices = values.compactMap { if case .string(let text, _) = $0 { text } else { nil } }
            }
            return ServerRules(rules: rules, notices: notices)
        } catch {
            throw APIError.invalidResponse(
                url: url, status: 200, reason: "the server's \(error.message)",
                snippet: APIError.snippet(body, hiding: secrets))
        }
    }
}
