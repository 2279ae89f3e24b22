import ExpenseLogKit
import Foundation

/// `register`: read and validate every input row, skip what the server already has, POST the rest in batches, report.
enum RegisterCommand {
    static let inputFormat = Option<InputFormat>(choice: "input-format", "format",
                                                 help: "The input format when a file's extension does not tell it.")
    static let encoding = Option<TextEncoding>(.value("encoding", "encoding", .choice(TextEncoding.names),
                                                      help: "The text encoding of the inputs (default: detected; cp932 is shift_jis)."),
                                               decode: TextEncoding.init(name:))
    static let profile = Option<String>("profile", "name-or-file", .path,
                                        help: "An import profile for a foreign CSV layout: a JSON file, or a built-in name (moneyforward).")
    static let skipInvalid = Flag("skip-invalid", help: "Send the valid rows even when others are invalid (still exits 65).")
    static let allowDuplicates = Flag("allow-duplicates", help: "Send rows with the same date, price and name as an existing item.")
    static let explain = Flag("explain", help: "Say which existing item each skipped row matched.")
    static let report = Option<String>("report", "file", .path, help: "Write a JSON report of every row (its file, line and fate) to a file.")
    static let dryRun = Flag("dry-run", help: "Validate, compare and print what would be sent; send nothing.")
    static let batchSize = Option<Int>("batch-size", "n", .integer(1...10_000), default: BatchLimit.defaultItems,
                                       help: "Items per POST request at most (a batch also ends at about 512 KiB of body).")

    static let spec = CommandSpec(
        name: "register",
        aliases: ["import"],
        abstract: "Register items from JSON, NDJSON or CSV files (- for stdin).",
        discussion: """
            Every row is checked before anything is sent: when any is invalid, each problem is listed as \
            FILE:LINE: field: message and nothing is sent (exit 65); --skip-invalid sends the valid rows and \
            still exits 65. The format comes from the extension (.json, .ndjson/.jsonl, .csv), else \
            --input-format, else the content. Text is UTF-8 (with or without BOM) or Shift_JIS, detected \
            unless --encoding says. CSV headers may be the wire keys or the sheet's ID,日付,品名,金額,項目,サブ項目; \
            other layouts need --profile (built in: \(ImportProfile.builtinSources.keys.sorted().joined(separator: ", "))).

            Before sending, each row is compared with its month on the server (fetched afresh, the cache \
            only when the server cannot answer) and with the outbox: a row whose id is there is skipped, and \
            so is one with the same date, price and name unless --allow-duplicates. A report of every row ends \
            the run on stderr; --report FILE writes it as JSON. Valid rows wait in an unlinked temporary file in \
            $TMPDIR, not in memory, so a large import needs little of it.

            EXAMPLES:
              expense-log register items.csv
              expense-log import --profile moneyforward --report report.json 収入・支出詳細_2024-01.csv
              expense-log fetch --year 2024 --month 1 --format json | expense-log register --dry-run -
              echo '{"date":"20240122","name":"コーヒー","price":178,"category":0,"categorySub":1}' | expense-log register -
            """,
        options: [inputFormat.spec, encoding.spec, profile.spec, skipInvalid.spec, allowDuplicates.spec, explain.spec, report.spec,
                  dryRun.spec, batchSize.spec, CommonOptions.format.spec],
        arguments: [ArgumentSpec("file", variadic: true, help: "Files to read; - reads standard input.")],
        run: run)

    static func run(_ invocation: Invocation, _ context: Context) async throws {
        let progress = ProgressLine(context)
        // The valid items wait on disk, not in memory, from reading to sending; the report reads them back from it.
        let spool: ItemSpool
        do {
            spool = try ItemSpool()
        } catch {
            context.io.stderr.write("Error: \(error)\n")
            throw CommandExit(code: ExitCode(for: error))
        }
        let ending = ReportWriter(invocation: invocation, context: context, progress: progress, spool: spool)
        var report = ImportReport(files: invocation.arguments.map { $0 == "-" ? "<stdin>" : $0 })
        do {
            try await register(invocation, context, progress: progress, ending: ending, report: &report)
        } catch let exit as CommandExit {
            throw exit
        } catch let usage as UsageError {
            throw usage
        } catch {
            // Whatever stops the run (a 401 while comparing, an unreadable file), the report says how far it got.
            progress.clear()
            context.io.stderr.write("Error: \(error)\n")
            try ending.finish(report, code: ExitCode(for: error))
        }
    }

