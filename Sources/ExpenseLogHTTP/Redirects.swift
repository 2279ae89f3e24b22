import Foundation

/// Following redirects the way Apps Script needs, for every live session: 301/302/303 after a POST become a GET without
/// body (the script has already run), 307/308 repeat the request, and `Authorization` is dropped when a redirect
/// leaves the origin, as curl does. A failure names the URL of the hop that failed.
enum Redirects {
    /// Redirects followed before giving up, as browsers and curl do.
    static let limit = 10

    /// Sends `request` through `hop` and follows the answer's redirects, all before `deadline`.
    static func follow(
        _ request: HTTPRequest, until deadline: ContinuousClock.Instant,
        hop: (HTTPRequest, ContinuousClock.Instant) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        var current = request
        for _ in 0...limit {
            guard ContinuousClock.now < deadline else {
                throw TransportError.network(url: current.url, reason: .timedOut)
            }
            let response = try await hop(current, deadline)
            guard [301, 302, 303, 307, 308].contains(response.status), let location = response.headers["location"],
                let next = URL(string: location, relativeTo: current.url)?.absoluteURL
            else { return response }
            // Only the web: a `file:`, `gopher:` or `dict:` target would have the transport read a local file or talk to a
            // local service. And never from https down to plain http on another machine, where the data would travel
            // unencrypted (Apps Script's redirect stays on https).
            let scheme = next.scheme?.lowercased()
            guard scheme == "http" || scheme == "https" else {
                throw TransportError.network(
                    url: current.url,
                    reason: .redirect("to \(URLRedaction.redacted(next)), which is not an http(s) URL"))
            }
            if current.url.scheme?.lowercased() == "https", scheme == "http", !LoopbackHost.matches(next.host ?? "") {
                throw TransportError.network(
                    url: current.url,
                    reason: .redirect("from https down to plain http (\(URLRedaction.redacted(next)))"))
            }
            if response.status <= 303, current.method != "GET" {
                current.method = "GET"
                current.body = nil
                current.headers["Content-Type"] = nil
            }
            if !sameOrigin(current.url, next) { current.headers["Authorization"] = nil }
            current.url = next
        }
        throw TransportError.network(url: current.url, reason: .redirect("more than \(limit) redirects"))
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

    /// Milliseconds left before a deadline, for transports that take a number (at least 1: 0 means "none" to libcurl).
    static func milliseconds(until deadline: ContinuousClock.Instant) -> Int {
        let left = deadline - ContinuousClock.now
        return max(1, Int(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
    }
}
