import ExpenseLogFormats
import ExpenseLogModel
import Foundation

/// Fixed-cost rules kept in a file on this machine: the rules themselves when the server keeps none (a server without
/// the bundled script's `rules` action, the dummy environment), or the last copy of the server's (read offline). One rule
/// a line (`RecurringRuleJSON`), rewritten whole under its lock (`FILE.lock`) and atomically.
public struct RecurringRuleFile: Sendable {
    /// The file.
    public let url: URL

    /// The file at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// The rules; none when the file does not exist yet.
    public func load() throws -> [RecurringRule] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            return try RecurringRuleJSON.rules(try JSONParser.parse(Array(try Data(contentsOf: url))))
        } catch let error as RuleFormatError {
            throw StoreError.readFailed(
                path: url.path,
                reason: "it is not a file of fixed-cost rules (\(error.message)); fix it or move it aside")
        } catch {
            throw StoreError.readFailed(
                path: url.path,
                reason: "it is not a file of fixed-cost rules (\(StoreError.reason(of: error))); fix it "
                    + "or move it aside")
        }
    }

    /// Replaces the rules with `rules`.
    public func save(_ rules: [RecurringRule]) async throws {
        try await update { $0 = rules }
    }

    /// Applies `change` to the rules under the file's lock and writes them back; returns what `change` returned.
    public func update<Result>(_ change: (inout [RecurringRule]) throws -> Result) async throws -> Result {
        let lock = try await FileLock.acquire(url.appendingPathExtension("lock"))
        defer { lock.release() }
        var rules = try load()
        let result = try change(&rules)
        try AtomicFile.write(Data(RecurringRuleJSON.array(rules).utf8), to: url)
        return result
    }
}
