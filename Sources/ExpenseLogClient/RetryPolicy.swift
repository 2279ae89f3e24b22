import ExpenseLogModel
import Foundation

/// How often and how long to wait before trying a request again: exponential backoff with full jitter,
/// or exactly what the server's `Retry-After` asks for.
public struct RetryPolicy: Sendable, Equatable {
    /// Retries after the first attempt unless `--retries` says otherwise.
    public static let defaultRetries = 3
    /// The most `--retries` accepts; more would only hide an outage behind minutes of waiting.
    public static let maximumRetries = 10

    /// Retries after the first attempt (`--retries`).
    public var maxRetries: Int
    /// The backoff ceiling before the first retry, in seconds; it doubles for each further retry.
    public var base: Double
    /// The largest backoff ceiling, in seconds.
    public var cap: Double
    /// The longest `Retry-After` honoured; a server asking for more is not retried (the caller serves the cache or queues).
    public var retryAfterCap: Double
    /// Whether a server that cannot be reached at all (connection refused, no network) is tried again; `add` queues at
    /// once instead, since a second later it is just as unreachable and the item is safe in the outbox.
    public var retriesUnreachable = true

    /// A policy; the defaults are the contract's (3 retries, base 0.5 s, cap 8 s, `Retry-After` up to 60 s).
    public init(maxRetries: Int = defaultRetries, base: Double = 0.5, cap: Double = 8, retryAfterCap: Double = 60) {
        self.maxRetries = maxRetries
        self.base = base
        self.cap = cap
        self.retryAfterCap = retryAfterCap
    }

    /// The wait in seconds before retry number `retry` (1 for the first), or nil when the server asks for longer than the cap.
    ///
    /// Full jitter (a uniform wait between 0 and the ceiling) spreads out clients that failed together,
    /// so they do not all come back at the same instant.
    public func delay(
        beforeRetry retry: Int, retryAfter: Double?,
        random: (ClosedRange<Double>) -> Double = { Double.random(in: $0) }
    ) -> Double? {
        if let retryAfter {
            return retryAfter <= retryAfterCap ? max(0, retryAfter) : nil
        }
        let ceiling = min(cap, base * Double(1 << min(max(retry - 1, 0), 30)))
        return random(0...ceiling)
    }
}

/// The `Retry-After` header: delay-seconds or an HTTP date (RFC 9110 §10.2.3), parsed without `DateFormatter`.
public enum RetryAfter {
    /// Seconds to wait from `now`, or nil when the value is neither form.
    public static func seconds(_ value: String, now: Date) -> Double? {
        let text = value.trimmingSpaces()
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return Double(text)
        }
        guard let date = httpDate(text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Reads the three forms HTTP allows: `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT`
    /// and `Sun Nov  6 08:49:37 1994`, all in GMT.
    static func httpDate(_ text: String) -> Date? {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).map(String.init)
        var day: Int?, month: Int?, year: Int?, time: [Int]?
        for token in tokens.dropFirst() {  // the first token is the weekday, which says nothing the date does not
            if token.contains(":") {
                let parts = token.split(separator: ":").compactMap { Int($0) }
                guard parts.count == 3 else { return nil }
                time = parts
            } else if let index = months.firstIndex(of: token.lowercased()) {
                month = index + 1
            } else if let number = Int(token), token.allSatisfy(\.isASCII) {
                if token.count == 4 || day != nil {
                    year = token.count == 2 ? (number < 70 ? 2000 + number : 1900 + number) : number
                } else {
                    day = number
                }
            } else if token.uppercased() != "GMT" {
                return nil
            }
        }
        guard let day, let month, let year, let time, let valid = Day(year: year, month: month, day: day),
            (0...23).contains(time[0]), (0...59).contains(time[1]), (0...60).contains(time[2])
        else { return nil }
        let seconds = valid.daysSinceEpoch * 86_400 + time[0] * 3600 + time[1] * 60 + time[2]
        return Date(timeIntervalSince1970: Double(seconds))
    }
}
