import ExpenseLogKit
import Foundation

/// `fetch`: one month from the server (or the cache with `--offline`), printed and cached.
enum FetchCommand {
    static let spec = CommandSpec(
        name: "fetch",
        abstract: "Fetch a month's items from the server, cache them and print them.",
        discussion: """
            EXAMPLES:
              expense-log fetch --year 2024 --month 1
              expense-log fetch --year 2024 --month 1 --format csv > 2024-01.csv
              expense-log fetch --year 2024 --month 1 --offline
            """,
        options: [
            CommonOptions.year, CommonOptions.month, CommonOptions.format,
            .flag("offline", help: "Read the cache only; never touch the network."),
        ],
        run: run)

    static func run(_ invocation: Invocation, _ context: Context) async throws {
        let month = try CommonOptions.yearMonth(invocation)
        let format = CommonOptions.outputFormat(invocation)
        let config = try context.config()
        let repository = context.repository(config)

        if invocation.flag("offline") {
            let cached = try await repository.month(month)
            await context.flushWarnings(repository)
            guard let cached else {
                context.io.stderr.write("Error: \(month) is not cached for the \(config.environment.value.rawValue) environment "
                                        + "(\(config.cacheDirectory.path)). Run without --offline to fetch it.\n")
                throw CommandExit(code: .unavailable)
            }
            if !cached.isComplete {
                context.warn("\(month) was never fetched whole; only the items registered from here are shown")
            }
            context.printItems(cached.items, format)
            return
        }

        let client = try context.client(config)
        let items = try await client.fetch(month)
        // The cache file of a month holds only that month (the dummy fixtures answer January 2024 for any month).
        let inMonth = items.filter { $0.date.yearMonth == month }
        if inMonth.count < items.count {
            context.warn("\(items.count - inMonth.count) of the \(items.count) items the server returned are dated outside "
                         + "\(month); they are printed but not cached as \(month)")
        }
        try await repository.replaceMonth(month, with: inMonth, fetchedAt: Date())
        await context.flushWarnings(repository)
        context.printItems(items, format)
    }
}
