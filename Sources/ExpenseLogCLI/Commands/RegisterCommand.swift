import ExpenseLogKit
import Foundation

/// `register`: validate every input item, then POST them in batches and cache what the server saved.
enum RegisterCommand {
    static let spec = CommandSpec(
        name: "register",
        aliases: ["import"],
        abstract: "Register items from JSON, NDJSON or CSV files (- for stdin).",
        discussion: """
            Every item is checked before anything is sent: when any is invalid, each problem is \
            listed as FILE:LINE: field: message and nothing is sent (exit 65). The format comes \
            from the extension (.json, .ndjson/.jsonl, .csv), else --input-format, else the content.

            EXAMPLES:
              expense-log register items.csv
              expense-log fetch --year 2024 --month 1 --format json | expense-log register --dry-run -
              echo '{"date":"20240122","name":"コーヒー","price":178,"category":0,"categorySub":1}' | expense-log register -
            """,
        options: [
            .value("input-format", "format", .choice(InputFormat.allCases.map(\.rawValue)),
                   help: "The input format when a file's extension does not tell it."),
            .flag("dry-run", help: "Validate and print what would be sent; send nothing."),
            .value("batch-size", "n", .integer(1...10_000), default: String(ExpenseLogAPIClient.defaultBatchSize),
                   help: "Items per POST request."),
            CommonOptions.format,
        ],
        arguments: [ArgumentSpec("file", variadic: true, help: "Files to read; - reads standard input.")],
        run: run)

    static func run(_ invocation: Invocation, _ context: Context) async throws {
        let config = try context.config()
        let (drafts, readProblems) = try readInputs(invocation, context)
        let (items, locations, invalid) = drafts.validatedAll()
        let problems = readProblems + invalid
        if !problems.isEmpty {
            for problem in problems { context.io.stderr.write("\(problem)\n") }
            context.io.stderr.write("Error: \(problems.count) problem\(problems.count == 1 ? "" : "s") found; nothing was sent. "
                                    + "Fix the lines above and run the command again.\n")
            throw CommandExit(code: .dataError)
        }
        let format = CommonOptions.outputFormat(invocation)
        let batchSize = invocation.integer("batch-size") ?? ExpenseLogAPIClient.defaultBatchSize
        guard !items.isEmpty else {
            context.note("No items to register.")
            return
        }
        if invocation.flag("dry-run") {
            let batches = (items.count + batchSize - 1) / batchSize
            context.printItems(items, format, config)
            context.note("Dry run: \(items.count) valid item\(items.count == 1 ? "" : "s") would be sent in \(batches) "
                         + "batch\(batches == 1 ? "" : "es") to the \(config.environment.value.rawValue) environment; nothing was sent.")
            return
        }

        let client = try context.client(config)
        let repository = context.repository(config)
        let outbox = context.outbox(config)
        let waiting = try outbox.pendingCount()
        defer {
            if waiting > 0 {
                context.note("\(waiting) item\(waiting == 1 ? "" : "s") queued by earlier runs \(waiting == 1 ? "is" : "are") still "
                             + "waiting in the outbox; `expense-log sync` sends them.")
            }
        }
        let batches = OutboxBatch.split(items, size: batchSize)
        // Queued before the first POST: whatever happens next (a lost answer, a crash, kill -9), every item the
        // server has not confirmed is in the outbox for `sync`, and none is sent twice.
        let entry: OutboxEntry, hold: HeldLock
        do {
            (entry, hold) = try outbox.enqueueHeld(batches)
        } catch let error as StoreError {
            context.io.stderr.write("Error: \(error)\nNothing was sent: the outbox must be writable, so that no item can be "
                                    + "lost or sent twice if the run is interrupted.\n")
            throw CommandExit(code: .ioError)
        }
        defer { hold.release() }
        var run = Run(total: items.count, locations: locations, format: format, config: config, outbox: outbox, context: context)
        for (index, batch) in batches.enumerated() {
            let outcome: DeliveryOutcome
            do {
                outcome = try await client.deliver(batch, of: entry, outbox: outbox, verifyAnswer: config.environment.value != .dummy)
            } catch let error as StoreError {
                run.printSaved()
                context.io.stderr.write("Error: \(error)\nThe server answered, but the outbox could not record it; "
                                        + "`expense-log sync` finds those items on the server and does not send them again.\n")
                throw CommandExit(code: .ioError)
            }
            switch outcome {
            case .delivered(let answer):
                run.saved.append(contentsOf: answer)
                run.sent += batch.items.count
                // The server has these now: a cache that cannot be written must not stop the remaining batches.
                if run.cacheFailure == nil { run.cacheFailure = await context.cache(answer, in: repository) }
            case let .failed(error, mayHaveBeenSaved):
                try run.stop(error, mayHaveBeenSaved: mayHaveBeenSaved, rejected: nil, batchSize: batch.items.count,
                             batchesLeft: batches.count - index)
            case let .rejected(error, file):
                try run.stop(error, mayHaveBeenSaved: false, rejected: file, batchSize: batch.items.count,
                             batchesLeft: batches.count - index - 1)
            }
        }
        if let cacheFailure = run.cacheFailure {
            run.printSaved()
            context.warn("all \(items.count) items were registered on the server, but the cache could not be updated; "
                         + "run fetch for their months to refresh it")
            throw cacheFailure
        }
        await context.flushWarnings(repository)
        run.printSaved()
        context.note("Registered \(items.count) item\(items.count == 1 ? "" : "s") in \(batches.count) batch\(batches.count == 1 ? "" : "es").")
    }

