import ExpenseLogKit
import Foundation

/// `register`: validate every input item, then POST them in batches and cache what the server saved.
enum RegisterCommand {
    static let spec = CommandSpec(
        name: "register",
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
            context.printItems(items, format)
            context.note("Dry run: \(items.count) valid item\(items.count == 1 ? "" : "s") would be sent in \(batches) "
                         + "batch\(batches == 1 ? "" : "es") to the \(config.environment.value.rawValue) environment; nothing was sent.")
            return
        }

        let client = try context.client(config)
        let repository = context.repository(config)
        let outbox = context.outbox(config)
        let waiting = outbox.pendingCount()
        defer {
            if waiting > 0 {
                context.note("\(waiting) item\(waiting == 1 ? "" : "s") queued by earlier runs \(waiting == 1 ? "is" : "are") still "
                             + "waiting in the outbox; `expense-log sync` sends them.")
            }
        }
        let batches = OutboxBatch.split(items, size: batchSize)
        var saved: [Item] = []
        var sent = 0
        var cacheFailure: StoreError?
        for (index, batch) in batches.enumerated() {
            let answer: [Item]
            do {
                answer = try await client.send(batch)
            } catch let failure as BatchFailure {
                if !saved.isEmpty { context.printItems(saved, format) }
                try queue(failure, unsent: Array(batches[index...]), from: locations[sent], sent: sent, total: items.count,
                          outbox: outbox, context: context)
            }
            saved.append(contentsOf: answer)
            sent += batch.items.count
            // The server has these now: a cache that cannot be written must not stop the remaining batches.
            if cacheFailure == nil { cacheFailure = await context.cache(answer, in: repository) }
        }
        if let cacheFailure {
            context.printItems(saved, format)
            context.warn("all \(items.count) items were registered on the server, but the cache could not be updated; "
                         + "run fetch for their months to refresh it")
            throw cacheFailure
        }
        await context.flushWarnings(repository)
        context.printItems(saved, format)
        context.note("Registered \(items.count) item\(items.count == 1 ? "" : "s") in \(batches.count) batch\(batches.count == 1 ? "" : "es").")
    }

    /// After a failed batch: queue it and the rest when the failure may pass or the batch may have been saved,
    /// otherwise report what was not sent. Always ends the command.
    static func queue(_ failure: BatchFailure, unsent: [OutboxBatch], from location: SourceLocation, sent: Int, total: Int,
                      outbox: Outbox, context: Context) throws -> Never {
        let count = total - sent
        let rest = "the \(count) item\(count == 1 ? "" : "s") from \(location) on"
        context.io.stderr.write("Error: \(failure.error)\n")
        if sent > 0 { context.warn("\(sent) of \(total) items were registered before this error") }
        guard failure.error.isTransient || failure.mayHaveBeenSaved else {
            context.io.stderr.write("Nothing was queued: \(rest) were not sent. Fix the cause, then register them again.\n")
            throw CommandExit(code: ExitCode(for: failure.error))
        }
        do {
            try outbox.enqueue(unsent)
        } catch let error as StoreError {
            context.io.stderr.write("Error: \(rest) could not be queued either: \(error)\n")
            throw CommandExit(code: .ioError)
        }
        if failure.mayHaveBeenSaved {
            context.io.stderr.write("The batch from \(location) may have been saved before the answer was lost; it is queued "
                                    + "too, and `expense-log sync` checks the server by id before sending anything again.\n")
        }
        let batches = "\(unsent.count) batch\(unsent.count == 1 ? "" : "es")"
        context.io.stderr.write("Queued \(rest), in \(batches), in the outbox (\(outbox.directory.path)). "
                                + "Run `expense-log sync` to send them; `expense-log pending` lists them.\n")
        throw CommandExit(code: failure.error.isTransient ? .temporaryFailure : ExitCode(for: failure.error))
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
