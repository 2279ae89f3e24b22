import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

extension FetchCommand {
    /// A fetch of several months (a year, a range): prints what the query keeps of every month that could be read,
    /// then says where they came from. Exits 69 when a month is missing, 65 when rows were left out, 74 when the cache
    /// could not be written; an error waiting cannot fix (401, 404, a page instead of JSON) stops it before printing.
    static func printMonths(_ loaded: [LoadedMonth], _ query: ItemQuery, _ format: OutputFormat, _ context: Context,
                            _ config: AppConfig) throws {
        try SummarySources.show(loaded, context, config, subject: "the output", verb: "printed") {
            context.printItems(query.apply(loaded.flatMap(\.items)), format, config)
        }
    }
}
