import Foundation

/// A small JSON file of the tool's state (the import decisions, the shop rules): read whole, and rewritten whole under
/// its lock (`FILE.lock`) and atomically, so two runs at once both keep what they add.
struct LockedJSONFile<Contents: Codable> {
    /// The file.
    let url: URL
    /// What the file holds, for an error (`a file of shop rules`).
    let kind: String
    /// What to do when it cannot be read.
    let remedy: String

    /// What the file holds; nil when it does not exist yet.
    func load() throws -> Contents? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(Contents.self, from: Data(contentsOf: url))
        } catch {
            throw StoreError.readFailed(
                path: url.path, reason: "it is not \(kind) (\(StoreError.reason(of: error))); \(remedy)")
        }
    }

    /// Applies `change` to what the file holds (`empty` when it does not exist yet) under its lock and writes it back;
    /// returns what `change` returned.
    func update<Result>(empty: Contents, _ change: (inout Contents) throws -> Result) async throws -> Result {
        let lock = try await FileLock.acquire(url.appendingPathExtension("lock"))
        defer { lock.release() }
        var contents = try load() ?? empty
        let result = try change(&contents)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        try AtomicFile.write(try encoder.encode(contents), to: url)
        return result
    }
}
