import Foundation

/// How long a POST whose answer never came may still be running on the server.
public struct ResendWait: Sendable, Equatable {
    /// Apps Script's longest execution: 6 minutes.
    public static let appsScript = ResendWait(seconds: 360)

    /// Seconds after a POST before its batch may be sent again; 0 for a server that skips ids it has (no wait).
    public let seconds: Double

    /// A wait of so many seconds.
    public init(seconds: Double) {
        self.seconds = max(0, seconds)
    }

    /// When a batch last POSTed at `attempt` becomes safe to send again.
    public func safe(after attempt: Date) -> Date {
        attempt.addingTimeInterval(seconds)
    }
}
