import Foundation

#if canImport(CFNetwork)
import CFNetwork
#endif

/// The proxies the usual variables name (`https_proxy`, `http_proxy`, `no_proxy`, as curl reads them), for the one
/// transport that does not read them itself: Apple's URLSession, which follows the system's settings instead.
public struct ProxySettings: Sendable, Equatable {
    /// A proxy's host and port.
    public struct Proxy: Sendable, Equatable {
        /// The proxy's host name or address.
        public let host: String
        /// Its port (curl's 1080 when the variable names none).
        public let port: Int

        /// A proxy at a host and port.
        public init(host: String, port: Int) {
            (self.host, self.port) = (host, port)
        }
    }

    /// The proxy for `http://` URLs.
    public let http: Proxy?
    /// The proxy for `https://` URLs.
    public let https: Proxy?
    /// Hosts reached directly, as `no_proxy` lists them (`.example.com` and `example.com` both take its subdomains).
    public let exceptions: [String]

    /// The settings the variables give; lower-case names first, as curl reads them (`HTTP_PROXY` is not read, since a
    /// web server's CGI sets it from a request's `Proxy:` header).
    public init(environment: [String: String]) {
        func proxy(_ names: [String]) -> Proxy? {
            guard let text = names.lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) else {
                return nil
            }
            let url = URL(string: text.contains("://") ? text : "http://" + text)
            guard let host = url?.host, !host.isEmpty else { return nil }
            return Proxy(host: host, port: url?.port ?? 1080)
        }
        let none = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if none.contains("*") {
            (http, https, exceptions) = (nil, nil, [])
            return
        }
        http = proxy(["http_proxy"])
        https = proxy(["https_proxy", "HTTPS_PROXY"])
        exceptions = none.flatMap { entry -> [String] in
            let domain = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            return [domain, "*." + domain]
        }
    }

    /// Whether any proxy is named.
    public var isEmpty: Bool { http == nil && https == nil }

    #if canImport(CFNetwork) && os(macOS)
    /// The settings as `URLSessionConfiguration.connectionProxyDictionary` takes them (CFNetwork's CFProxySupport.h keys).
    public var dictionary: [AnyHashable: Any] {
        var settings: [AnyHashable: Any] = [:]
        if let http {
            settings[kCFNetworkProxiesHTTPEnable as String] = 1
            settings[kCFNetworkProxiesHTTPProxy as String] = http.host
            settings[kCFNetworkProxiesHTTPPort as String] = http.port
        }
        if let https {
            settings[kCFNetworkProxiesHTTPSEnable as String] = 1
            settings[kCFNetworkProxiesHTTPSProxy as String] = https.host
            settings[kCFNetworkProxiesHTTPSPort as String] = https.port
        }
        if !exceptions.isEmpty { settings[kCFNetworkProxiesExceptionsList as String] = exceptions }
        return settings
    }
    #endif
}
