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
        let batches = (items.count + batchSize - 1) / batchSize
        if invocation.flag("dry-run") {
            context.printItems(items, format)
            context.note("Dry run: \(items.count) valid item\(items.count == 1 ? "" : "s") would be sent in \(batches) "
                         + "batch\(batches == 1 ? "" : "es") to the \(config.environment.value.rawValue) environment; nothing was sent.")
            return
        }

        let client = try context.client(config)
        let repository = context.repository(config)
        var saved: [Item] = []
        var sent = 0
        var cacheFailure: StoreError?
        do {
            try await client.register(items, batchSize: batchSize) { batch, sentSoFar in
                saved.append(contentsOf: batch)
                sent = sentSoFar
                // The server has these now: a cache that cannot be written must not stop the remaining batches.
                if cacheFailure == nil {
                    do { try await repository.add(batch) } catch let error as StoreError { cacheFailure = error }
                }
            }
        } catch {
            if sent > 0 {
                context.printItems(saved, format)
                context.warn("\(sent) of \(items.count) items were registered before this error; the items from "
                             + "\(locations[min(sent, locations.count - 1)]) on (\(items.count - sent)) were not sent")
            }
            throw error
        }
        if let cacheFailure {
            context.printItems(saved, format)
            context.warn("all \(items.count) items were registered on the server, but the cache could not be updated; "
                         + "run fetch for their months to refresh it")
            throw cacheFailure
        }
        await context.flushWarnings(repository)
        context.printItems(saved, format)
        context.note("Registered \(items.count) item\(items.count == 1 ? "" : "s") in \(batches) batch\(batches == 1 ? "" : "es").")
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
