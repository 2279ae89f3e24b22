/// One command of the tool: its declaration and what runs it. The tree of these types is the command tree: the parser
/// reads its declarations (help, usage errors and completions come from them), and a parsed command line runs the type
/// whose declaration it matched.
protocol Command {
    /// The declaration: name, help, options, arguments, and the subcommands' declarations.
    static var spec: CommandSpec { get }
    /// Its name and help alone.
    static var about: CommandAbout { get }
    /// Its subcommands, each a command of its own (`cache list`).
    static var subcommands: [any Command.Type] { get }
    /// Runs it with the values the parser checked; returns the exit code of what it did (a failure is thrown).
    static func run(_ invocation: Invocation, _ context: Context) async throws -> ExitCode
}

/// A command that only groups its subcommands (`cache`): the parser answers it alone with help or a usage error.
protocol CommandGroup: Command {}

extension CommandGroup {
    /// The declaration: its name and help, and its subcommands'.
    static var spec: CommandSpec {
        CommandSpec(
            name: about.name, aliases: about.aliases, abstract: about.abstract, discussion: about.discussion,
            subcommands: subcommands.map { $0.spec }, runsAlone: about.runsAlone)
    }

    /// Never reached: the parser does not run a group; said as a usage error all the same.
    static func run(_ invocation: Invocation, _ context: Context) async throws -> ExitCode {
        throw UsageError(path: invocation.path, message: "'\(spec.name)' cannot be run; see --help")
    }
}

extension Command {
    static var subcommands: [any Command.Type] { [] }

    /// The words that name it.
    static var names: [String] { [about.name] + about.aliases }

    /// What the list of commands shows of it (its names and abstract), made without reading its options: a command
    /// line declares in full only the commands it names, so that start-up does not reflect on every command.
    static var summary: CommandSpec { CommandSpec(name: about.name, aliases: about.aliases, abstract: about.abstract) }

    /// The command the words of `path` name below this one (itself for none).
    static func command(at path: ArraySlice<String>) -> (any Command.Type)? {
        guard let word = path.first else { return self }
        return subcommands.first { $0.names.contains(word) }?.command(at: path.dropFirst())
    }
}

/// A command declared once, as a value: its options and arguments are its stored properties (`@Opt`, `@Flg`, `@Arg`),
/// from which help, usage errors and completions are made, and which hold their values when it runs.
protocol ParsableCommand: Command {
    /// The command with every property at its default (for its declaration), or read from `Invocation.decoding`.
    init()
    /// Runs it with its properties as the command line gave them; returns the exit code of what it did.
    func run(_ context: Context) async throws -> ExitCode
}

extension ParsableCommand {
    /// The declaration, read from the properties in the order they are declared.
    static var spec: CommandSpec {
        let parameters = Mirror(reflecting: Self()).children.compactMap { $0.value as? any DeclaredParameter }
        return CommandSpec(
            name: about.name, aliases: about.aliases, abstract: about.abstract, discussion: about.discussion,
            options: parameters.compactMap(\.optionSpec), arguments: parameters.compactMap(\.argumentSpec),
            subcommands: subcommands.map { $0.spec }, runsAlone: about.runsAlone)
    }

    /// Makes the command from the invocation's values and runs it.
    static func run(_ invocation: Invocation, _ context: Context) async throws -> ExitCode {
        try await Invocation.$decoding.withValue(invocation) { Self() }.run(context)
    }
}
