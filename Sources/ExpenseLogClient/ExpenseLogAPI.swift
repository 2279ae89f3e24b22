import ExpenseLogFormats
import ExpenseLogHTTP
import ExpenseLogModel
import Foundation

/// The two calls of the web app, turned into requests.
public enum ExpenseLogAPI: Sendable, Equatable {
    /// `GET <base>?year=Y&month=M` (no zero padding).
    case fetch(YearMonth, withPayer: Bool = false)
    /// `POST <base>` with a JSON array of items.
    case register([Item])

    /// This tool's version, for `--version` and the User-Agent.
    public static let version = "0.1.0"
    /// Sent on every request, so a server's logs can tell this client from a browser or curl.
    public static let userAgent = "expense-log/\(version)"

    /// Seconds a fetch may take by default (the app's value: a month's sheet can be slow to read).
    public static let fetchTimeout: Double = 60
    /// Seconds a register POST may take by default (the app's value).
    public static let registerTimeout: Double = 30

    /// This call's default timeout.
    public var defaultTimeout: Double {
        switch self {
        case .fetch: return Self.fetchTimeout
        case .register: return Self.registerTimeout
        }
    }

    /// The defaults in words, for help and `config show`.
    public static var defaultTimeoutText: String {
        "\(Int(fetchTimeout)) s for fetch, \(Int(registerTimeout)) s for register"
    }

    /// The request for this call against a base URL; `timeout` overrides the default.
    public func request(baseURL: URL, timeout: Double? = nil) -> HTTPRequest {
        switch self {
        case let .fetch(month, withPayer):
            // Append to the encoded query as written: re-encoding it would turn a signed `%2B` into `+`.
            var parts = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
            // Who paid only from the bundled script that keeps it (`fields=payer`): another answers its six keys.
            let ours = "year=\(month.year)&month=\(month.month)" + (withPayer ? "&fields=payer" : "")
            let existing = parts?.percentEncodedQuery ?? ""
            parts?.percentEncodedQuery = existing.isEmpty ? ours : existing + "&" + ours
            return HTTPRequest(
                method: "GET", url: parts?.url ?? baseURL,
                headers: ["Accept": "application/json", "User-Agent": Self.userAgent],
                timeout: timeout ?? defaultTimeout)
        case .register(let items):
            return Self.register(body: Data(ItemJSON.arrayBytes(items)), baseURL: baseURL, timeout: timeout)
        }
    }

    /// The bundled script's register action over the same items: `{"action":"register","items":BODY}`, whose answer
    /// also names the ids that were already there.
    public static func registerAction(body: Data, baseURL: URL, timeout: Double? = nil) -> HTTPRequest {
        var wrapped = Data(#"{"action":"register","items":"#.utf8)
        wrapped.append(body)
        wrapped.append(UInt8(ascii: "}"))
        return register(body: wrapped, baseURL: baseURL, timeout: timeout)
    }

    /// The register POST of a body already encoded (a batch's), so that a batch is encoded once.
    public static func register(body: Data, baseURL: URL, timeout: Double? = nil) -> HTTPRequest {
        HTTPRequest(
            method: "POST", url: baseURL,
            headers: [
                "Accept": "application/json", "Content-Type": "application/json; charset=utf-8",
                "User-Agent": userAgent,
            ],
            body: body, timeout: timeout ?? registerTimeout)
    }
}
