import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// What `add` and its questions share: the guess from the cache, category names, and the words for a bad day.
extension AddCommand {
    /// Every cached item of the environment (none when the cache cannot be read: a guess is only a help).
    static func cachedItems(_ context: Context, _ config: AppConfig) async -> [Item] {
        guard let ledger = try? context.ledger() else { return [] }
        return await ledger.cachedItems()
    }

    /// The latest of `items` with this name, whose category a new one most likely shares: names compared as edit and
    /// delete find them (`NameFolding`: widths, case and kana ignored, so ｺｰﾋｰ is コーヒー), spaces around them ignored.
    static func latest(named name: String, among items: [Item]) -> Item? {
        let wanted = NameFolding.fold(name.trimmingSpaces())
        return items.filter { NameFolding.fold($0.name.trimmingSpaces()) == wanted }.max { $0.date < $1.date }
    }

    /// A category name read from the catalogue in force; a usage error naming what it has.
    static func resolve(_ text: String, _ config: AppConfig, _ context: Context) throws -> (category: Int, sub: Int?) {
        do {
            return try config.catalogue.value.resolve(text)
        } catch {
            throw UsageError(
                path: context.invocation.path, message: "\(error.message) (`expense-log categories` lists them)")
        }
    }

    /// `Food/Grocery`, in the locale's language.
    static func describe(_ category: Int, _ sub: Int?, _ config: AppConfig, _ context: Context) -> String {
        let catalogue = config.catalogue.value
        return catalogue.name(of: category, japanese: context.japanese)
            + (sub.map { "/" + catalogue.name(ofSub: $0, in: category, japanese: context.japanese) } ?? "")
    }

    static func notADay(_ text: String, _ context: Context) -> UsageError {
        UsageError(path: context.invocation.path, message: Day.refusal(of: text))
    }
}
