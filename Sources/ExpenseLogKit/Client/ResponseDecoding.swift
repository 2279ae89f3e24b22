import Foundation

extension ExpenseLogAPIClient {
    /// Checks the status and decodes the JSON array of items, telling an HTML page from broken JSON.
    static func decodeItems(_ response: HTTPResponse) throws -> [Item] {
        guard (200...299).contains(response.status) else {
            throw APIError.httpStatus(url: response.url, status: response.status, snippet: APIError.snippet(response.body))
        }
        if JSONParser.firstSignificantByte(of: response.body) == UInt8(ascii: "<") {
            throw APIError.invalidResponse(
                url: response.url, status: response.status,
                reason: "the body is an HTML page, not JSON (is the URL the web app's /exec URL, deployed for your account?)",
                snippet: APIError.snippet(response.body))
        }
        do {
            return try JSONDecoder().decode([Item].self, from: response.body)
        } catch {
            throw APIError.invalidResponse(url: response.url, status: response.status,
                                           reason: "the body is not a JSON array of items (\(describe(error, bytes: response.body.count))); "
                                               + "try again, and if it persists check the web app's deployment and logs",
                                           snippet: APIError.snippet(response.body))
        }
    }

    static func describe(_ error: any Error, bytes: Int) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "malformed or cut-off JSON in \(bytes) bytes"
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return "at \(path.isEmpty ? "the top" : path): \(context.debugDescription)"
        @unknown default:
            return String(describing: error)
        }
    }
}
