import Foundation

/// This machine, as a URL's host names it.
public enum LoopbackHost {
    /// Whether a host is this machine; only literal loopback addresses and `localhost` count (`127.evil.example` does not).
    public static func matches(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127"
            && octets.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && (UInt8($0) != nil) }
    }
}