    /// The run itself; it always ends through `ending.finish`, which writes the report and throws the exit code.
    static func register(_ invocation: Invocation, _ context: Context, progress: ProgressLine, ending: ReportWriter,
                         report: inout ImportReport) async throws {
        let config = try context.config()
        let inputs = try RegisterInputs.read(invocation, context, into: ending.spool, progress: progress, report: &report)
        report.appendInvalid(inputs.problems)
        for row in inputs.excluded { report.append(.init(location: row.location, status: .excluded, reasons: [row.reason])) }
        if !inputs.warnings.isEmpty { progress.clear() }
        for warning in inputs.warnings.prefix(3) { context.warn("\(warning)") }
        if inputs.warnings.count > 3 { context.warn("\(inputs.warnings.count - 3) more rows like these") }

        let invalid = !inputs.problems.isEmpty
        if invalid {
            progress.clear()
            for problem in inputs.problems { context.io.stderr.write("\(problem)\n") }
            if !invocation[skipInvalid] {
                context.io.stderr.write("Error: \(inputs.problems.count) problem\(inputs.problems.count == 1 ? "" : "s") found; "
                                        + "nothing was sent. Fix the lines above and run the command again "
                                        + "(or pass --skip-invalid to send the valid rows).\n")
                try ending.finish(report, code: .dataError)
            }
        }
        let format = CommonOptions.outputFormat(invocation)
        guard inputs.spool.count > 0 else {
            context.note("No items to register.")
            try ending.finish(report, code: invalid ? .dataError : .success)
        }

        let client: ExpenseLogAPIClient?
        do {
            client = try context.client(config)
        } catch where invocation[dryRun] {
            // A dry run still validates with no server configured, as it always did: it compares with what is here.
            context.warn("\(String(describing: error).prefix { $0 != "\n" }); the dry run compares with the cache and the outbox only")
            client = nil
        }
        let repository = context.repository(config)
        let outbox = context.outbox(config)
        let check = DuplicateCheck(loader: MonthLoader(client: client, repository: repository), outbox: outbox,
                                   allowLikely: invocation[allowDuplicates])
        let (items, skipped, waiting) = try await check.run(months: inputs.months.sorted(), spool: inputs.spool,
                                                            inputIDs: inputs.inputIDs, report: &report) { event in
            show(event, context, progress)
        }
        progress.clear()
        explain(skipped, invocation, context)

        let limit = BatchLimit(items: invocation[batchSize] ?? BatchLimit.defaultItems)
        guard let client, !invocation[dryRun], items.count > 0 else {
            if invocation[dryRun] {
                let batches = try limit.batchCount(items)
                context.printItems(items, format, config)
                context.note("Dry run: \(items.count) item\(items.count == 1 ? "" : "s") would be sent in \(batches) "
                             + "batch\(batches == 1 ? "" : "es") to the \(config.environment.value.rawValue) environment; nothing was sent.")
            } else {
                context.note("Nothing to send: every valid row is already there.")
            }
            try ending.finish(report, code: invalid ? .dataError : .success)
        }

        var sender = try BatchSender(items: items, waiting: waiting, limit: limit, config: config, client: client,
                                     repository: repository, outbox: outbox, context: context, progress: progress)
        let code = try await sender.run(report: &report)
        await context.flushWarnings(repository)
        try ending.finish(report, code: code != .success ? code : invalid ? .dataError : .success)
    }

    /// Shows what the duplicate check meets as it goes: progress while the months are read, then warnings.
    static func show(_ event: DuplicateCheckEvent, _ context: Context, _ progress: ProgressLine) {
        switch event {
        case .comparing(let months):
            progress.show("Comparing with \(months) month\(months == 1 ? "" : "s") on the server", force: true)
        case .compared: progress.clear()
        case let .rows(rows, month): context.report(rows, of: month)
        case let .notCompared(month, why):
            context.warn("could not compare with \(month) on the server (\(why)); its duplicates are not "
                         + "checked now (sync still skips ids the server has)")
        case let .comparedWithCache(month, failure):
            context.warn("compared with the cached copy of \(month), because the server failed: \(failure)")
        case .cacheFailure(let failure): context.warn("the cache could not be updated: \(failure)")
        case .outboxProblem(let problem): context.warn(problem)
        }
    }

    /// `--explain`: each skipped row and the item it matched; without it, one line saying how to see them.
    static func explain(_ skipped: [ImportReport.Row], _ invocation: Invocation, _ context: Context) {
        guard !skipped.isEmpty else { return }
        guard invocation[explain] else {
            context.note("Skipped \(skipped.count) row\(skipped.count == 1 ? "" : "s") already there; --explain says what each matched"
                         + (invocation[allowDuplicates] ? "." : " (--allow-duplicates sends likely duplicates anyway)."))
            return
        }
        for row in skipped {
            let what = row.status == .duplicate ? "skipped, already there" : "skipped as a likely duplicate"
            context.io.stderr.write("\(row.location): \(what): \(row.reasons.joined(separator: "; "))\n")
        }
    }
}
