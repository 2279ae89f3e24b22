import Foundation

/// An HTTP request as plain values, so every session (live, fixture, fake) takes the same input.
public struct HTTPRequest: Sendable, Equatable {
    /// `GET` or `POST`.
    public var method: String
    /// The full URL, query included.
    public var url: URL
    /// Header fields in the order they are set.
    public var headers: [String: String]
    /// The body, for POST.
    public var body: Data?
    /// Seconds before the request is abandoned.
    public var timeout: Double
    /// The largest answer body accepted; a larger one is cut off and refused.
    public var maxAnswerBytes: Int

    /// 64 MiB: a year of a busy household's items is a few MiB, and an endless answer must not fill memory.
    public static let defaultMaxAnswerBytes = 64 << 20

    /// A request with every part given.
    public init(
        method: String, url: URL, headers: [String: String] = [:], body: Data? = nil, timeout: Double,
        maxAnswerBytes: Int = HTTPRequest.defaultMaxAnswerBytes
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maxAnswerBytes = maxAnswerBytes
    }
}

/// An HTTP answer as plain values, after redirects were followed.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code of the final answer.
    public var status: Int
    /// Header fields, names lowercased.
    public var headers: [String: String]
    /// The body bytes.
    public var body: Data
    /// The URL that gave the final answer (differs from the request's after a redirect).
    public var url: URL

    /// A response with every part given.
    public init(status: Int, headers: [String: String] = [:], body: Data, url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }
}

/// The one seam between the client and the outside world: a request in, a response or an error out.
public protocol Session: Sendable {
    /// Sends a request and returns the final answer, or throws (`TransportError` from a live session).
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
