import Foundation

/// Which language a person reads: the POSIX locale variables first (as every shell tool), then, on macOS, where
/// Terminal may start a shell with no `LANG`, the languages chosen in System Settings (`Locale.preferredLanguages`).
public enum Language {
    /// Whether words should be Japanese, from the environment and the system's preferred languages.
    public static func isJapanese(environment: [String: String], preferred: [String]) -> Bool {
        let locale = [environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]].compactMap { $0 }.first {
            !$0.isEmpty
        }
        if let locale { return locale.hasPrefix("ja") }
        return preferred.first?.hasPrefix("ja") ?? false
    }

    /// The system's preferred languages where they are the person's choice (macOS); none elsewhere, where Foundation
    /// derives them from the same variables already read.
    public static var systemPreferred: [String] {
        #if canImport(Darwin)
        return Locale.preferredLanguages
        #else
        return []
        #endif
    }
}
