import ExpenseLogKit
import Foundation

/// `add`: one item from its name and price, registered exactly as `register` registers a file's rows.
enum AddCommand {
    static let date = Option<String>("date", "day", help: "The day: 2024-01-05, 20240105, 2024/1/5, today, yesterday or -3d (default: today).")
    static let category = Option<String>("category", "name", .suggest(CommonOptions.categoryWords), help: "A category (food, 食費, a unique prefix, a number) or category/sub "
                                         + "(food/drink); default: that of the latest cached item of the same name.")
    static let id = Option<String>("id", "id", help: "The item's id (default: a new UUID, as the app makes).")

    static let spec = CommandSpec(
        name: "add",
        abstract: "Register one item from its name and price (today, in the category its name had last time).",
        discussion: """
            The item goes the way a row of register goes: it is checked, compared with its month on the server \
            (an item of the same date, price and name is skipped unless --allow-duplicates), and queued in the \
            outbox when the server cannot be reached (exit 75; sync sends it). The price takes the forms an input \
            takes (980, ¥1,500, 1,500円, -300 for a refund). The day is a calendar day in the local time zone (TZ \
            is honoured). Without --category, the category of the latest cached item with the same name is used and \
            said on stderr; when there is none, the catalogue is listed and nothing is sent (exit 64).

            EXAMPLES:
              expense-log add ラーメン 980
              expense-log add コーヒー 178 --category food/drink --date yesterday
              expense-log add 返品 -300 --category 雑貨 --date 2024-01-05
            """,
        options: [date.spec, category.spec, id.spec, RegisterCommand.allowDuplicates.spec, RegisterCommand.dryRun.spec, CommonOptions.format.spec],
        arguments: [ArgumentSpec("name", optional: true, help: "What was bought."),
                    ArgumentSpec("price", optional: true, help: "What it cost, in yen.")])

    static func run(_ invocation: Invocation, _ context: Context) async throws {
        guard invocation.arguments.count == 2 else {
            throw UsageError(path: invocation.path, message: "add needs a name and a price, as in: expense-log add ラーメン 980")
        }
        let (name, price) = (invocation.arguments[0], invocation.arguments[1])
        guard let day = Day(personDate: invocation[date] ?? "today") else {
            throw UsageError(path: invocation.path, message: "'\(invocation[date] ?? "")' is not a day: give 2024-01-05, 20240105, "
                             + "2024/1/5, today, yesterday or -3d")
        }
        let config = try context.config()
        let (categoryNumber, sub) = try await categorize(name, invocation, context, config)
        var fields = [("date", ItemJSON.string(day.compact)), ("name", ItemJSON.string(name)), ("price", ItemJSON.string(price)),
                      ("category", String(categoryNumber))]
        if let sub { fields.append(("categorySub", String(sub))) }
        if let id = invocation[id] { fields.insert(("id", ItemJSON.string(id)), at: 0) }
        let line = Array(("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n").utf8)
        let source = ImportSource(name: "(arguments)", format: .ndjson) {
            var given = false
            return {
                defer { given = true }
                return given ? nil : line
            }
        }
        try await RegisterCommand.run(RegisterOptions(adding: source, format: CommonOptions.outputFormat(invocation),
                                                      dryRun: invocation[RegisterCommand.dryRun],
                                                      allowDuplicates: invocation[RegisterCommand.allowDuplicates]), context)
    }

    /// `--category` read from the catalogue, else the category of the latest cached item with the same name (said on
    /// stderr); a usage error naming the catalogue when neither gives one.
    static func categorize(_ name: String, _ invocation: Invocation, _ context: Context, _ config: AppConfig) async throws
        -> (category: Int, sub: Int?) {
        let catalogue = config.catalogue.value
        if let text = invocation[category] {
            do {
                return try catalogue.resolve(text)
            } catch {
                throw UsageError(path: invocation.path, message: "\(error.message) (`expense-log categories` lists them)")
            }
        }
        let wanted = name.trimmingSpaces()
        let cached = (try? await context.repository(config).cachedMonths()) ?? []
        let latest = cached.flatMap(\.items).filter { $0.name.trimmingSpaces() == wanted }.max { $0.date < $1.date }
        guard let latest else {
            throw UsageError(path: invocation.path, message: "No cached item is called '\(wanted)', so its category cannot be guessed; "
                             + "give --category (the catalogue: \(catalogue.listing))")
        }
        let sub = latest.categorySub.map { "/" + catalogue.name(ofSub: $0, in: latest.category, japanese: context.japanese) } ?? ""
        context.note("Category: \(catalogue.name(of: latest.category, japanese: context.japanese))\(sub), as '\(wanted)' had on "
                     + "\(latest.date) (--category sets another)")
        return (latest.category, latest.categorySub)
    }
}
