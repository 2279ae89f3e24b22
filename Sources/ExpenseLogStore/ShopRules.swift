import ExpenseLogModel
import Foundation

/// The person's shop rules of an environment, `state/<environment>/shop-rules.json`: every import reads them, `rule add`
/// and `rule remove` rewrite the file whole under its lock.
public struct ShopRules: Sendable {
    /// The file.
    public let url: URL

    /// The rules kept in `folder`.
    public init(folder: URL) {
        url = folder.appendingPathComponent("shop-rules.json")
    }

    private struct File: Codable {
        var version = 1
        var rules: [ShopRule] = []
    }

    /// Every rule, in the order they were added; none when the file does not exist yet.
    public func load() throws -> [ShopRule] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            return try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).rules
        } catch {
            throw StoreError.readFailed(path: url.path, reason: "it is not a file of shop rules (\(StoreError.reason(of: error))); fix it "
                                        + "or move it aside (`expense-log rule add` starts a new one)")
        }
    }

    /// Applies `change` to the rules under the file's lock and writes them back; returns what `change` returned.
    public func update<Result>(_ change: (inout [ShopRule]) throws -> Result) async throws -> Result {
        let lock = try await FileLock.acquire(url.appendingPathExtension("lock"))
        defer { lock.release() }
        var file = File(rules: try load())
        let result = try change(&file.rules)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        try AtomicFile.write(try encoder.encode(file), to: url)
        return result
    }
}
