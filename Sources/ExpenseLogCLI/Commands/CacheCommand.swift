import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// `cache list|clear|path`: the cache of fetched months of the current environment and server.
enum CacheCommand: CommandGroup {
    static var subcommands: [any Command.Type] { [List.self, Clear.self, Path.self] }

    static let about = CommandAbout(
        name: "cache",
        abstract: "Inspect or empty the cache of the current environment and server.")

    /// `cache list`.
    struct List: ParsableCommand {
        @Opt(CommonOptions.listingFormat) var format: ListingFormat?

        static let about = CommandAbout(
            name: "list", abstract: "List the cached months with their item counts, totals and fetch times.")

        func run(_ context: Context) async throws -> ExitCode {
            let config = try context.config()
            let ledger = try context.ledger()
            let months = try await ledger.cachedMonths()
            await context.flushWarnings(ledger)
            if format == .json {
                // [{"month": "2024-01", "items": 4, "total": 2078, "fetchedAt": "2024-01-22T10:00:00Z" or null}, …]
                let members = months.map { cached in
                    "  {\"month\": \"\(cached.month)\", \"items\": \(cached.count), \"total\": \(cached.total), \"fetchedAt\": "
                        + (cached.fetchedAt.map { "\"\($0.formatted(Date.ISO8601FormatStyle()))\"" } ?? "null") + "}"
                }
                context.io.stdout.write(members.isEmpty ? "[]\n" : "[\n" + members.joined(separator: ",\n") + "\n]\n")
            }
            guard !months.isEmpty else {
                context.note(
                    context.say(
                        "No cached months in \(config.cacheDirectory.path).",
                        ja: "\(config.cacheDirectory.path) にキャッシュした月はありません。"))
                return .success
            }
            guard format != .json else { return .success }
            var rows = [["MONTH", "ITEMS", "TOTAL", "FETCHED"]]
            for cached in months {
                let fetched = cached.fetchedAt.map { LocalTime.text($0) } ?? "never (registered items only)"
                rows.append([cached.month.description, String(cached.count), PriceText.format(cached.total), fetched])
            }
            context.io.stdout.write(TextTable(rows: rows, rightAligned: [1, 2]).render())
            return .success
        }
    }

    /// `cache clear`.
    struct Clear: ParsableCommand {
        static let about = CommandAbout(
            name: "clear", abstract: "Delete every cached month of the current environment and server.")

        func run(_ context: Context) async throws -> ExitCode {
            let config = try context.config()
            let removed = try await context.ledger().clearCache()
            context.note(
                context.say(
                    "Removed \(removed) cached month\(removed == 1 ? "" : "s") from \(config.cacheDirectory.path).",
                    ja: "\(config.cacheDirectory.path) からキャッシュした\(removed)か月分を消しました。"))
            return .success
        }
    }

    /// `cache path`.
    struct Path: ParsableCommand {
        static let about = CommandAbout(
            name: "path",
            abstract: "Print the cache folder of the current environment and server (a folder per base URL).")

        func run(_ context: Context) async throws -> ExitCode {
            context.io.stdout.write(try context.config().cacheDirectory.path + "\n")
            return .success
        }
    }
}
