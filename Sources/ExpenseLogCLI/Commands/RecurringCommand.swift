import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// `recurring add|list|edit|remove|post`: the household's fixed costs (固定費), kept where both partners see them.
enum RecurringCommand: CommandGroup {
    static var subcommands: [any Command.Type] {
        [Add.self, RecurringList.List.self, Edit.self, Remove.self, Post.self]
    }

    static let about = CommandAbout(
        name: "recurring",
        abstract: "Keep the fixed costs (rent, utilities, subscriptions) that post themselves once a month or a year.",
        discussion: """
            A rule is a fixed cost: its name, price, day of the month (a day past a month's end falls on its last \
            day: the 31st on February 28th), monthly or yearly, from and until a month. With the bundled script the \
            rules live on the server (the sheet 固定費 of the spreadsheet 家計簿_固定費, which you may also edit in \
            Sheets), so every machine and your partner see the same; with another script, in a file beside the \
            configuration. `recurring post` registers each occurrence due and not yet there, under an id made from \
            the rule and the month, through the outbox: run it twice, on two machines, or offline and then sync, and \
            each month still has one row. A statement row with the rule's name (or a --match word) near its day is \
            the occurrence, not a new item; with another amount it is held (exit 4). docs/recurring.md walks through \
            a month.

            EXAMPLES:
              expense-log recurring add 家賃 85000 --day 27 --category 娯楽費
              expense-log recurring add 電気代 7000 --day 10 --about 4000-12000 --match ﾄｳｷﾖｳﾃﾞﾝﾘﾖｸ
              expense-log recurring add 自動車保険 38000 --every year --month 4 --day 1
              expense-log recurring list
              expense-log recurring edit NHK --price 1225
              expense-log recurring post --through 2027-03-31
            """)

    static let day = Option<Int>(
        "day", "day", .integer(1...31),
        help: "The day of the month, 1–31 (past a month's end: its last day); default: today's day.")
    static let every = Option<RecurringRule.Every>(
        choice: "every", "every", help: "month (the default) or year.")
    static let month = Option<Int>(
        "month", "month", .integer(1...12), help: "A yearly rule's month, 1–12 (default: this month).")
    static let aboutRange = Option<String>(
        "about", "range",
        help: "The amounts a statement's row may show for it (4000-12000, ±500): for a bill that varies.")
    static let from = Option<String>(
        "from", "month", help: "The first month it is due (2027-01); default: this month.")
    static let until = Option<String>("until", "month", help: "The last month it is due (2027-12).")
    static let match = Option<String>(
        "match", "words",
        help:
            "Other words a statement names it by, space- or comma-separated (ﾔﾏﾀﾞﾌﾄﾞｳｻﾝ, ﾄｳｷﾖｳﾃﾞﾝﾘﾖｸ: as the bank prints it)."
    )

    /// `recurring add NAME PRICE`.
    struct Add: ParsableCommand {
        @Arg("name", help: "What it is (家賃, NHK受信料), as it is registered each time.") var name: String
        @Arg("price", help: "What it costs, in yen (85000, ¥85,000).") var price: String
        @Opt(RecurringCommand.day) var day: Int?
        @Opt(RecurringCommand.every) var every: RecurringRule.Every?
        @Opt(RecurringCommand.month) var month: Int?
        @Opt(
            "category", short: "c", "name", .suggest(CommonOptions.categoryWords),
            help: "Its category (娯楽費, food/drink, a number); default: that of the latest cached item of its name.")
        var category: String?
        @Opt(RecurringCommand.aboutRange) var about: String?
        @Opt(RecurringCommand.from) var from: String?
        @Opt(RecurringCommand.until) var until: String?
        @Opt(RecurringCommand.match) var match: String?

        static let about = CommandAbout(name: "add", abstract: "Add a fixed cost.")

        func run(_ context: Context) async throws -> ExitCode {
            let config = try context.config()
            let named = name.trimmingSpaces()
            guard !named.isEmpty else { throw UsageError(path: context.invocation.path, message: "the name is empty") }
            let category: (category: Int, sub: Int?)
            if let text = self.category {
                category = try AddCommand.resolve(text, config, context)
            } else if let latest = AddCommand.latest(
                named: named, among: await AddCommand.cachedItems(context, config))
            {
                category = (latest.category, latest.categorySub)
            } else {
                throw UsageError(
                    path: context.invocation.path,
                    message: "give --category (no cached item is called '\(named)'; the catalogue: "
                        + "\(config.catalogue.value.listing))")
            }
            let today = context.today
            let price = try RecurringFields.price(self.price, context)
            let kind = every ?? .month
            var rule = RecurringRule(
                id: RandomID.make(), name: named, price: price, day: day ?? today.day, every: kind,
                month: kind == .year ? (month ?? today.month) : nil, category: category.category,
                categorySub: category.sub, from: today.yearMonth)
            try RecurringFields(about: about, from: from, until: until, match: match).apply(to: &rule, context)
            if kind == .month, month != nil {
                throw UsageError(path: context.invocation.path, message: "--month is a yearly rule's; add --every year")
            }
            try RecurringCommand.refuseTwin(of: rule, in: try await RecurringCommand.rules(context).rules, context)
            let changed = try await RecurringCommand.change(put: [rule], remove: [], context)
            context.note(
                context.say(
                    "Added \(RecurringList.describe(rule, config, japanese: false)); "
                        + RecurringList.kept(changed.home, japanese: false) + ".",
                    ja: "追加しました: \(RecurringList.describe(rule, config, japanese: true))。"
                        + RecurringList.kept(changed.home, japanese: true) + "。"))
            return .success
        }
    }
}
