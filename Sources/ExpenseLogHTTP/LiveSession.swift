import Foundation

/// The session of `release` and `development`: one transport per platform, each the one people already trust for
/// their other tools there. libcurl on Linux (loaded at the first request: `CurlSession`), Foundation's URLSession on
/// macOS. Both read the proxy variables as curl does; libcurl trusts what `SSL_CERT_FILE`/`SSL_CERT_DIR` name, and
/// URLSession the keychain.
public enum LiveSession {
    /// A new live session, reading its proxy and trust settings from `environment`.
    public static func make(environment: [String: String] = ProcessInfo.processInfo.environment) -> any Session {
        #if os(Linux)
        return CurlSession(environment: environment)
        #else
        return URLSessionSession(environment: environment)
        #endif
    }

    /// The proxy variable set in `environment` that requests go through, if any (as curl reads them).
    public static func proxyVariable(in environment: [String: String]) -> String? {
        ["https_proxy", "HTTPS_PROXY", "http_proxy", "all_proxy", "ALL_PROXY"].first {
            !(environment[$0] ?? "").isEmpty
        }
    }
}

/// The certificates to trust instead of the system's, as OpenSSL's tools and curl read them: `SSL_CERT_FILE` (a PEM
/// file of certificates) and `SSL_CERT_DIR` (a folder of hashed certificates). Empty values are not set.
public struct CertificateTrust: Sendable, Equatable {
    /// `SSL_CERT_FILE`.
    public let file: String?
    /// `SSL_CERT_DIR`.
    public let folder: String?

    /// The trust the variables give.
    public init(environment: [String: String]) {
        file = environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        folder = environment["SSL_CERT_DIR"].flatMap { $0.isEmpty ? nil : $0 }
    }
}
