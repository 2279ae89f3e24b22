import ExpenseLogClient
import ExpenseLogConfig
import ExpenseLogHTTP
import ExpenseLogModel
import ExpenseLogStore
import ExpenseLogUseCases
import Foundation

/// What `delete` and `edit` share: the items they name, found in the cache, and a server that takes the extensions.
enum ServerEdits {
    /// The cached items with these ids, in the order given, as the queued changes leave them (`EditTargets`); an id the
    /// cache lacks is a data error that says to fetch (or, for one still waiting to be registered, to sync first: 75).
    static func items(_ ids: [String], _ repository: LocalRepository, _ context: Context, _ config: AppConfig) async throws -> [Item] {
        let targets = EditTargets(repository: repository, queued: EditSending.waiting(context, config))
        let (found, missing) = try await targets.items(ids)
        await context.flushWarnings(repository)
        guard let id = missing else { return found }
        if try waitsInOutbox(id, context, config) {
            context.io.stderr.write("Error: \(PrintableText.of(id)) waits in the outbox to be registered, so the server has "
                                    + "nothing to change yet: run `expense-log sync` first, or `expense-log pending drop "
                                    + "\(PrintableText.of(id))` and add it again as it should be.\n")
            throw CommandExit(code: .temporaryFailure)
        }
        context.io.stderr.write("Error: no cached item has the id \(PrintableText.of(id)); fetch its month first "
                                + "(`expense-log fetch MONTH --format json` shows each item's id)\n")
        throw CommandExit(code: .dataError)
    }

    /// Whether an item with this id waits in the outbox (read only when the cache lacks it: an error path).
    private static func waitsInOutbox(_ id: String, _ context: Context, _ config: AppConfig) throws -> Bool {
        let outbox = context.outbox(config)
        var found = false
        for entry in try outbox.entries().entries where !found {
            _ = try outbox.forEachBatch(of: entry) { batch in found = found || batch.items.contains { $0.id == id } }
        }
        return found
    }

    /// Checks that the server takes `action` (`EditTargets.availability`). A server without the extensions (the original
    /// script) stops the command with what to do, before anything is sent. False when the server cannot be reached to
    /// ask: the change is then queued, and `sync` asks first.
    static func requireAction(_ action: String, _ client: ExpenseLogAPIClient, _ repository: LocalRepository, _ context: Context) async throws -> Bool {
        switch try await EditTargets.availability(of: action, client, repository) {
        case .offered:
            return true
        case .unknown(let error):
            context.warn(String(String(describing: error).prefix { $0 != "\n" }))
            return false
        case .absent:
            context.io.stderr.write("Error: \(URLRedaction.redacted(client.baseURL)) is not expense-log's web app (it does not answer "
                                    + "?action=info as the bundled script does), so it can fetch and register items but not \(action) them. "
                                    + "Deploy the bundled script to add edits and deletions: `expense-log server script` prints it, and "
                                    + "docs/server.md walks through it.\n")
            throw CommandExit(code: .unavailable)
        }
    }

    /// `2024-01-05 コーヒー ¥178 (Food/Drink)`, an item as the questions name it.
    static func describe(_ item: Item, _ config: AppConfig, _ context: Context) -> String {
        PrintableText.of("\(item.date) \(item.name) \(PriceText.yen(item.price)) "
                            + "(\(AddCommand.describe(item.category, item.categorySub, config, context)))")
    }
}
