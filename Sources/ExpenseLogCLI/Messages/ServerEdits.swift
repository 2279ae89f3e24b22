import ExpenseLogClient
import ExpenseLogConfig
import ExpenseLogHTTP
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// What `delete` and `edit` share: a server that takes the extensions, and items as their questions name them.
enum ServerEdits {
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
