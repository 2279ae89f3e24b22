/// Which server the tool talks to: the real one, a development one, or the bundled fixtures.
public enum Environment: String, Sendable, CaseIterable {
    /// The production web app; only `https://` or loopback `http://` is accepted.
    case release
    /// A development server; any `http(s)://` URL.
    case development
    /// No network: answers come from `fetch.json` and `register.json`.
    case dummy

    /// Whether this environment needs a base URL and sends real requests.
    public var usesNetwork: Bool { self != .dummy }
}
