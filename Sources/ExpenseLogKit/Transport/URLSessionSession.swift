import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live session over Foundation's URLSession, which follows the 302 Apps Script answers with (POST becomes GET).
public struct URLSessionSession: Session {
    private let session: URLSession

    /// A session with no cache and no cookies, so each run sees the server as it is.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration, delegate: RedirectGuard(), delegateQueue: nil)
    }

    /// Sends the request; transport failures come back as `APIError.network`.
    ///
    /// The deadline is enforced here too: FoundationNetworking rounds `timeoutInterval` down to whole
    /// seconds (0.5 becomes "no timeout"), and the contract's `--timeout` takes fractions.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
            group.addTask { try await perform(request) }
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

    private func perform(_ request: HTTPRequest) async throws -> HTTPResponse {
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

/// Drops the `Authorization` header when a redirect leaves the origin (scheme, host, port), as curl does:
/// FoundationNetworking would otherwise hand the token to whatever host the redirect names.
/// Apps Script's own redirect goes to script.googleusercontent.com, which serves the output and needs no token.
final class RedirectGuard: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        var next = request
        if let from = response.url, let to = request.url, !Self.sameOrigin(from, to) {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        completionHandler(next)
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
