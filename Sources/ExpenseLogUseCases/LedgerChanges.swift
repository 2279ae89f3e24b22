import ExpenseLogClient
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// What a row typed into the sheet by hand became when it was given an id.
public struct AdoptedRow: Sendable {
    /// The row as it was (no id of its own).
    public let row: Item
    /// The item the server saved, with its new id.
    public let item: Item
    /// Why the cache could not follow, if so (the server has it all the same).
    public let cacheFailure: (any Error)?
}

extension Ledger {
    /// Whether the server takes `action` (asked once and remembered in the cache, as `EditTargets.availability`).
    public nonisolated func availability(
        of action: String, link: ServerLink
    ) async throws -> ActionAvailability {
        try await EditTargets.availability(of: action, link.client, repository)
    }

    /// How many ids a deletion sends in one request (a longer `--timeout` helps a large one).
    public static let deleteBatch = ExpenseLogAPIClient.deleteBatch

    /// `server check`: which script answers at the URL and, for the bundled one, its self-test on Google.
    public nonisolated func check(_ link: ServerLink) async throws -> DeploymentCheckOutcome {
        try await DeploymentChecking(client: link.client, repository: repository).run()
    }

    /// Gives a row typed into the sheet by hand (no id) a new id through the bundled script, so a change can name it;
    /// the cache follows.
    public nonisolated func adopt(_ row: Item, link: ServerLink) async throws -> AdoptedRow {
        let saved = try await link.client.adopt(row, id: RandomID.make())
        do {
            try await repository.replace(id: row.id, with: saved)
            return AdoptedRow(row: row, item: saved, cacheFailure: nil)
        } catch {
            return AdoptedRow(row: row, item: saved, cacheFailure: error)
        }
    }

    /// What `edit`, `delete` and `same` look items up in: the cache as the changes `queued` leave it, and the items
    /// still waiting in the journal.
    public nonisolated func targets(queued: [QueuedEdit]) -> EditTargets {
        EditTargets(repository: repository, queued: queued, journal: journal)
    }
}
