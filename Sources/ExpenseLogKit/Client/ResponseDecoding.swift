import Foundation

extension ExpenseLogAPIClient {
    /// Checks the status and decodes the JSON array of items, telling an HTML page from broken JSON;
    /// `secret` is hidden in the quoted start of the body.
    static func decodeItems(_ response: HTTPResponse, hiding secret: String? = nil) throws -> [Item] {
        guard (200...299).contains(response.status) else {
            throw APIError.httpStatus(url: response.url, status: response.status, snippet: APIError.snippet(response.body, hiding: secret))
        }
        if JSONParser.firstSignificantByte(of: response.body) == UInt8(ascii: "<") {
            throw APIError.invalidResponse(
                url: response.url, status: response.status,
                reason: "the body is an HTML page, not JSON (is the URL the web app's /exec URL, deployed for your account?)",
                snippet: APIError.snippet(response.body, hiding: secret))
        }
        if let items = WireItems.items(response.body) { return items }
        do {
            return try JSONDecoder().decode([Item].self, from: response.body)
        } catch {
            throw APIError.invalidResponse(url: response.url, status: response.status,
                                           reason: "the body is not a JSON array of items (\(DecodingProblem.describe(error, bytes: response.body.count))); "
                                               + "try again, and if it persists check the web app's deployment and logs",
                                           snippet: APIError.snippet(response.body, hiding: secret))
        }
    }
}
