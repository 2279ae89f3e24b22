import ExpenseLogKit
import Foundation

/// What `register` read from all its inputs.
struct RegisterInputs {
    /// Every valid item, in input order, on disk (a large import is never held in memory); each record's tag is its
    /// row in the report, which holds where it was read.
    let spool: ItemSpool
    /// The months of the valid items.
    var months: Set<YearMonth> = []
    /// The ids the input gave (the others were made here and match nothing known).
    var inputIDs: Set<String> = []
    /// Every problem: syntax, layout and validation.
    var problems: [ValidationProblem] = []
    /// Rows the profile left out.
    var excluded: [ExcludedRow] = []
    /// Guesses the readers made, shown as warnings.
    var warnings: [ValidationProblem] = []

    /// Reads every named input, adding a report row for each valid item; an unreadable file stops the command (66), a
    /// bad profile too (64, 65 or 66).
    static func read(_ invocation: Invocation, _ context: Context, into spool: ItemSpool, progress: ProgressLine,
                     report: inout ImportReport) throws -> RegisterInputs {
        if invocation.arguments.filter({ $0 == "-" }).count > 1 {
            throw UsageError(path: invocation.path, message: "Standard input ('-') can be read only once")
        }
        let named = invocation.arguments.filter { $0 != "-" }.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        if let twice = named.first(where: { path in named.filter { $0 == path }.count > 1 }) {
            throw UsageError(path: invocation.path, message: "\(twice) is named twice; each file can be registered only once per run")
        }
        let profile = try self.profile(invocation)
        let encoding = invocation[RegisterCommand.encoding]
        var inputs = RegisterInputs(spool: spool)
        // Each row is validated as it is read and a valid one goes to the spool: the input is never held as
        // records, drafts or items.
        var validator = ItemValidator()
        var rows = 0
        var failure: (any Error)?
        for path in invocation.arguments {
            let name = path == "-" ? "<stdin>" : ArgumentBytes.display(path)
            let input = try InputFile.chunked(path, context)
            let format = (path == "-" ? nil : InputFormat(fileName: path))
                ?? invocation[RegisterCommand.inputFormat]
            if profile != nil, let format, format != .csv {
                throw UsageError(path: invocation.path, message: "--profile reads CSV, but \(name) is \(format.rawValue)")
            }
            let mark = (validator.mark, inputs.spool.mark, report.count, rows)
            var months: Set<YearMonth> = []
            let read = try InputReader.read(input, name: name, format: format ?? (profile == nil ? nil : .csv), encoding: encoding,
                                        profile: profile ?? .native) { draft in
                rows += 1
                guard failure == nil, let item = validator.check(draft) else { return }
                guard report.count < Int(Int32.max) else {
                    failure = InputError(path: name, reason: "it has more rows than one run can register (2,147,483,647); split it")
                    return
                }
                do {
                    let offset = try inputs.spool.append(item, tag: Int32(report.count))
                    report.appendSpooled(at: draft.location, offset: offset)
                    months.insert(item.date.yearMonth)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            if read.refusedWhole {
                validator.rollBack(to: mark.0)
                try inputs.spool.truncate(to: mark.1)
                report.truncate(to: mark.2)
                rows = mark.3
            } else {
                inputs.months.formUnion(months)
            }
            inputs.problems.append(contentsOf: read.problems)
            inputs.excluded.append(contentsOf: read.excluded)
            inputs.warnings.append(contentsOf: read.warnings)
            progress.show("Read \(PriceText.format(rows + inputs.excluded.count)) rows")
        }
        inputs.inputIDs = Set(validator.inputIDs)
        inputs.problems.append(contentsOf: validator.problems)
        return inputs
    }

    /// `--profile NAME|FILE`: a file when one exists at that path (or it looks like a path), else a built-in name.
    static func profile(_ invocation: Invocation) throws -> ImportProfile? {
        guard let value = invocation[RegisterCommand.profile] else { return nil }
        let looksLikePath = value.contains("/") || value.hasSuffix(".json")
        if looksLikePath || FileManager.default.fileExists(atPath: value) {
            return try ImportProfile.parse(try InputFile.read(value), name: value, file: value)
        }
        guard let builtin = try ImportProfile.builtin(value) else {
            let names = ImportProfile.builtinSources.keys.sorted().joined(separator: ", ")
            throw UsageError(path: invocation.path, message: "No profile file '\(value)' and no built-in profile of that name; "
                             + "the built-in profiles are \(names)")
        }
        return builtin
    }
}
