import Foundation

/// Which live session carries the requests of `release` and `development`.
public enum Transport: String, Sendable, CaseIterable {
    /// libcurl's easy interface (Linux only): idle while the server thinks, the size limit held piece by piece.
    case curl
    /// Foundation's URLSession (macOS only: on Linux, FoundationNetworking would load libcurl at every start).
    case urlsession

    /// The one this build has: curl on Linux, URLSession elsewhere (macOS, where URLSession neither spins nor needs it).
    public static var standard: Transport {
        #if os(Linux)
        return .curl
        #else
        return .urlsession
        #endif
    }

    /// Whether this build has it.
    public var isAvailable: Bool { self == Self.standard }

    /// A new session of this kind.
    public func makeSession() -> any Session {
        #if os(Linux)
        return CurlSession()
        #else
        return URLSessionSession()
        #endif
    }
}
