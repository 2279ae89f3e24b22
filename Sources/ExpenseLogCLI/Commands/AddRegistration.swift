import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogRendering
import Foundation

/// How `add` hands the item to `register`: checked first, so a problem is said as the command line gave it.
extension AddCommand {
    /// Registers the item through `register`'s path, as one row named `(arguments)`: a draft the fields fill, checked
    /// as any input's row is.
    func register(_ fields: Fields, _ context: Context) async throws -> ExitCode {
        var draft = ItemDraft(location: SourceLocation(file: "(arguments)", line: 1))
        draft.id = id.map(RawValue.text) ?? .missing
        draft.date = .text(fields.day.compact)
        draft.name = .text(fields.name)
        draft.price = .text(fields.price)
        draft.category = .integer(fields.category)
        draft.categorySub = fields.sub.map(RawValue.integer) ?? .missing
        let config = try context.config()
        // `--payer none`: the household's, whatever the config says.
        let given = payer?.trimmingSpaces()
        let named = given.map { ["none", "なし"].contains($0.lowercased()) ? nil : $0 } ?? config.payer?.value
        if let payer, payer.trimmingSpaces().isEmpty {
            throw UsageError(path: context.invocation.path, message: "--payer needs a name (太郎)")
        }
        if personal, shared {
            throw UsageError(path: context.invocation.path, message: "--personal and --shared say opposite things")
        }
        (draft.payer, draft.personal, draft.shared) = (named, personal, shared)
        let problems = draft.validated(catalogue: config.catalogue.value).problems
        if !problems.isEmpty { try Self.refuse(problems, context) }
        return try await RegisterCommand.run(
            RegisterOptions(adding: draft, format: format ?? .table, dryRun: dryRun),
            context)
    }

    /// Says each problem of the item typed as the command line gave it (`<price>`, `--date`), not as a file's row, and
    /// stops with 65: nothing was sent.
    static func refuse(_ problems: [ValidationProblem], _ context: Context) throws -> Never {
        let places = [
            "name": "<name>", "price": "<price>", "date": "--date", "category": "--category",
            "categorySub": "--category", "id": "--id",
        ]
        for problem in problems {
            let message = context.japanese ? problem.japaneseMessage ?? problem.message : problem.message
            context.io.stderr.write(
                context.say("Error", ja: "エラー") + ": \(problem.field.map { "\(places[$0] ?? $0): " } ?? "")\(message)\n"
            )
        }
        context.io.stderr.write(
            context.say(
                "Nothing was sent; fix \(problems.count == 1 ? "it" : "them") and run the command again.",
                ja: "何も送信していません。直してもう一度実行してください。") + "\n")
        throw CommandExit(code: .dataError)
    }
}
