import Foundation

/// Which live session carries the requests of `release` and `development`.
public enum Transport: String, Sendable, CaseIterable {
    /// libcurl's easy interface (Linux only): idle while the server thinks, the size limit held piece by piece.
    case curl
    /// Foundation's URLSession (FoundationNetworking on Linux).
    case urlsession

    /// curl where it is built in (Linux), URLSession elsewhere (macOS, where URLSession neither spins nor needs it).
    public static var standard: Transport {
        #if canImport(CCurl)
        return .curl
        #else
        return .urlsession
        #endif
    }

    /// Whether this build has it.
    public var isAvailable: Bool {
        #if canImport(CCurl)
        return true
        #else
        return self == .urlsession
        #endif
    }

    /// A new session of this kind.
    public func makeSession() -> any Session {
        #if canImport(CCurl)
        if self == .curl { return CurlSession() }
        #endif
        return URLSessionSession()
    }
}
