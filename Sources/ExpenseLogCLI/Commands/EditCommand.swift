import ExpenseLogConfig
import ExpenseLogModel
import Foundation

/// `edit ID [--name] [--price] [--date] [--category]`: changes an item on the server (the bundled web app's extension).
enum EditCommand: Command {
    static let id = Argument<String>("id", help: "The item to change: its id, the first 4 or more characters of it (fetch --ids), "
                                     + "or part of its name, searched in this month's items.")
    static let name = Option<String>("name", "name", help: "The new name.")
    static let price = Option<String>("price", "yen", help: "The new price (1500, 1,500円, -300 for a refund).")
    static let date = Option<String>("date", "day", help: "The new day: \(Day.personForms).")
    static let category = Option<String>("category", "name", .suggest(CommonOptions.categoryWords),
                                         help: "The new category (food, 食費, a unique prefix, a number) or category/sub; the sub is kept when the category is.")

    static let spec = CommandSpec(
        name: "edit",
        abstract: "Change an item's name, price, date or category on the server (needs the bundled web app).",
        discussion: """
            The item is found in the cache by its id, the first 4 or more characters of it (fetch --ids shows \
            them), or part of its name among this month's items; or among the items \
            waiting in the outbox (pending shows them: the edit then waits behind the item); the fields given replace \
            its own, checked as add checks them, and the server's answer replaces it in the cache (in its \
            new month when the date moves it). A server without the extensions is told apart as for delete. \
            The script refuses an edit of a field changed on the server since the month was fetched here \
            (a conflict: exit 65; fetch and edit again).

            When the server cannot be reached, or its answer is lost, the edit waits in the queue of changes \
            (pending lists it, sync sends it; exit 75) and the cache shows it made, so a further edit starts \
            from it. Queued changes are sent first and in order, and sending one again is safe.

            EXAMPLES:
              expense-log edit 7B2A --price 980
              expense-log edit ラーメン --price 980
              expense-log edit 1000…-ID --date yesterday --category food/drink
            """,
        options: [name.spec, price.spec, date.spec, category.spec],
        arguments: [id.spec])

    static func run(_ invocation: Invocation, _ context: Context) async throws {
        let config = try context.config()
        guard invocation[name] != nil || invocation[price] != nil || invocation[date] != nil || invocation[category] != nil else {
            throw UsageError(path: invocation.path, message: "Say what to change: --name, --price, --date or --category")
        }
        let sync = context.sync(config, try context.client(config), context.repository(config))
        guard let item = try await ServerEdits.items([invocation[id]], sync, context, config).first else { return }
        var draft = ItemDraft(location: SourceLocation(file: "(arguments)", line: 1))
        draft.id = .text(item.id)
        draft.name = .text(invocation[name] ?? item.name)
        draft.price = invocation[price].map(RawValue.text) ?? .integer(item.price)
        if let text = invocation[date] {
            guard let day = Day(personDate: text) else { throw AddCommand.notADay(text, invocation) }
            draft.date = .text(day.compact)
        } else {
            draft.date = .text(item.date.compact)
        }
        var category: (category: Int, sub: Int?) = try invocation[Self.category].map { try AddCommand.resolve($0, config, invocation) }
            ?? (item.category, item.categorySub)
        // `--category food` on a Food/Drink item keeps the drink: only a new category drops the old one's sub.
        if category.category == item.category, category.sub == nil { category.sub = item.categorySub }
        draft.category = .integer(category.category)
        draft.categorySub = category.sub.map(RawValue.integer) ?? .null
        let (checked, problems) = draft.validated(catalogue: config.catalogue.value)
        guard let changed = checked else {
            for problem in problems { context.io.stderr.write("Error: \(problem.field.map { "\($0): " } ?? "")\(problem.message)\n") }
            throw CommandExit(code: .dataError)
        }
        let fields = Set(ItemField.allCases.filter { field in
            switch field {
            case .id: return false
            case .date: return changed.date != item.date
            case .name: return changed.name != item.name
            case .price: return changed.price != item.price
            case .category: return changed.category != item.category
            case .categorySub: return changed.categorySub != item.categorySub
            }
        })
        guard !fields.isEmpty else {
            context.note("Nothing to change: \(ServerEdits.describe(item, config, context)) already is so.")
            return
        }
        let reachable = try await ServerEdits.requireAction("update", sync, context)
        try await EditText.submit(.update(item: item, changed: changed, fields: fields), reachable: reachable, sync, context, config)
    }
}
