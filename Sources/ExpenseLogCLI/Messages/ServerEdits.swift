import ExpenseLogClient
import ExpenseLogConfig
import ExpenseLogHTTP
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// What `delete` and `edit` share: the items they name, found in the cache, and a server that takes the extensions.
enum ServerEdits {
    /// The items with these ids, in the order given, as the queued changes leave them: cached, or waiting to be
    /// registered (`EditTargets`); an id found in neither is a data error that says to fetch.
    static func items(_ ids: [String], _ sync: Sync, _ context: Context, _ config: AppConfig) async throws -> [Item] {
        let targets = EditTargets(repository: sync.repository, queued: EditText.waiting(context, config), pending: sync.pending)
        let (found, missing, ambiguous) = try await targets.items(ids)
        await context.flushWarnings(sync.repository)
        if let (prefix, items, short) = ambiguous {
            let byID = items.allSatisfy { $0.id.uppercased().hasPrefix(prefix.uppercased()) }
            context.io.stderr.write("Error: \(items.count) items " + (byID ? "have ids that start with \(PrintableText.of(prefix))"
                                        : "match \(PrintableText.of(prefix)) (by id, or by name in this month)") + "; nothing was changed. Give "
                                    + (byID ? "more of the id" : "one's short id") + ":\n"
                                    + items.map { "  \(PrintableText.of(short[$0.id] ?? $0.id))  " + describe($0, config, context) + "\n" }.joined())
            throw CommandExit(code: .dataError)
        }
        guard let id = missing else { return found }
        context.io.stderr.write("Error: no cached or waiting item has the id \(PrintableText.of(id)), and no item of this month is called "
                                + "like it; fetch its month first (`expense-log fetch MONTH --ids` shows each item's short id, its first 4 "
                                + "or more characters)\n")
        throw CommandExit(code: .dataError)
    }

    /// Checks that the server takes `action` (`EditTargets.availability`). A server without the extensions (the original
    /// script) stops the command with what to do, before anything is sent. False when the server cannot be reached to
    /// ask: the change is then queued, and `sync` asks first.
    static func requireAction(_ action: String, _ sync: Sync, _ context: Context) async throws -> Bool {
        switch try await EditTargets.availability(of: action, sync.client, sync.repository) {
        case .offered:
            return true
        case .unknown(let error):
            context.warn(String(String(describing: error).prefix { $0 != "\n" }))
            return false
        case .absent:
            context.io.stderr.write(absent(action, sync.client.baseURL))
            throw CommandExit(code: .unavailable)
        }
    }

    /// The error for a server without the extensions (the original script): what it can do, and what to do.
    static func absent(_ action: String, _ baseURL: URL) -> String {
        "Error: \(URLRedaction.redacted(baseURL)) is not expense-log's web app (it does not answer ?action=info as the bundled "
            + "script does), so it can fetch and register items but not \(action) them. Deploy the bundled script to add edits "
            + "and deletions: `expense-log server script` prints it, and docs/server.md walks through it.\n"
    }

    /// `2024-01-05 コーヒー ¥178 (Food/Drink)`, an item as the questions name it.
    static func describe(_ item: Item, _ config: AppConfig, _ context: Context) -> String {
        PrintableText.of("\(item.date) \(item.name) \(PriceText.yen(item.price)) "
                            + "(\(AddCommand.describe(item.category, item.categorySub, config, context)))")
    }
}
