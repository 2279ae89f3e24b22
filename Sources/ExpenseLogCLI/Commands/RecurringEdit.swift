import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// `recurring edit` and `recurring remove`: a rule changed or removed where it is kept; what was posted stays.
extension RecurringCommand {
    /// `recurring edit RULE`.
    struct Edit: ParsableCommand {
        @Arg("rule", help: "The fixed cost: its name (as `recurring list` shows it) or its id's first characters.")
        var rule: String
        @Opt("name", "name", help: "The new name.") var name: String?
        @Opt("price", "yen", help: "The new price (1225, ¥85,000).") var price: String?
        @Opt(RecurringCommand.day) var day: Int?
        @Opt(RecurringCommand.every) var every: RecurringRule.Every?
        @Opt(RecurringCommand.month) var month: Int?
        @Opt(
            "category", short: "c", "name", .suggest(CommonOptions.categoryWords),
            help: "The new category (娯楽費, food/drink, a number).") var category: String?
        @Opt(RecurringCommand.aboutRange) var about: String?
        @Opt(RecurringCommand.from) var from: String?
        @Opt(RecurringCommand.until) var until: String?
        @Opt(RecurringCommand.match) var match: String?

        static let about = CommandAbout(
            name: "edit",
            abstract: "Change a fixed cost from now on (a raised fee, a new day); what was posted stays.",
            discussion: """
                Occurrences already posted keep their price (`expense-log edit` changes one); later ones, and the \
                statement rows matched from now on, follow the rule. Its id stays, so an occurrence posted before \
                the change is never posted again. --about none, --from none and --until none clear them.
                """)

        func run(_ context: Context) async throws -> ExitCode {
            let config = try context.config()
            let read = try await RecurringCommand.rules(context)
            let found = try RecurringCommand.find(rule, in: read.rules, context)
            var changed = found
            if let name {
                let trimmed = name.trimmingSpaces()
                guard !trimmed.isEmpty else {
                    throw UsageError(path: context.invocation.path, message: "--name is empty")
                }
                changed.name = trimmed
            }
            if let price {
                let old = changed.price
                changed.price = try RecurringFields.price(price, context)
                // A range around the old price moves with it.
                if let range = changed.about, about == nil {
                    changed.about = (range.lowerBound + changed.price - old)...(range.upperBound + changed.price - old)
                }
            }
            if let day { changed.day = day }
            if let every { changed.every = every }
            if changed.every == .year { changed.month = month ?? changed.month ?? context.today.month }
            if changed.every == .month {
                if month != nil {
                    throw UsageError(
                        path: context.invocation.path, message: "--month is a yearly rule's; add --every year")
                }
                changed.month = nil
            }
            if let category {
                (changed.category, changed.categorySub) = try AddCommand.resolve(category, config, context)
            }
            try RecurringFields(about: about, from: from, until: until, match: match).apply(to: &changed, context)
            try RecurringCommand.refuseTwin(of: changed, in: read.rules, context)
            guard changed != found else {
                context.note(context.say("Nothing to change.", ja: "変更はありません。"))
                return .success
            }
            _ = try await RecurringCommand.change(put: [changed], remove: [], context)
            context.note(
                context.say(
                    "Changed \(RecurringList.describe(found, config, japanese: false)) to "
                        + "\(RecurringList.describe(changed, config, japanese: false)); occurrences already posted keep theirs.",
                    ja: "変更しました: \(RecurringList.describe(found, config, japanese: true)) → "
                        + "\(RecurringList.describe(changed, config, japanese: true))。登録済みの分はそのままです。"))
            return .success
        }
    }

    /// `recurring remove RULE`.
    struct Remove: ParsableCommand {
        @Arg("rule", help: "The fixed cost: its name or its id's first characters.") var rule: String

        static let about = CommandAbout(
            name: "remove", abstract: "Remove a fixed cost; what it posted stays (`--until` ends one instead).")

        func run(_ context: Context) async throws -> ExitCode {
            let config = try context.config()
            let read = try await RecurringCommand.rules(context)
            let found = try RecurringCommand.find(rule, in: read.rules, context)
            _ = try await RecurringCommand.change(put: [], remove: [found.id], context)
            context.note(
                context.say(
                    "Removed \(RecurringList.describe(found, config, japanese: false)); what it posted stays.",
                    ja: "削除しました: \(RecurringList.describe(found, config, japanese: true))。登録済みの分はそのままです。"))
            return .success
        }
    }
}
