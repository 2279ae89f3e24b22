import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogRendering
import Foundation

/// `profile init`: a starter profile guessed from a CSV.
extension ProfileCommand {
    /// `profile init`.
    struct Init: ParsableCommand {
        @Opt(
            "output", short: "o", "file", .path,
            help: "Write the profile to this file (never over an existing one) instead of stdout.")
        var output: String?
        @Arg("file", kind: .path, help: "The CSV to read (- for stdin).") var path: String

        static let about = CommandAbout(
            name: "init", abstract: "Guess a starter profile from a CSV's header and first rows.")

        func run(_ context: Context) async throws -> ExitCode {
            let name = RegisterOptions.name(of: path)
            let bytes = path == "-" ? Array(try context.io.readStdin(InputLimits.wholeBytes)) : try InputFile.read(path)
            let catalogue = try context.config().catalogue.value
            let defaultCategory = catalogue.categories.first?.id ?? 0
            let guess = try ProfileGuess.guess(
                bytes, name: name, defaultCategory: defaultCategory, catalogue: catalogue)
            let text = guess.profile.json
            if let output {
                let url = URL(fileURLWithPath: output)
                guard !FileManager.default.fileExists(atPath: url.path) else {
                    context.io.stderr.write(
                        context.say(
                            "Error: \(ArgumentBytes.display(output)) exists; choose another name or remove it first",
                            ja: "エラー: \(ArgumentBytes.display(output)) はすでにあります。別の名前にするか、先に削除してください") + "\n")
                    throw CommandExit(code: .ioError)
                }
                do {
                    try ImportProfile.save(text, to: url)
                } catch {
                    context.io.stderr.write(
                        context.say(
                            "Error: could not write \(ArgumentBytes.display(output)): ",
                            ja: "エラー: \(ArgumentBytes.display(output)) に書けません: ") + context.describe(error) + "\n")
                    throw CommandExit(code: .ioError)
                }
            } else {
                context.io.stdout.write(text)
            }
            for (note, japanese) in zip(guess.notes, guess.japaneseNotes) {
                context.note(context.say("guessed " + note, ja: "推測: " + japanese))
            }
            // What the profile makes of the file, so the person sees it works before editing it.
            let read = InputReader.read(bytes, name: name, format: .csv, profile: guess.profile)
            let checked = read.drafts.validatedAll(catalogue: catalogue)
            let problems = read.problems + checked.problems
            let invalid = problems.count
            let check =
                "expense-log register --profile \(output.map(ArgumentBytes.display) ?? "PROFILE.json") --dry-run \(path == "-" ? "FILE" : name)"
            context.note(
                context.say(
                    "With it, \(name) reads as \(checked.items.count) item\(checked.items.count == 1 ? "" : "s")"
                        + (read.excluded.isEmpty ? "" : ", \(read.excluded.count) left out")
                        + (invalid == 0 ? "" : ", \(invalid) invalid")
                        + ". Check it with: " + check,
                    ja: "これで \(name) は\(checked.items.count)件の項目として読めます"
                        + (read.excluded.isEmpty ? "" : " (除外\(read.excluded.count)行)")
                        + (invalid == 0 ? "" : " (不正\(invalid)行)")
                        + "。確かめるには: " + check))
            if let first = problems.first {
                context.note(
                    context.say("The first row it cannot read: ", ja: "読めない最初の行: ")
                        + first.text(japanese: context.japanese))
            }
            return .success
        }
    }
}
