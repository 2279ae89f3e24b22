import Foundation

/// A time as a person reads it: in the local time zone (`TZ` honoured), with its offset, so a cron mail in Japan does
/// not read as yesterday. JSON keeps UTC (`…Z`), for scripts.
public enum LocalTime {
    /// `2026-11-26 00:40:49+09:00`.
    public static func text(_ date: Date, in zone: TimeZone = .current) -> String {
        date.formatted(Date.ISO8601FormatStyle(dateTimeSeparator: .space, timeZoneSeparator: .colon, timeZone: zone))
    }
}
