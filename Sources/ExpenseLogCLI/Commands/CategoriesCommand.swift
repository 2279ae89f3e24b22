import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogRendering

/// `categories`: the catalogue the numbers in `category` and `categorySub` refer to.
enum CategoriesCommand: Command {
    /// How the catalogue is printed.
    enum Format: String, CaseIterable, Sendable { case table, json }
    static let format = Option<Format>(choice: "format", "format", default: .table, help: "How to print it.")

    static let spec = CommandSpec(
        name: "categories",
        abstract: "Print the category catalogue (numbers and names).",
        discussion: """
            The catalogue is the app's unless the config file replaces it with a "categories" array \
            in the shape --format json prints.
            """,
        options: [format.spec])

    static func run(_ invocation: Invocation, _ context: Context) async throws {
        let catalogue = try context.config().catalogue.value
        if invocation[format] == .json {
            let entries = catalogue.categories.map { category in
                let subs = category.subs.map { sub in
                    "{\"id\":\(sub.id),\"ja\":\(quoted(sub.japanese)),\"en\":\(quoted(sub.english))}"
                }
                return "  {\"id\":\(category.id),\"ja\":\(quoted(category.japanese)),\"en\":\(quoted(category.english)),"
                    + "\"subs\":[\(subs.joined(separator: ","))]}"
            }
            context.io.stdout.write("[\n" + entries.joined(separator: ",\n") + "\n]\n")
            return
        }
        let headings = context.japanese ? ["項目", "サブ項目", "名前", "Name"] : ["CATEGORY", "SUB", "名前", "NAME"]
        var rows = [headings]
        for category in catalogue.categories {
            rows.append([String(category.id), "", category.japanese, category.english])
            for sub in category.subs { rows.append([String(category.id), String(sub.id), sub.japanese, sub.english]) }
        }
        context.io.stdout.write(TextTable(rows: rows).render())
    }

    static func quoted(_ text: String) -> String {
        var out = ""
        ItemJSON.appendString(text, to: &out)
        return out
    }
}
