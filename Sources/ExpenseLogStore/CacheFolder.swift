import ExpenseLogModel
import Foundation

/// The cache folder of one server: a month is only ever served for the server it was fetched from, so changing
/// `--base-url` (a typo, a new deployment, another household's sheet) never shows another server's months.
public enum CacheFolder {
    /// `script.google.com-3F2A9C1B7D04E6A8`: the host (and port) to read, and a hash of the whole base URL, because
    /// every Apps Script deployment has the same host.
    public static func name(for baseURL: URL) -> String {
        let host = (baseURL.host ?? "server").lowercased()
        let readable = (host + (baseURL.port.map { "_\($0)" } ?? ""))
            .map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" ? $0 : "_" }
        return String(readable.prefix(60)) + "-" + hash(canonical(baseURL))
    }

    /// The URL as the server sees it: scheme and host are case-insensitive, the path and query are not.
    static func canonical(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        parts.scheme = parts.scheme?.lowercased()
        parts.host = parts.host?.lowercased()
        parts.fragment = nil
        return parts.string ?? url.absoluteString
    }

    /// 64-bit FNV-1a as 16 hex digits: stable across runs and machines (Swift's `hashValue` is seeded per process).
    static func hash(_ text: String) -> String {
        let value = text.utf8.reduce(UInt64(0xCBF2_9CE4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
        let hex = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Moves month files of the layout before per-server folders (`<env>/YYYY-MM.json`) into `<env>/legacy/`, where
    /// nothing reads them: which server they came from is unknown. Returns how many were moved, and where.
    public static func moveLegacyMonths(in environmentFolder: URL) -> (count: Int, folder: URL) {
        let legacy = environmentFolder.appendingPathComponent("legacy", isDirectory: true)
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: environmentFolder.path) else { return (0, legacy) }
        let months = names.filter { name in
            name.hasSuffix(".json") && YearMonth(parsing: String(name.dropLast(5))) != nil
        }
        guard !months.isEmpty, (try? AtomicFile.createDirectory(legacy)) != nil else { return (0, legacy) }
        var moved = 0
        for name in months {
            // rename(2): atomic, and a second process racing on the same file loses nothing.
            if rename(environmentFolder.appendingPathComponent(name).path, legacy.appendingPathComponent(name).path)
                == 0
            {
                moved += 1
            }
        }
        return (moved, legacy)
    }
}
