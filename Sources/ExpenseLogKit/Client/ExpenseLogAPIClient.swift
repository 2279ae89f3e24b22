import Foundation

/// Fetches and registers items over a `Session`, turning answers into items or `APIError`s.
public struct ExpenseLogAPIClient: Sendable {
    /// The transport.
    public let session: any Session
    /// Items per POST unless `--batch-size` says otherwise.
    public static let defaultBatchSize = 100
    /// The web app's URL.
    public let baseURL: URL
    /// Overrides the per-call timeouts when set.
    public let timeout: Double?

    /// A client for one base URL over a session.
    public init(session: any Session, baseURL: URL, timeout: Double? = nil) {
        self.session = session
        self.baseURL = baseURL
        self.timeout = timeout
    }

    /// The items of one month, as the server has them.
    public func fetch(_ month: YearMonth) async throws -> [Item] {
        try await send(.fetch(month))
    }

    /// The items of one month given as numbers; an impossible month is an `APIError.invalidMonth`.
    public func fetch(year: Int, month: Int) async throws -> [Item] {
        guard let value = YearMonth(year: year, month: month) else { throw APIError.invalidMonth(year: year, month: month) }
        return try await fetch(value)
    }

    /// Sends items in batches, handing each batch's saved items to `onSaved` before the next is sent.
    ///
    /// A failure stops at the batch that failed: earlier batches are saved on the server (and were handed over).
    public func register(_ items: [Item], batchSize: Int = defaultBatchSize,
                         onSaved: (_ saved: [Item], _ sentSoFar: Int) async throws -> Void) async throws {
        let size = max(1, batchSize)
        var start = 0
        while start < items.count {
            let end = min(start + size, items.count)
            let saved = try await send(.register(Array(items[start..<end])))
            try await onSaved(saved, end)
            start = end
        }
    }

    private func send(_ call: ExpenseLogAPI) async throws -> [Item] {
        let request = call.request(baseURL: baseURL, timeout: timeout)
        let response = try await session.send(request)
        return try Self.decodeItems(response)
    }

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
