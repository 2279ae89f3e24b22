import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// `add`: one item from its name and price, registered exactly as `register` registers a file's rows.
struct AddCommand: ParsableCommand {
    @Opt(
        "date", short: "d", "day",
        help: "The day: 2024-01-05, 11/20 (this year's, or last year's if more than a week ahead), "
            + "today/今日, yesterday/昨日, 一昨日, a weekday (monday, 月曜: the last one) or -3d (default: today).") var date:
        String?
    @Opt(
        "category", short: "c", "name", .suggest(CommonOptions.categoryWords),
        help: "A category (food, 食費, a unique prefix, a number) "
            + "or category/sub (food/drink); default: that of the latest cached item of the same name.") var category:
        String?
    @Opt("id", "id", help: "The item's id (default: a new UUID, as the app makes).") var id: String?
    @Opt(
        "payer", short: "p", "name",
        help: "Who paid (default: the config's payer; none: the household's). Kept by the bundled script only.")
    var payer: String?
    @Flg("personal", help: "One person's own spending, not the household's: left out of settling up.") var personal:
        Bool
    @Flg("shared", help: "Shared, even in a category the config calls personal.") var shared: Bool
    @Flg(RegisterCommand.dryRun) var dryRun: Bool
    @Opt(CommonOptions.format) var format: OutputFormat?
    @Arg(optional: "name", help: "What was bought.") var name: String?
    @Arg(optional: "price", help: "What it cost, in yen.") var price: String?

    static let about = CommandAbout(
        name: "add",
        abstract: "Register one item from its name and price (today, in the category its name had last time).",
        discussion: """
            The item goes the way a row of register goes: it is checked, sent, and queued in the outbox when the \
            server cannot be reached (exit 75; sync sends it). A typed purchase is a new one: a second coffee of \
            the day is a second item. On a terminal, when the cache shows one of the same name and price that day, \
            add says so and asks whether to add another (Enter adds it); off a terminal it never asks. The price takes the forms an input \
            takes (980, ¥1,500, 1,500円, -300 for a refund). The day is a calendar day in the local time zone (TZ \
            is honoured). Without --category, the category of the latest cached item with the same name is used and \
            said on stderr; when there is none, it is asked for on a terminal, and elsewhere the catalogue is \
            listed and nothing is sent (exit 64).

            EXAMPLES:
              expense-log add ラーメン 980
              expense-log add コーヒー 178 --category food/drink --date yesterday
              expense-log add 餃子 450 -c food -d 11/20
              expense-log add 返品 -300 --category 雑貨 --date 2024-01-05
              expense-log add 家賃 85000 -c 娯楽費 --payer 太郎
              expense-log add 漫画 600 -c 娯楽費 -p 花子 --personal
            """)

    /// The item as given or answered, before it goes the way of a `register` row.
    struct Fields {
        var day: Day
        var name: String
        var price: String
        var category: Int
        var sub: Int?
    }

    func run(_ context: Context) async throws -> ExitCode {
        let config = try context.config()
        let fields: Fields
        // A name never seen has no category to guess: on a terminal it is asked for, as any missing part is.
        var guess: Item?
        if let name, category == nil {
            guess = Self.latest(named: name, among: await Self.cachedItems(context, config))
        }
        if let name, let price, category != nil || guess != nil || !context.canAsk {
            guard let day = Day(personDate: date ?? "today") else { throw Self.notADay(date ?? "", context) }
            let category: (category: Int, sub: Int?)
            if let text = self.category {
                category = try Self.resolve(text, config, context)
            } else {
                guard let latest = guess else {
                    throw UsageError(
                        path: context.invocation.path,
                        message: "No cached item is called '\(name.trimmingSpaces())', so its category "
                            + "cannot be guessed; give --category (the catalogue: \(config.catalogue.value.listing))")
                }
                let named = Self.describe(latest.category, latest.categorySub, config, context)
                context.note(
                    context.say(
                        "Category: \(named), as '\(latest.name)' had on \(latest.date) (--category sets another)",
                        ja: "項目: \(named) (\(latest.date) の「\(latest.name)」と同じ。--category で変えられます)"))
                category = (latest.category, latest.categorySub)
            }
            fields = Fields(day: day, name: name, price: price, category: category.category, sub: category.sub)
        } else {
            guard context.canAsk else {
                throw UsageError(
                    path: context.invocation.path,
                    message: "add needs a name and a price, as in: expense-log add ラーメン 980 "
                        + "(on a terminal, it asks for what is missing)")
            }
            guard
                let asked = try await AddQuestions(command: self, context: context, config: config).ask(
                    name: name, price: price)
            else {
                context.io.stderr.write(context.say("Cancelled; nothing was sent.", ja: "取り消しました。何も送信していません。") + "\n")
                throw CommandExit(code: .failure)
            }
            fields = asked
        }
        let confirmed = dryRun ? true : try await Self.confirmRepeat(fields, context, config)
        guard confirmed else {
            context.io.stderr.write(context.say("Not added; nothing was sent.", ja: "追加していません。何も送信していません。") + "\n")
            throw CommandExit(code: .failure)
        }
        return try await register(fields, context)
    }
}
