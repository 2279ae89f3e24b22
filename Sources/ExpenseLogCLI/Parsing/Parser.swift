/// Parses argv against the command tree; global options are accepted before or after the command name.
public struct Parser: Sendable {
    /// The word that, first on the command line, asks for help on the command words after it.
    public static let helpWord = "help"
    /// `--version` and `-h/--help`: every command accepts them and the parser answers them itself.
    public static let builtInFlags: [OptionSpec] = [
        .flag("version", help: "Show the version."),
        .flag("help", short: "h", help: "Show help information."),
    ]

    /// The tool's root command, whose subcommands are the commands.
    public let root: CommandSpec
    /// Options every command accepts.
    public let globals: [OptionSpec]

    /// A parser for a command tree.
    public init(root: CommandSpec, globals: [OptionSpec]) {
        self.root = root
        self.globals = globals
    }

    /// The command line's meaning, or a `UsageError` naming the command it concerns.
    public func parse(_ arguments: [String]) throws -> ParseResult {
        var path: [String] = []
        var spec = root
        var values: [String: String] = [:]
        var flags: Set<String> = []
        // The options given by an old name (`renamed`), to refuse one given by both names.
        var renamedGiven: Set<String> = []
        var positionals: [String] = []
        var wantsHelp = false
        var wantsVersion = false
        var optionsEnded = false
        var helpWords: [String]?  // set by the `help` command: the words naming the command to describe
        var index = 0

        func fail(_ message: String) -> UsageError { UsageError(path: path, message: message) }

        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if !optionsEnded, token == "--" { optionsEnded = true; continue }
            if !optionsEnded, token.hasPrefix("-"), token != "-", !Self.isNegativeValue(token) {
                let (given, inline) = try Self.split(token, fail: fail)
                if given == "help" || given == "h" { wantsHelp = true; continue }
                if given == "version" { wantsVersion = true; continue }
                // An option's old name still works where the command has the new one (`register --report`).
                let name =
                    Self.renamed[given].flatMap { new in spec.options.contains { $0.name == new } ? new : nil } ?? given
                guard
                    let option = (spec.options + globals).first(where: {
                        name.count == 1 ? $0.short == name.first : $0.name == name
                    })
                else {
                    let names = (spec.options + globals + Self.builtInFlags).map { "--\($0.name)" }
                    let given = String(token.split(separator: "=", maxSplits: 1)[0])
                    if let why = Self.removed[given] { throw fail("Unknown option '\(given)': \(why)") }
                    throw fail("Unknown option '\(given)'" + Suggestion.didYouMean(given, among: names))
                }
                guard option.valueName != nil else {
                    if inline != nil { throw fail("The flag '--\(option.name)' does not take a value") }
                    flags.insert(option.name)
                    continue
                }
                var value = inline
                if value == nil, index < arguments.count, !Self.looksLikeOption(arguments[index]) {
                    value = arguments[index]
                    index += 1
                }
                guard let value else { throw fail("Missing value for '\(option.label)'") }
                // An option and its old name both given would let one silently win: refused, as a typo may hide there.
                if given != name {
                    if values[name] != nil, !renamedGiven.contains(name) {
                        throw fail("'--\(given)' is the old name of '--\(name)', given too: give one of them")
                    }
                    renamedGiven.insert(name)
                } else if renamedGiven.contains(name) {
                    throw fail("'--\(name)' and its old name were both given: give one of them")
                }
                values[option.name] = try Self.check(value, option.kind, label: option.label, fail: fail)
                continue
            }
            if helpWords != nil {
                helpWords?.append(token)
                continue
            }
            if positionals.isEmpty, !spec.subcommands.isEmpty, !optionsEnded {
                if path.isEmpty, token == Self.helpWord {
                    helpWords = []
                    continue
                }
                guard let next = spec.subcommand(token) else {
                    let names = spec.subcommands.map(\.name).joined(separator: ", ")
                    let words = spec.subcommands.flatMap(\.names)
                    throw fail(
                        (path.isEmpty
                            ? "Unknown command '\(token)'; the commands are \(names)"
                            : "Unknown subcommand '\(token)'; expected one of \(names)")
                            + Suggestion.didYouMean(token, among: words))
                }
                path.append(next.name)  // an alias runs the command under its canonical name
                spec = next
                continue
            }
            positionals.append(token)
        }

