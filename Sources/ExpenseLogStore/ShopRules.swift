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

    private var file: LockedJSONFile<File> {
        LockedJSONFile(
            url: url, kind: "a file of shop rules",
            remedy: "fix it or move it aside (`expense-log rule add` starts a new one)")
    }

    /// Every rule, in the order they were added; none when the file does not exist yet.
    public func load() throws -> [ShopRule] {
        try file.load()?.rules ?? []
    }

    /// Applies `change` to the rules under the file's lock and writes them back; returns what `change` returned.
    public func update<Result>(_ change: (inout [ShopRule]) throws -> Result) async throws -> Result {
        try await file.update(empty: File()) { try change(&$0.rules) }
    }
}
