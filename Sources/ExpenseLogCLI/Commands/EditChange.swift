import ExpenseLogConfig
import ExpenseLogModel
import Foundation

extension EditCommand {
    /// The change the options make to `item`, checked as `add` checks an item; nil when it already is so.
    func change(to item: Item, _ context: Context, _ config: AppConfig) throws -> QueuedEdit.Change? {
        var draft = ItemDraft(location: SourceLocation(file: "(arguments)", line: 1))
        draft.id = .text(item.id)
        draft.name = .text(name ?? item.name)
        draft.price = price.map(RawValue.text) ?? .integer(item.price)
        if let text = date {
            guard let day = Day(personDate: text) else { throw AddCommand.notADay(text, context) }
            draft.date = .text(day.compact)
        } else {
            draft.date = .text(item.date.compact)
        }
        var category: (category: Int, sub: Int?) =
            try self.category.map { try AddCommand.resolve($0, config, context) }
            ?? (item.category, item.categorySub)
        // `--category food` on a Food/Drink item keeps the drink: only a new category drops the old one's sub.
        if category.category == item.category, category.sub == nil { category.sub = item.categorySub }
        draft.category = .integer(category.category)
        draft.categorySub = category.sub.map(RawValue.integer) ?? .null
        if personal, shared {
            throw UsageError(path: context.invocation.path, message: "--personal and --shared say opposite things")
        }
        let newPayer = payer.map { $0.trimmingSpaces() }
        draft.payer = newPayer.map { ["", "none", "なし"].contains($0) ? nil : $0 } ?? item.payer
        draft.personal = personal ? true : shared ? false : item.personal
        draft.shared = shared ? true : personal ? false : item.shared
        let (checked, problems) = draft.validated(catalogue: config.catalogue.value)
        guard let changed = checked else {
            for problem in problems {
                let message = context.japanese ? problem.japaneseMessage ?? problem.message : problem.message
                context.io.stderr.write(
                    context.say("Error", ja: "エラー") + ": \(problem.field.map { "\($0): " } ?? "")\(message)\n")
            }
            throw CommandExit(code: .dataError)
        }
        let fields = Set(
            ItemField.allCases.filter { field in
                switch field {
                case .id: return false
                case .date: return changed.date != item.date
                case .name: return changed.name != item.name
                case .price: return changed.price != item.price
                case .category: return changed.category != item.category
                case .categorySub: return changed.categorySub != item.categorySub
                }
            })
        let change = QueuedEdit.Change.update(item: item, changed: changed, fields: fields)
        guard !fields.isEmpty || change.changesShare else {
            context.note(
                context.say(
                    "Nothing to change: \(ServerEdits.describe(item, config, context)) already is so.",
                    ja: "変更はありません: \(ServerEdits.describe(item, config, context)) はすでにそのとおりです。"))
            return nil
        }
        return change
    }

    /// Shows the items found by name (or every match, with `--all`) and asks before changing them; off a terminal
    /// `--yes` is needed, as a search by name may find what was not meant.
    func confirm(_ changes: [QueuedEdit.Change], _ context: Context, _ config: AppConfig) async throws {
        guard !yes else { return }
        let text = id
        guard context.canAsk else {
            throw UsageError(
                path: context.invocation.path,
                message: "'\(PrintableText.of(text))' was searched by name: give --yes to change what it "
                    + "finds when stdin is not a terminal, or the item's short id (fetch --ids)")
        }
        for case let .update(item, changed, _) in changes {
            context.io.stderr.write(
                "  \(ServerEdits.describe(item, config, context))\n    → \(ServerEdits.describe(changed, config, context))\n"
            )
        }
        guard
            try await context.confirm(
                changes.count == 1
                    ? context.say("Change this item", ja: "この項目を変更しますか")
                    : context.say("Change these \(changes.count) items", ja: "この\(changes.count)件を変更しますか"),
                yesByDefault: true)
        else {
            context.io.stderr.write(context.say("Nothing was changed.", ja: "何も変更していません。") + "\n")
            throw CommandExit(code: .failure)
        }
    }
}
