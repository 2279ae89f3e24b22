// macOS only: on Linux the live transport is libcurl (CurlSession), and FoundationNetworking is not linked at all.
#if !os(Linux)
import Foundation

/// The live session over Foundation's URLSession. It follows redirects itself (the 302 Apps Script answers with
/// turns the POST into a GET), so that a failure says which hop failed: after a redirect, the script has run.
public struct URLSessionSession: Session {
    private let session: URLSession
    private let collector: TaskCollector
    private let proxies: ProxySettings

    /// A session with no cache and no cookies, so each run sees the server as it is, going through the proxies the
    /// variables in `environment` name.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        proxies = ProxySettings(environment: environment)
        (session, collector) = Self.makeSession(proxies)
    }

    private static func makeSession(_ proxies: ProxySettings) -> (URLSession, TaskCollector) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        // FoundationNetworking's default is 6, which would make a year's twelve GETs (and its two neighbours, for an
        // import's statement rows: MonthLoader.defaultConcurrency) two round trips.
        configuration.httpMaximumConnectionsPerHost = 14
        #if canImport(CFNetwork) && os(macOS)
        // Apple's URLSession follows the system's proxy settings, not the variables curl and docs/decisions.md name.
        if !proxies.isEmpty { configuration.connectionProxyDictionary = proxies.dictionary }
        #endif
        let collector = TaskCollector()
        return (URLSession(configuration: configuration, delegate: collector, delegateQueue: nil), collector)
    }

    /// Sends the request; transport failures come back as `TransportError`s.
    ///
    /// The deadline covers the whole request, redirects included, and holds while bytes stream in: each task is
    /// cancelled when it passes (FoundationNetworking rounds `timeoutInterval` down to whole seconds, 0.5 becoming
    /// "no timeout", and resets it with every byte that arrives).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await follow(request, deadline: ContinuousClock.now + .seconds(request.timeout))
    }

    /// Sends, then follows redirects (see `Redirects`).
    private func follow(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws -> HTTPResponse {
        // A POST gets a connection of its own. libcurl silently re-sends a request whose reused keep-alive connection
        // dies before an answer, assuming it never ran; a server that ran the POST and then dropped the line would get
        // it twice. On a fresh connection libcurl reports the failure instead, and the outbox takes over.
        let fresh = request.method == "GET" ? nil : Self.makeSession(proxies)
        defer { fresh?.0.finishTasksAndInvalidate() }
        return try await Redirects.follow(request, until: deadline) { current, deadline in
            let (hop, collector) =
                current.method == "GET" ? (session, self.collector) : fresh ?? (session, self.collector)
            return try await perform(current, on: hop, collector, until: deadline)
        }
    }

    private func perform(
        _ request: HTTPRequest, on session: URLSession, _ collector: TaskCollector,
        until deadline: ContinuousClock.Instant
    ) async throws -> HTTPResponse {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { throw TransportError.network(url: request.url, reason: .timedOut) }
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: max(1, request.timeout.rounded(.up)))
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let http: HTTPURLResponse, data: Data
        switch await collector.run(session.dataTask(with: urlRequest), limit: request.maxAnswerBytes, deadline: left) {
        case let .answered(response, body): (http, data) = (response, body)
        case .timedOut: throw TransportError.network(url: request.url, reason: .timedOut)
        case .tooLarge(let limit): throw TransportError.answerTooLarge(url: request.url, limit: limit)
        case .failed(let error as URLError):
            throw TransportError.network(url: request.url, reason: NetworkFailure(error))
        case .failed(let error):
            throw TransportError.network(url: request.url, reason: .other(String(describing: error)))
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data, url: http.url ?? request.url)
    }
}

extension NetworkFailure {
    init(_ error: URLError) {
        switch error.code {
        case .timedOut: self = .timedOut
        case .cannotConnectToHost: self = .refused
        case .cannotFindHost, .dnsLookupFailed: self = .hostNotFound
        case .notConnectedToInternet: self = .offline
        case .networkConnectionLost: self = .connectionLost
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            self = .tls(error.localizedDescription)
        case .httpTooManyRedirects, .redirectToNonExistentLocation: self = .redirect(error.localizedDescription)
        case .badServerResponse, .cannotParseResponse, .zeroByteResource: self = .connectionLost
        default: self = .other("\(error.localizedDescription) (URLError \(error.code.rawValue))")
        }
    }
}
#endif
