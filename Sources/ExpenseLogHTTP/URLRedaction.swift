import Foundation

/// URLs as they may be shown: in messages, logs and the request log.
public enum URLRedaction {
    /// The URL without user info, query values or a path after `/exec/` (the bundled script's key) that could hold a secret.
    public static func redacted(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        if parts.password != nil { parts.password = "***" }
        if pathKey(of: url) != nil, let exec = parts.percentEncodedPath.range(of: "/exec/") {
            parts.percentEncodedPath = parts.percentEncodedPath[..<exec.upperBound] + "***"
        }
        parts.queryItems = parts.queryItems?.map { item in
            ["year", "month", "action"].contains(item.name) ? item : URLQueryItem(name: item.name, value: "***")
        }
        return parts.string ?? url.absoluteString
    }

    /// The bundled script's key when a URL carries it as the path after `/exec/` (`…/exec/KEY`), else nil.
    public static func pathKey(of url: URL) -> String? {
        let path = url.path
        guard let exec = path.range(of: "/exec/") else { return nil }
        let key = path[exec.upperBound...].split(separator: "/").first.map(String.init) ?? ""
        return key.isEmpty ? nil : key
    }
}
