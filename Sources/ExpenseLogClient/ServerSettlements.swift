import ExpenseLogFormats
import ExpenseLogHTTP
import ExpenseLogModel
import Foundation

extension ExpenseLogAPIClient {
    /// `GET ?action=settlements`: what partners settled, as the bundled script keeps it, with its notices.
    public func settlements() async throws -> (settlements: [Settlement], notices: [String]) {
        let (members, body, url) = try await getAction("settlements")
        return try decodeSettlements(members, url: url, body: body)
    }

    /// `POST {"action":"settle",…}`: records `settlement` once (by its id); every settlement after.
    public func record(_ settlement: Settlement) async throws -> (settlements: [Settlement], notices: [String]) {
        let body =
            "{\"action\":\"settle\",\"settlement\":{\"id\":\(ItemJSON.string(settlement.id)),"
            + "\"from\":\"\(settlement.from)\",\"to\":\"\(settlement.to)\",\"payer\":\(ItemJSON.string(settlement.payer)),"
            + "\"payee\":\(ItemJSON.string(settlement.payee)),\"amount\":\(settlement.amount),"
            + "\"ratio\":\(ItemJSON.string(settlement.ratio)),\"recorded\":\(ItemJSON.string(settlement.recorded))}}"
        let (members, raw, url) = try await post(body)
        return try decodeSettlements(members, url: url, body: raw)
    }

    private func decodeSettlements(
        _ members: [(key: String, value: JSONValue)], url: URL, body: Data
    ) throws -> (settlements: [Settlement], notices: [String]) {
        guard case .array(let list, _)? = members[member: "settlements"] else {
            throw APIError.invalidResponse(
                url: url, status: 200, reason: "the answer has no \"settlements\" array",
                snippet: APIError.snippet(body, hiding: secrets))
        }
        let settlements = list.compactMap { value -> Settlement? in
            guard case .object(let fields, _) = value,
                case .string(let id, _)? = fields[member: "id"],
                case .string(let from, _)? = fields[member: "from"], let first = Day(parsing: from),
                case .string(let to, _)? = fields[member: "to"], let last = Day(parsing: to),
                case .string(let payer, _)? = fields[member: "payer"],
                case .string(let payee, _)? = fields[member: "payee"],
                case .number(let amount, _)? = fields[member: "amount"], let yen = Int(amount)
            else { return nil }
            func text(_ key: String) -> String {
                if case .string(let text, _)? = fields[member: key] { text } else { "" }
            }
            return Settlement(
                id: id, from: first, to: last, payer: payer, payee: payee, amount: yen, ratio: text("ratio"),
                recorded: text("recorded"))
        }
        var notices: [String] = []
        if case .array(let values, _)? = members[member: "notices"] {
            notices = values.compactMap { if case .string(let text, _) = $0 { text } else { nil } }
        }
        return (settlements, notices)
    }
}
