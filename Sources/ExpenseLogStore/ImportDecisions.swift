import ExpenseLogModel
import Foundation

/// The decisions about statement rows, by the row's id (made from its content, so an overlapping statement's rows find
/// them again): `state/<environment>/import-decisions.json`, rewritten whole under a lock by each import that decides.
public struct ImportDecisions: Sendable {
    /// The file.
    public let url: URL

    /// The decisions kept in `folder`.
    public init(folder: URL) {
        url = folder.appendingPathComponent("import-decisions.json")
    }

    private struct File: Codable {
        var version = 1
        var rows: [String: RowDecision] = [:]
    }

    private var file: LockedJSONFile<File> {
        LockedJSONFile(
            url: url, kind: "a file of import decisions",
            remedy: "move it aside to start again (the rows it decided will be matched or asked about anew)")
    }

    /// Every decision kept; none when the file does not exist yet.
    public func load() throws -> [String: RowDecision] {
        try file.load()?.rows ?? [:]
    }

    /// Forgets the decisions that a row is the same purchase as one of `items` (deleted): such a row is no longer kept
    /// anywhere, and the next import matches it anew.
    public func release(sameAs items: Set<String>) async throws {
        guard !items.isEmpty,
            try load().values.contains(where: { $0.decision == .same && $0.item.map(items.contains) == true })
        else { return }
        try await file.update(empty: File()) {
            $0.rows = $0.rows.filter { !($0.value.decision == .same && $0.value.item.map(items.contains) == true) }
        }
    }

    /// Adds `decisions` to those kept (a later decision about a row replaces an earlier one), under the file's lock so
    /// that two imports at once both keep theirs.
    public func record(_ decisions: [String: RowDecision]) async throws {
        guard !decisions.isEmpty else { return }
        try await file.update(empty: File()) { $0.rows.merge(decisions) { _, new in new } }
    }
}