        if let helpWords { return .help(try helpTarget(helpWords)) }
        if wantsHelp { return .help(path) }
        if wantsVersion { return .version }
        guard !spec.isGroup else {
            if path.isEmpty { return .help([]) }
            throw fail("Missing subcommand; expected one of \(spec.subcommands.map(\.name).joined(separator: ", "))")
        }
        for option in spec.options where option.isRequired && values[option.name] == nil {
            throw fail("Missing expected argument '\(option.label)'")
        }
        let given = Set(values.keys)
        for option in spec.options + globals where values[option.name] == nil {
            if let fallback = option.defaultValue { values[option.name] = fallback }
        }
        try checkPositionals(positionals, of: spec, fail: fail)
        return .run(
            Invocation(
                path: path, values: values, flags: flags, arguments: positionals,
                argumentNames: spec.arguments.map(\.name),
                given: given), spec)
    }

    /// The command path `help a b` refers to.
    func helpTarget(_ words: [String]) throws -> [String] {
        var spec = root
        var path: [String] = []
        for word in words {
            guard let next = spec.subcommand(word) else {
                throw UsageError(path: path, message: "Unknown command '\(word)' for help")
            }
            spec = next
            path.append(next.name)
        }
        return path
    }

    /// The spec at a command path.
    public func spec(at path: [String]) -> CommandSpec {
        path.reduce(root) { spec, name in spec.subcommand(name) ?? spec }
    }

    private func checkPositionals(_ given: [String], of spec: CommandSpec, fail: (String) -> UsageError) throws {
        var remaining = given[...]
        for argument in spec.arguments {
            if argument.isVariadic {
                for value in remaining { _ = try Self.check(value, argument.kind, label: argument.label, fail: fail) }
                remaining.removeAll()
                continue
            }
            if remaining.isEmpty {
                if argument.isOptional { continue }
                throw fail("Missing expected argument '\(argument.label)'")
            }
            _ = try Self.check(remaining.removeFirst(), argument.kind, label: argument.label, fail: fail)
        }
        if let extra = remaining.first { throw fail("Unexpected argument '\(extra)'") }
        if let variadic = spec.arguments.last, variadic.isVariadic, !variadic.isOptional,
            given.count < spec.arguments.count
        {
            throw fail("Missing expected argument '\(variadic.label)'")
        }
    }

    /// Options renamed, by their old names: the old name is read as the new one, so scripts keep working; help and
    /// completions name only the new one.
    static let renamed = ["report": "record"]

    /// Options earlier versions took that did nothing by the time they were removed, and what to do instead: a script
    /// that passed one is told why, as git says of a removed option.
    static let removed = [
        "--no-color": "it was removed, as the output has no colour; leave it out (NO_COLOR is not needed either)",
        "--allow-duplicates": "add no longer takes it: it did nothing, as add keeps every purchase; leave it out "
            + "(register --allow-duplicates is unchanged)",
    ]

    static func split(_ token: String, fail: (String) -> UsageError) throws -> (String, String?) {
        if token.hasPrefix("--") {
            let body = token.dropFirst(2)
            guard !body.isEmpty else { throw fail("Unknown option '\(token)'") }
            if let equals = body.firstIndex(of: "=") {
                return (String(body[..<equals]), String(body[body.index(after: equals)...]))
            }
            return (String(body), nil)
        }
        guard token.count == 2 else { throw fail("Unknown option '\(token)'") }
        return (String(token.dropFirst()), nil)
    }

    static func looksLikeOption(_ token: String) -> Bool {
        token.hasPrefix("-") && token != "-" && !isNegativeValue(token)
    }

    /// `-300` (a refund) or `-3d` (three days ago): values, not options.
    static func isNegativeValue(_ token: String) -> Bool {
        guard token.count > 1, token.hasPrefix("-") else { return false }
        let body = token.dropFirst()
        return Double(body) != nil
            || (body.count > 1 && body.last == "d" && body.dropLast().allSatisfy(\.isASCII)
                && Int(body.dropLast()) != nil)
    }

    static func check(_ value: String, _ kind: ValueKind, label: String, fail: (String) -> UsageError) throws -> String
    {
        let invalid = "The value '\(value)' is invalid for '\(label)'"
        switch kind {
        case .text, .path, .suggest, .suggestOrPath:
            if value.isEmpty { throw fail("\(invalid): it is empty") }
        case .integer(let range):
            guard let number = Int(value), range.contains(number) else {
                let lower = range.lowerBound == Int.min ? "" : " from \(range.lowerBound)"
                let upper = range.upperBound == Int.max ? "" : " to \(range.upperBound)"
                throw fail("\(invalid): expected a whole number\(lower)\(upper)")
            }
            return String(number)
        case .year:
            guard value.count == 4, value.allSatisfy({ ("0"..."9").contains($0) }), let number = Int(value), number >= 1
            else {
                throw fail("\(invalid): expected a four-digit year such as 2024")
            }
        case .seconds:
            guard let seconds = Double(value), seconds > 0, seconds <= 86_400 else {
                throw fail("\(invalid): expected a number of seconds above 0 and at most 86400")
            }
        case .choice(let words):
            guard words.contains(value) else {
                throw fail(
                    "\(invalid): expected one of \(words.joined(separator: ", "))"
                        + Suggestion.didYouMean(value, among: words))
            }
        }
        return value
    }
}
