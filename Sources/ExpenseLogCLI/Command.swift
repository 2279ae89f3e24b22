/// One command of the tool: its declaration and what runs it. The tree of these types is the command tree: the parser
/// reads its declarations (help, usage errors and completions come from them), and a parsed command line runs the type
/// whose declaration it matched.
protocol Command {
    /// The declaration: name, help, options, arguments, and the subcommands' declarations.
    static var spec: CommandSpec { get }
    /// Its subcommands, each a command of its own (`cache list`).
    static var subcommands: [any Command.Type] { get }
    /// Runs it with the values the parser checked.
    static func run(_ invocation: Invocation, _ context: Context) async throws
}

/// A command that only groups its subcommands (`cache`): the parser answers it alone with help or a usage error.
protocol CommandGroup: Command {}

extension CommandGroup {
    /// Never reached: the parser does not run a group; said as a usage error all the same.
    static func run(_ invocation: Invocation, _ context: Context) async throws {
        throw UsageError(path: invocation.path, message: "'\(spec.name)' cannot be run; see --help")
    }
}

extension Command {
    static var subcommands: [any Command.Type] { [] }

    /// The command the words of `path` name below this one (itself for none).
    static func command(at path: ArraySlice<String>) -> (any Command.Type)? {
        guard let word = path.first else { return self }
        return subcommands.first { $0.spec.names.contains(word) }?.command(at: path.dropFirst())
    }
}
