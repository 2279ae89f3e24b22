import ExpenseLogImport
import ExpenseLogModel
import Foundation

/// Finds an import profile by what a person types: a built-in name, or a profile file, whose `"extends"` may name
/// another built-in or a file beside it.
enum ProfileLoader {
    /// How many profiles one may extend in a chain; a longer one is surely a mistake.
    static let maxDepth = 8

    /// The profile `value` names: a file when one exists at that path (or it looks like a path), else a built-in; nil
    /// when it is neither. A file's mistakes are thrown as `ValidationProblem`s at their line.
    static func load(_ value: String) throws -> ImportProfile? {
        if looksLikePath(value) || FileManager.default.fileExists(atPath: value) {
            return try file(value, chain: [])
        }
        return try ImportProfile.builtin(value)
    }

    /// The profile `value` names for a command; neither a file nor a built-in is a usage error naming the built-ins.
    static func load(_ value: String, for invocation: Invocation) throws -> ImportProfile {
        guard let found = try load(value) else {
            let names = ImportProfile.builtinSources.keys.sorted().joined(separator: ", ")
            throw UsageError(
                path: invocation.path,
                message: "No profile file '\(value)' and no built-in profile of that name; "
                    + "the built-in profiles are \(names)")
        }
        return found
    }

    private static func looksLikePath(_ value: String) -> Bool { value.contains("/") || value.hasSuffix(".json") }

    /// A profile file, its `extends` found beside it; `chain` is the files extending it, to catch a circle.
    private static func file(_ path: String, chain: [String]) throws -> ImportProfile {
        let standard = URL(fileURLWithPath: path).standardizedFileURL.path
        let shown = ArgumentBytes.display(path)
        if chain.contains(standard) || chain.count >= maxDepth {
            let circle = (chain + [standard]).map { URL(fileURLWithPath: $0).lastPathComponent }.joined(
                separator: " → ")
            throw ValidationProblem(
                location: SourceLocation(file: shown, line: 1), field: "extends",
                message: "profiles extend each other in a circle or too deep a chain (\(circle))")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        return try ImportProfile.parse(try InputFile.read(path), name: shown, file: shown) { base in
            let beside = base.hasPrefix("/") ? base : directory.appendingPathComponent(base).path
            if looksLikePath(base)
                || FileManager.default.fileExists(atPath: beside) && ImportProfile.builtinSources[base] == nil
            {
                guard FileManager.default.fileExists(atPath: beside) else { return nil }
                return try file(beside, chain: chain + [standard])
            }
            return try ImportProfile.builtin(base)
        }
    }
}
