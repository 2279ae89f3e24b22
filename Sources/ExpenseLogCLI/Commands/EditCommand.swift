import ExpenseLogKit
import Foundation

/// `edit ID [--name] [--price] [--date] [--category]`: changes an item on the server (the bundled web app's extension).
enum EditCommand {
    static let name = Option<String>("name", "name", help: "The new name.")
    static let price = Option<String>("price", "yen", help: "The new price (1500, 1,500円, -300 for a refund).")

    static let spec = CommandSpec(
        name: "edit",
        abstract: "Change an item's name, price, date or category on the server (needs the bundled web app).",
        discussion: """
            The item is found in the cache by id (fetch --format json shows ids); the fields given replace \
            its own, checked as add checks them, and the server's answer replaces it in the cache (in its \
            new month when the date moves it). A server without the extensions is told apart as for delete.

            EXAMPLES:
              expense-log edit 1000…-ID --price 980
              expense-log edit 1000…-ID --date yesterday --category food/drink
            """,
        options: [name.spec, price.spec, AddCommand.date.spec, AddCommand.category.spec],
        arguments: [ArgumentSpec("id", help: "The id of the item to change.")])

    static func run(_ invocation: Invocation, _ context: Context) async throws {
        let config = try context.config()
        guard invocation[name] != nil || invocation[price] != nil || invocation[AddCommand.date] != nil
                || invocation[AddCommand.category] != nil else {
            throw UsageError(path: invocation.path, message: "Say what to change: --name, --price, --date or --category")
        }
        let client = try context.client(config)
        let repository = context.repository(config)
        guard let item = try await ServerEdits.items([invocation.arguments[0]], repository, context).first else { return }
        var draft = ItemDraft(location: SourceLocation(file: "(arguments)", line: 1))
        draft.id = .text(item.id)
        draft.name = .text(invocation[name] ?? item.name)
        draft.price = invocation[price].map(RawValue.text) ?? .integer(item.price)
        if let text = invocation[AddCommand.date] {
            guard let day = Day(personDate: text) else { throw AddCommand.notADay(text, invocation) }
            draft.date = .text(day.compact)
        } else {
            draft.date = .text(item.date.compact)
        }
        let category = try invocation[AddCommand.category].map { try AddCommand.resolve($0, config, invocation) } ?? (item.category, item.categorySub)
        draft.category = .integer(category.0)
        draft.categorySub = category.1.map(RawValue.integer) ?? .null
        let (checked, problems) = draft.validated(catalogue: config.catalogue.value)
        guard let changed = checked else {
            for problem in problems { context.io.stderr.write("Error: \(problem.field.map { "\($0): " } ?? "")\(problem.message)\n") }
            throw CommandExit(code: .dataError)
        }
        try await ServerEdits.requireAction("update", client, repository, context)
        let saved = try await client.update(ItemReference(id: item.id, date: item.date), to: changed)
        _ = try await repository.remove(ids: [item.id])
        try await repository.add([saved])
        await context.flushWarnings(repository)
        context.note("Changed: \(ServerEdits.describe(saved, config, context)) (was \(ServerEdits.describe(item, config, context))).")
    }
}
