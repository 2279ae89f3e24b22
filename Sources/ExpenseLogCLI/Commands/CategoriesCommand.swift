import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogRendering

/// `categories`: the catalogue the numbers in `category` and `categorySub` refer to.
struct CategoriesCommand: ParsableCommand {
    /// How the catalogue is printed.
    enum Format: String, CaseIterable, Sendable { case table, json }
    @Opt(choice: "format", "format", default: .table, help: "How to print it.") var format: Format?

    static let about = CommandAbout(
        name: "categories",
        abstract: "Print the category catalogue (numbers and names).",
        discussion: """
            The catalogue is the app's unless the config file replaces it with a "categories" array \
            in the shape --format json prints.
            """)

    func run(_ context: Context) async throws -> ExitCode {
        let catalogue = try context.config().catalogue.value
        if format == .json {
            let entries = catalogue.categories.map { category in
                let subs = category.subs.map { sub in
                    "{\"id\":\(sub.id),\"ja\":\(Self.quoted(sub.japanese)),\"en\":\(Self.quoted(sub.english))}"
                }
                return
                    "  {\"id\":\(category.id),\"ja\":\(Self.quoted(category.japanese)),\"en\":\(Self.quoted(category.english)),"
                    + "\"subs\":[\(subs.joined(separator: ","))]}"
            }
            context.io.stdout.write("[\n" + entries.joined(separator: ",\n") + "\n]\n")
            return .success
        }
        let headings = context.japanese ? ["項目", "サブ項目", "名前", "Name"] : ["CATEGORY", "SUB", "名前", "NAME"]
        var rows = [headings]
        for category in catalogue.categories {
            rows.append([String(category.id), "", category.japanese, category.english])
            for sub in category.subs { rows.append([String(category.id), String(sub.id), sub.japanese, sub.english]) }
        }
        context.io.stdout.write(TextTable(rows: rows).render())
        return .success
    }

    static func quoted(_ text: String) -> String {
        var out = ""
        ItemJSON.appendString(text, to: &out)
        return out
    }
}
