import Foundation

/// Which live session carries the requests of `release` and `development`.
public enum Transport: String, Sendable, CaseIterable {
    /// The built-in HTTP/1.1 client (Linux only): sockets, and OpenSSL for https; no other library.
    case native
    /// libcurl's easy interface (Linux only): what `native` hands requests to when a proxy variable is set.
    case curl
    /// Foundation's URLSession (macOS only: on Linux, FoundationNetworking would load libcurl at every start).
    case urlsession

    /// The one a build uses unless the config file names another: native on Linux, URLSession elsewhere (macOS,
    /// where URLSession neither spins nor needs libcurl).
    public static var standard: Transport {
        #if os(Linux)
        return .native
        #else
        return .urlsession
        #endif
    }

    /// Whether this build has it: native and curl on Linux, URLSession elsewhere.
    public var isAvailable: Bool {
        #if os(Linux)
        return self != .urlsession
        #else
        return self == .urlsession
        #endif
    }

    /// The variables that name a proxy for libcurl (curl reads `http_proxy` in lower case only).
    static let proxyVariables = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]

    /// The proxy variable set in `environment` that has `native` hand its requests to curl, if any (Linux only).
    public func proxyVariable(in environment: [String: String]) -> String? {
        #if os(Linux)
        return self == .native ? Self.proxyVariables.first { !(environment[$0] ?? "").isEmpty } : nil
        #else
        return nil
        #endif
    }

    /// A new session of this kind; `native` gives a curl session when `environment` names a proxy, since only curl
    /// goes through proxies (and applies `no_proxy`) as the person's other tools do.
    public func makeSession(environment: [String: String] = ProcessInfo.processInfo.environment) -> any Session {
        #if os(Linux)
        return self == .native && proxyVariable(in: environment) == nil ? NativeSession() : CurlSession()
        #else
        return URLSessionSession()
        #endif
    }
}
