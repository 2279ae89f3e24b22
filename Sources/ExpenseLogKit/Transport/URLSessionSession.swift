import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live session over Foundation's URLSession. It follows redirects itself (the 302 Apps Script answers with
/// turns the POST into a GET), so that a failure says which hop failed: after a redirect, the script has run.
public struct URLSessionSession: Session {
    /// Redirects followed before giving up, as browsers and curl do.
    static let maxRedirects = 10
    private let session: URLSession

    /// A session with no cache and no cookies, so each run sees the server as it is.
    public init() {
        session = Self.makeSession()
    }

    private static func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        // FoundationNetworking's default is 6, which would make a year's twelve GETs two round trips.
        configuration.httpMaximumConnectionsPerHost = MonthLoader.defaultConcurrency
        return URLSession(configuration: configuration, delegate: RedirectGuard(), delegateQueue: nil)
    }

    /// Sends the request; transport failures come back as `APIError.network`.
    ///
    /// The deadline is enforced here too: FoundationNetworking rounds `timeoutInterval` down to whole
    /// seconds (0.5 becomes "no timeout"), and the contract's `--timeout` takes fractions.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
            group.addTask { try await follow(request) }
            group.addTask {
                try await Task.sleep(for: .seconds(request.timeout))
                throw APIError.network(url: request.url, reason: .timedOut)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else {
                throw APIError.network(url: request.url, reason: .other("the request was cancelled"))
            }
            return first
        }
    }

    /// Sends, then follows redirects: 301/302/303 become a GET without body (what Apps Script expects after a POST),
    /// 307/308 repeat the request; `Authorization` is dropped when the redirect leaves the origin, as curl does.
    /// A transport failure names the URL of the hop that failed.
    private func follow(_ request: HTTPRequest) async throws -> HTTPResponse {
        // A POST gets a connection of its own. libcurl silently re-sends a request whose reused keep-alive connection
        // dies before an answer, assuming it never ran; a server that ran the POST and then dropped the line would get
        // it twice. On a fresh connection libcurl reports the failure instead, and the outbox takes over.
        let fresh = request.method == "GET" ? nil : Self.makeSession()
        defer { fresh?.finishTasksAndInvalidate() }
        var current = request
        for _ in 0...Self.maxRedirects {
            let response = try await perform(current, on: current.method == "GET" ? session : fresh ?? session)
            guard [301, 302, 303, 307, 308].contains(response.status), let location = response.headers["location"],
                  let next = URL(string: location, relativeTo: current.url)?.absoluteURL else { return response }
            if response.status <= 303, current.method != "GET" {
                current.method = "GET"
                current.body = nil
                current.headers["Content-Type"] = nil
            }
            if !Self.sameOrigin(current.url, next) { current.headers["Authorization"] = nil }
            current.url = next
        }
        throw APIError.network(url: current.url, reason: .redirect("more than \(Self.maxRedirects) redirects"))
    }

    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && (a.port ?? defaultPort(a)) == (b.port ?? defaultPort(b))
    }

    static func defaultPort(_ url: URL) -> Int? {
        switch url.scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }

    private func perform(_ request: HTTPRequest, on session: URLSession) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData,
                                    timeoutInterval: max(1, request.timeout.rounded(.up)))
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch let error as URLError {
            throw APIError.network(url: request.url, reason: NetworkFailure(error))
        } catch is CancellationError {
            throw APIError.network(url: request.url, reason: .timedOut)
        } catch {
            throw APIError.network(url: request.url, reason: .other(String(describing: error)))
        }
        guard let http = response as? HTTPURLResponse else {
            throw APIError.invalidResponse(url: request.url, status: 0, reason: "the answer was not HTTP", snippet: "")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data, url: http.url ?? request.url)
    }
}

/// Stops URLSession from following redirects, so that `URLSessionSession` follows them itself.
final class RedirectGuard: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
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
