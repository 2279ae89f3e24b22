import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogRendering
import Foundation

/// `profile list|show|init`: the import profiles `register --profile` reads, and a start on one of your own.
enum ProfileCommand: CommandGroup {
    static var subcommands: [any Command.Type] { [List.self, Show.self, Init.self] }

    static let nameOrFile = Argument<String>(
        "name-or-file", kind: .suggestOrPath(ImportProfile.builtinSources.keys.sorted()),
        help: "A built-in name (moneyforward) or a profile file.")

    static let about = CommandAbout(
        name: "profile",
        abstract: "Show the import profiles, or guess a starter profile from a CSV.",
        discussion: """
            A profile tells register how to read a foreign CSV layout (a bank's or a card's export). \
            profile init reads a CSV's header and first rows and prints a profile guessed from them: the \
            encoding, the rows before the header, the date, name and price columns (from Japanese and English \
            header names), the date layout and the sign of spending. Edit it (rules give categories), then \
            register --profile FILE. A profile may start from another with "extends" (see docs/import-profiles.md).

            EXAMPLES:
              expense-log profile list
              expense-log profile show moneyforward
              expense-log profile init statement.csv -o bank.json
              expense-log register --profile bank.json --dry-run statement.csv
            """)

    /// `profile list`.
    struct List: ParsableCommand {
        static let about = CommandAbout(
            name: "list", abstract: "List the built-in profiles.")

        func run(_ context: Context) async throws -> ExitCode {
            var rows = [["NAME", "DESCRIPTION"]]
            for (name, profile) in ImportProfile.builtins { rows.append([name, profile.description]) }
            context.io.stdout.write(TextTable(rows: rows).render())
            return .success
        }
    }

    /// `profile show`.
    struct Show: ParsableCommand {
        @Arg(nameOrFile) var value: String

        static let about = CommandAbout(
            name: "show", abstract: "Print a profile as JSON (a file's with what it extends filled in).")

        func run(_ context: Context) async throws -> ExitCode {
            // A built-in is printed as written, which is the JSON a profile file takes.
            if !FileManager.default.fileExists(atPath: value), let source = ImportProfile.builtinSources[value] {
                context.io.stdout.write(source.hasSuffix("\n") ? source : source + "\n")
                return .success
            }
            context.io.stdout.write(try ProfileLoader.load(value, for: context.invocation).json)
            return .success
        }
    }
}
