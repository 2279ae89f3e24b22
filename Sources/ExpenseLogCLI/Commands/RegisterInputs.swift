import ExpenseLogKit
import Foundation

/// What `register` read from all its inputs.
struct RegisterInputs {
    /// Every valid item, in input order, with where each was read.
    var items: [Item] = []
    var locations: [SourceLocation] = []
    /// Every problem: syntax, layout and validation.
    var problems: [ValidationProblem] = []
    /// Rows the profile left out.
    var excluded: [ExcludedRow] = []
    /// Guesses the readers made, shown as warnings.
    var warnings: [ValidationProblem] = []

    /// Reads every named input; an unreadable file stops the command (66), a bad profile too (64, 65 or 66).
    static func read(_ invocation: Invocation, _ context: Context, progress: ProgressLine) throws -> RegisterInputs {
        if invocation.arguments.filter({ $0 == "-" }).count > 1 {
            throw UsageError(path: invocation.path, message: "Standard input ('-') can be read only once")
        }
        let named = invocation.arguments.filter { $0 != "-" }.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        if let twice = named.first(where: { path in named.filter { $0 == path }.count > 1 }) {
            throw UsageError(path: invocation.path, message: "\(twice) is named twice; each file can be registered only once per run")
        }
        let profile = try self.profile(invocation)
        let encoding = invocation.value("encoding").flatMap(TextEncoding.init(name:))
        var inputs = RegisterInputs()
        // Each row is validated as it is read: a large input is never held as records or drafts, only as items.
        var validator = ItemValidator()
        var rows = 0
        for path in invocation.arguments {
            let name = path == "-" ? "<stdin>" : path
            let bytes = path == "-" ? Array(try context.io.readStdin()) : try readFile(path)
            let format = (path == "-" ? nil : InputFormat(fileName: path))
                ?? invocation.value("input-format").flatMap(InputFormat.init(rawValue:))
            if profile != nil, let format, format != .csv {
                throw UsageError(path: invocation.path, message: "--profile reads CSV, but \(name) is \(format.rawValue)")
            }
            let mark = validator.mark, rowsBefore = rows
            let read = InputReader.read(bytes, name: name, format: format ?? (profile == nil ? nil : .csv), encoding: encoding,
                                        profile: profile ?? .native) { rows += 1; validator.add($0) }
            if read.refusedWhole {
                validator.rollBack(to: mark)
                rows = rowsBefore
            }
            inputs.problems.append(contentsOf: read.problems)
            inputs.excluded.append(contentsOf: read.excluded)
            inputs.warnings.append(contentsOf: read.warnings)
            progress.show("Read \(PriceText.format(rows + inputs.excluded.count)) rows")
        }
        inputs.items = validator.items
        inputs.locations = validator.locations
        inputs.problems.append(contentsOf: validator.problems)
        return inputs
    }

    /// `--profile NAME|FILE`: a file when one exists at that path (or it looks like a path), else a built-in name.
    static func profile(_ invocation: Invocation) throws -> ImportProfile? {
        guard let value = invocation.value("profile") else { return nil }
        let looksLikePath = value.contains("/") || value.hasSuffix(".json")
        if looksLikePath || FileManager.default.fileExists(atPath: value) {
            return try ImportProfile.parse(try readFile(value), name: value, file: value)
        }
        guard let builtin = try ImportProfile.builtin(value) else {
            let names = ImportProfile.builtinSources.keys.sorted().joined(separator: ", ")
            throw UsageError(path: invocation.path, message: "No profile file '\(value)' and no built-in profile of that name; "
                             + "the built-in profiles are \(names)")
        }
        return builtin
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
