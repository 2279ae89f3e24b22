import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// `recurring post`: every occurrence due and not yet there, registered once.
extension RecurringCommand {
    /// `recurring post [--through DAY]`.
    struct Post: ParsableCommand {
        @Opt(
            "through", "day",
            help: "Post what is due up to this day (2027-03-31, or a month for its last day: 2027-03); default: today.")
        var through: String?
        @Flg(RegisterCommand.dryRun) var dryRun: Bool
        @Opt(CommonOptions.format) var format: OutputFormat?

        static let about = CommandAbout(
            name: "post",
            abstract: "Register every fixed cost due and not yet registered (quiet when there is none: cron-friendly).",
            discussion: """
                Each occurrence is registered under an id made from its rule and its month, through the outbox, as \
                add registers an item: when the server cannot be reached it waits there (exit 75; sync sends it), and \
                a second run, another machine's, or one after sync finds it and registers nothing. An occurrence a \
                person typed (a related name, the rule's amount, within 3 days) or a statement brought is not \
                registered again, nor one deleted on this machine. A rule posts from its first month (--from; \
                without one, from the month before --through's).

                EXAMPLES:
                  expense-log recurring post
                  expense-log recurring post --through 2027-03-31
                  expense-log recurring post --through 2027-03 --dry-run
                  crontab: 0 7 * * * expense-log recurring post --quiet > /dev/null
                """)

        func run(_ context: Context) async throws -> ExitCode {
            let end = try through.map { try Self.day($0, context) } ?? context.today
            let read = try await RecurringCommand.rules(context)
            let due = read.rules.flatMap { $0.due(through: end) }.sorted {
                ($0.date, $0.rule.name, $0.id) < ($1.date, $1.rule.name, $1.id)
            }
            let unposted = try await context.ledger().unposted(due)
            guard !unposted.isEmpty else { return .success }
            let drafts = unposted.enumerated().map { index, occurrence in
                let item = occurrence.item
                var draft = ItemDraft(location: SourceLocation(file: "(fixed costs)", line: index + 1))
                draft.id = .text(item.id)
                draft.date = .text(item.date.compact)
                draft.name = .text(item.name)
                draft.price = .integer(item.price)
                draft.category = .integer(item.category)
                draft.categorySub = item.categorySub.map(RawValue.integer) ?? .missing
                return draft
            }
            return try await RegisterCommand.run(
                RegisterOptions(posting: drafts, rules: read.rules, format: format ?? .table, dryRun: dryRun), context)
        }

        /// A day as `add --date` reads it, or a month for its last day.
        static func day(_ text: String, _ context: Context) throws -> Day {
            if let day = Day(personDate: text) { return day }
            if case .month(let month)? = Period(parsing: text) { return month.lastDay }
            throw UsageError(
                path: context.invocation.path,
                message: "--through takes a day (2027-03-31) or a month (2027-03), not '\(text)'")
        }
    }
}
