import ExpenseLogConfig
import ExpenseLogImport
import ExpenseLogStore
import ExpenseLogUseCases
import Foundation

/// What `register` says on stderr while it reads and compares, and what it prints for a dry run.
struct RegisterText {
    let options: RegisterOptions
    let context: Context
    let progress: ProgressLine

    /// Shows the inputs' exclusions, warnings and problems, adding them to `report`; stops the run (65) when a row is
    /// invalid under `--on-invalid stop`. Returns whether the run is to end with 65 for them: not when they are only
    /// invalid rows under `--on-invalid warn`.
    func show(_ inputs: ImportInputs, _ report: inout ImportRecord, ending: ImportRecordFile) throws -> Bool {
        report.appendInvalid(inputs.problems)
        for row in inputs.excluded { report.append(.init(location: row.location, status: .excluded, reasons: [row.reason])) }
        if !inputs.warnings.isEmpty { progress.clear() }
        for warning in inputs.warnings.prefix(3) { context.warn("\(warning)") }
        if inputs.warnings.count > 3 { context.warn("\(inputs.warnings.count - 3) more rows like these") }
        guard !inputs.problems.isEmpty else { return false }
        progress.clear()
        let count = inputs.problems.count
        // A file that cannot be read at all (its header, its bytes) is not helped by skipping rows: the run exits 65.
        let wholeFiles = inputs.problems.contains(where: \.ofWholeFile)
        if options.onInvalid == .warn, !wholeFiles {
            for problem in inputs.problems { context.warn("\(problem)") }
            return false
        }
        for problem in inputs.problems { context.io.stderr.write("\(problem)\n") }
        if options.onInvalid == .stop {
            let rowsOnly = !inputs.problems.allSatisfy(\.ofWholeFile)
            context.io.stderr.write("Error: \(count) problem\(count == 1 ? "" : "s") found; nothing was sent. "
                                    + "Fix what the lines above name and run the command again"
                                    + (rowsOnly ? " (or pass --skip-invalid to send the valid rows).\n" : ".\n"))
            try ending.finish(report, code: .dataError)
        }
        if wholeFiles {
            let files = Set(inputs.problems.filter(\.ofWholeFile).map(\.location.file)).sorted()
            context.warn("\(files.joined(separator: ", ")) could not be read at all: none of \(files.count == 1 ? "its" : "their") rows "
                         + "is sent, and the run exits 65; the valid rows of the other inputs are sent")
        }
        return true
    }

    /// Shows what the duplicate check meets as it goes: progress while the months are read, then warnings.
    func show(_ event: DuplicateCheckEvent) {
        switch event {
        case .comparing(let months):
            progress.show("Comparing with \(months) month\(months == 1 ? "" : "s") on the server", force: true)
        case .compared: progress.clear()
        case let .rows(rows, month): context.warnRows(rows, of: month)
        case let .notCompared(month, why):
            context.warn("could not compare with \(month) on the server (\(why)), nor with a cached copy; its rows were "
                         + "compared with the outbox only (sync still skips ids the server has)")
        case let .comparedWithCache(month, failure):
            context.warn("compared with the cached copy of \(month), because the server failed: \(failure)")
        case .cacheFailure(let failure): context.warn("the cache could not be updated: \(failure)")
        case .outboxProblem(let problem): context.warn(problem)
        }
    }

    /// `--explain`: each skipped row and the item it matched; without it, one line saying how to see them.
    func explain(_ skipped: [ImportRecord.Row]) {
        guard !skipped.isEmpty else { return }
        guard options.explain else {
            context.note("Skipped \(skipped.count) row\(skipped.count == 1 ? "" : "s") already there"
                         + (options.adding != nil ? "" : "; --explain says what each matched")  // add has no --explain
                         + (options.allowDuplicates || !skipped.contains { $0.status == .likelyDuplicate } ? "."
                            : " (--allow-duplicates sends likely duplicates anyway)."))
            return
        }
        for row in skipped {
            let what = row.status == .duplicate ? "skipped, already there" : "skipped as a likely duplicate"
            context.io.stderr.write("\(row.location): \(what): \(row.reasons.joined(separator: "; "))\n")
        }
    }

    /// A run that sends nothing: a dry run prints what it would send, else every valid row was already there.
    func dryRunOrNothing(_ items: ItemSpool, _ config: AppConfig) throws {
        guard options.dryRun else {
            if options.format != .table { context.printItems([], options.format, config) }
            context.note("Nothing to send: every valid row is already there.")
            return
        }
        let batches = try options.limit.batchCount(items)
        context.printItems(items, options.format, config)
        context.note("Dry run: \(items.count) item\(items.count == 1 ? "" : "s") would be sent in \(batches) "
                     + "batch\(batches == 1 ? "" : "es") to the \(config.environment.value.rawValue) environment; nothing was sent.")
    }
}
