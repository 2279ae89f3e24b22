import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogRendering
import Foundation

/// `profile list|show|init`: the import profiles `register --profile` reads, and a start on one of your own.
enum ProfileCommand: Command {
    static var subcommands: [any Command.Type] { [List.self, Show.self, Init.self] }

    static let output = Option<String>("output", short: "o", "file", .path,
                                       help: "Write the profile to this file (never over an existing one) instead of stdout.")

    static let nameOrFile = Argument<String>("name-or-file", kind: .suggestOrPath(ImportProfile.builtinSources.keys.sorted()),
                                             help: "A built-in name (moneyforward) or a profile file.")
    static let file = Argument<String>("file", kind: .path, help: "The CSV to read (- for stdin).")

    static let spec = CommandSpec(
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
            """,
        subcommands: subcommands.map { $0.spec })

    /// `profile list`.
    enum List: Command {
        static let spec = CommandSpec(
            name: "list", abstract: "List the built-in profiles.")

        static func run(_ invocation: Invocation, _ context: Context) async throws {
            var rows = [["NAME", "DESCRIPTION"]]
            for (name, profile) in ImportProfile.builtins { rows.append([name, profile.description]) }
            context.io.stdout.write(TextTable(rows: rows).render())

        }
    }

    /// `profile show`.
    enum Show: Command {
        static let spec = CommandSpec(
            name: "show", abstract: "Print a profile as JSON (a file's with what it extends filled in).",
            arguments: [nameOrFile.spec])

        static func run(_ invocation: Invocation, _ context: Context) async throws {
            let value = invocation[nameOrFile]
            // A built-in is printed as written, which is the JSON a profile file takes.
            if !FileManager.default.fileExists(atPath: value), let source = ImportProfile.builtinSources[value] {
                context.io.stdout.write(source.hasSuffix("\n") ? source : source + "\n")
                return
            }
            context.io.stdout.write(try ProfileLoader.load(value, for: invocation).json)

        }
    }

    /// `profile init`.
    enum Init: Command {
        static let spec = CommandSpec(
            name: "init", abstract: "Guess a starter profile from a CSV's header and first rows.", options: [output.spec],
            arguments: [file.spec])

        static func run(_ invocation: Invocation, _ context: Context) async throws {
            let path = invocation[file]
            let name = RegisterOptions.name(of: path)
            let bytes = path == "-" ? Array(try context.io.readStdin(InputLimits.wholeBytes)) : try InputFile.read(path)
            let catalogue = try context.config().catalogue.value
            let defaultCategory = catalogue.categories.first?.id ?? 0
            let guess = try ProfileGuess.guess(bytes, name: name, defaultCategory: defaultCategory, catalogue: catalogue)
            let text = guess.profile.json
            if let output = invocation[output] {
                let url = URL(fileURLWithPath: output)
                guard !FileManager.default.fileExists(atPath: url.path) else {
                    context.io.stderr.write("Error: \(ArgumentBytes.display(output)) exists; choose another name or remove it first\n")
                    throw CommandExit(code: .ioError)
                }
                do {
                    try ImportProfile.save(text, to: url)
                } catch {
                    context.io.stderr.write("Error: could not write \(ArgumentBytes.display(output)): \(error)\n")
                    throw CommandExit(code: .ioError)
                }
            } else {
                context.io.stdout.write(text)
            }
            for note in guess.notes { context.note("guessed \(note)") }
            // What the profile makes of the file, so the person sees it works before editing it.
            let read = InputReader.read(bytes, name: name, format: .csv, profile: guess.profile)
            let checked = read.drafts.validatedAll(catalogue: catalogue)
            let problems = read.problems + checked.problems
            let invalid = problems.count
            context.note("With it, \(name) reads as \(checked.items.count) item\(checked.items.count == 1 ? "" : "s")"
                         + (read.excluded.isEmpty ? "" : ", \(read.excluded.count) left out") + (invalid == 0 ? "" : ", \(invalid) invalid")
                         + ". Check it with: expense-log register --profile \(invocation[output].map(ArgumentBytes.display) ?? "PROFILE.json") "
                         + "--dry-run \(path == "-" ? "FILE" : name)")
            if let first = problems.first { context.note("The first row it cannot read: \(first)") }

        }
    }
}
