/// What the parser found on the command line for one command, with values already checked.
public struct Invocation: Sendable {
    /// The command's words after the tool's name (`["cache", "list"]`).
    public let path: [String]
    /// Values by long option name; the last occurrence wins.
    let values: [String: String]
    /// Flags given.
    let flags: Set<String>
    /// Positional arguments in order.
    public let arguments: [String]
    /// The names of the command's declared positional arguments, in order, so a typed `Argument` finds its place.
    let argumentNames: [String]
    /// The long names of the options given on the command line (not filled in from their defaults).
    let given: Set<String>

    /// An invocation as the parser found it.
    init(
        path: [String], values: [String: String], flags: Set<String>, arguments: [String], argumentNames: [String] = [],
        given: Set<String>? = nil
    ) {
        (self.path, self.values, self.flags, self.arguments, self.argumentNames) = (
            path, values, flags, arguments, argumentNames
        )
        self.given = given ?? Set(values.keys)
    }
}

/// A command line the parser rejected; shown with the usage of the command it was for.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command words the error belongs to (empty for the tool itself).
    public let path: [String]
    /// What was wrong, in swift-argument-parser's wording.
    public let message: String

    /// The message shown to the user.
    public var description: String { message }
}

/// What the command line asks for.
public enum ParseResult: Sendable {
    /// Run a command.
    case run(Invocation, CommandSpec)
    /// Print help for a command path.
    case help([String])
    /// Print the version.
    case version
}