    /// The progress of one register run, and how it ends when a batch is not confirmed.
    struct Run {
        let total: Int
        let locations: [SourceLocation]
        let format: OutputFormat
        let config: AppConfig
        let outbox: Outbox
        let context: Context
        var saved: [Item] = []
        var sent = 0
        var cacheFailure: StoreError?

        func printSaved() {
            if !saved.isEmpty { context.printItems(saved, format, config) }
        }

        /// Says what was registered, what stays queued (everything not confirmed, already in the outbox) or was
        /// set aside as refused, and ends the command with the error's code (75 when the failure may pass).
        func stop(_ error: APIError, mayHaveBeenSaved: Bool, rejected: URL?, batchSize: Int, batchesLeft: Int) throws -> Never {
            printSaved()
            let location = locations[min(sent, locations.count - 1)]
            context.io.stderr.write("Error: \(error)\n")
            if sent > 0 { context.warn("\(sent) of \(total) items were registered before this error") }
            var queued = total - sent
            if let rejected {
                queued -= batchSize
                context.io.stderr.write("The server refused the \(batchSize) item\(batchSize == 1 ? "" : "s") from \(location) on; "
                                        + "they were moved to \(rejected.path). Fix them there and register that file "
                                        + "(it keeps their ids).\n")
            } else if mayHaveBeenSaved {
                context.io.stderr.write("The batch from \(location) may have been saved before the answer was lost; "
                                        + "`expense-log sync` checks the server by id before sending anything again.\n")
            }
            if queued > 0 {
                let first = rejected == nil ? location : locations[min(sent + batchSize, locations.count - 1)]
                context.io.stderr.write("Queued the \(queued) item\(queued == 1 ? "" : "s") from \(first) on, in \(batchesLeft) "
                                        + "batch\(batchesLeft == 1 ? "" : "es"), in the outbox (\(outbox.directory.path)). "
                                        + "Run `expense-log sync` to send them\(error.isTransient ? "" : " once the cause is fixed"); "
                                        + "`expense-log pending` lists them. Do not register the same input again: "
                                        + "that would send them twice.\n")
            }
            throw CommandExit(code: error.isTransient ? .temporaryFailure : ExitCode(for: error))
        }
    }

    /// Reads every named input; unreadable files stop the command (66), syntax problems are collected (65).
    static func readInputs(_ invocation: Invocation, _ context: Context) throws -> ([ItemDraft], [ValidationProblem]) {
        if invocation.arguments.filter({ $0 == "-" }).count > 1 {
            throw UsageError(path: invocation.path, message: "Standard input ('-') can be read only once")
        }
        var drafts: [ItemDraft] = []
        var problems: [ValidationProblem] = []
        for path in invocation.arguments {
            let bytes: [UInt8]
            let name = path == "-" ? "<stdin>" : path
            if path == "-" {
                bytes = Array(try context.io.readStdin())
            } else {
                bytes = try readFile(path)
            }
            let format = (path == "-" ? nil : InputFormat(fileName: path))
                ?? invocation.value("input-format").flatMap(InputFormat.init(rawValue:))
                ?? InputFormat(sniffing: bytes)
            let (read, found) = InputReader.read(bytes, name: name, format: format)
            drafts.append(contentsOf: read)
            problems.append(contentsOf: found)
        }
        return (drafts, problems)
    }

    static func readFile(_ path: String) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(path: path, reason: "no such file")
        }
        if isDirectory.boolValue { throw InputError(path: path, reason: "it is a folder, not a file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(path: path, reason: "permission denied or unreadable")
        }
        return Array(data)
    }
}
