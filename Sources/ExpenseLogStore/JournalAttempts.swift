import Foundation

/// When each batch was last POSTed, kept beside its entry in a `.tried` log: a batch whose answer never came may
/// still be running on the server (an Apps Script execution lasts up to 6 minutes, and the script cannot read an
/// `Idempotency-Key`), so `sync` must not send it again before that time has passed, unless the server shows it.
extension Journal {
    /// Records that a batch is about to be POSTed (`at` now), or that its last POST provably never ran (`at` nil).
    public func markAttempt(_ key: String, in entry: ItemEntry, at time: Date?) throws {
        try appendLine(
            "\(key) \(time.map { String(format: "%.3f", $0.timeIntervalSince1970) } ?? "-")",
            to: attemptLog(for: entry.file))
    }

    /// The time of each batch's last POST whose fate is unknown, by key; batches never sent, or whose last POST
    /// provably never ran, are absent. A line torn by a crash is ignored: it is written before its POST, which never went out.
    public func attempts(in entry: ItemEntry) -> [String: Date] {
        guard let data = FileManager.default.contents(atPath: attemptLog(for: entry.file).path) else { return [:] }
        var attempts: [String: Date] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast()
        {
            let parts = line.split(separator: " ")
            guard parts.count == 2 else { continue }
            attempts[String(parts[0])] = Double(parts[1]).map(Date.init(timeIntervalSince1970:))
        }
        return attempts
    }

    func attemptLog(for file: URL) -> URL {
        file.deletingPathExtension().appendingPathExtension("tried")
    }
}
