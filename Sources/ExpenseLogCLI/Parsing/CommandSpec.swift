/// How an option's value is checked before any command runs.
public enum ValueKind: Sendable, Equatable {
    /// Any text.
    case text
    /// A file or folder path.
    case path
    /// A whole number within a range.
    case integer(ClosedRange<Int>)
    /// A four-digit year.
    case year
    /// Positive seconds, fractions allowed.
    case seconds
    /// One of a fixed set of words.
    case choice([String])
    /// Any text; completion offers these words (category names).
    case suggest([String])
    /// A name or a path; completion offers these words and the files (built-in profiles, or a profile file).
    case suggestOrPath([String])
}

/// One option, declared once: parsing, help, usage lines and errors all come from this.
public struct OptionSpec: Sendable, Equatable {
    /// The long name without dashes (`year` for `--year`).
    public let name: String
    /// A one-letter alias (`h` for `-h`).
    public let short: Character?
    /// The placeholder in help (`<year>`), or nil for a flag that takes no value.
    public let valueName: String?
    /// The check applied to the value.
    public let kind: ValueKind
    /// Whether the command cannot run without it.
    public let isRequired: Bool
    /// The default, shown in help.
    public let defaultValue: String?
    /// One line of help.
    public let help: String

    /// An option that takes a value.
    public static func value(
        _ name: String, short: Character? = nil, _ valueName: String, _ kind: ValueKind = .text,
        required: Bool = false, default defaultValue: String? = nil, help: String
    ) -> OptionSpec {
        OptionSpec(
            name: name, short: short, valueName: valueName, kind: kind, isRequired: required,
            defaultValue: defaultValue, help: help)
    }

    /// A flag that takes no value.
    public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(
            name: name, short: short, valueName: nil, kind: .text, isRequired: false, defaultValue: nil, help: help)
    }

    /// `--year <year>` or `--verbose`.
    var label: String { "--\(name)" + (valueName.map { " <\($0)>" } ?? "") }
}

/// One positional argument.
public struct ArgumentSpec: Sendable, Equatable {
    /// The placeholder name (`file`).
    public let name: String
    /// Whether it may be repeated.
    public let isVariadic: Bool
    /// Whether it may be left out.
    public let isOptional: Bool
    /// The check applied to each value; completion scripts offer `.choice` words and complete paths otherwise.
    public let kind: ValueKind
    /// One line of help.
    public let help: String

    /// A positional argument.
    public init(_ name: String, kind: ValueKind = .text, variadic: Bool = false, optional: Bool = false, help: String) {
        self.name = name
        self.kind = kind
        self.isVariadic = variadic
        self.isOptional = optional
        self.help = help
    }

    var label: String { "<\(name)>" + (isVariadic ? " ..." : "") }
}

/// A command, declared once: name, help, options, arguments, and subcommands for a group. What runs it is the
/// `Command` type that holds it, outside `Parsing`, so parsing knows nothing of the commands' context.
public struct CommandSpec: Sendable {
    /// The word typed on the command line.
    public let name: String
    /// Other words that run the same command; the invocation's path always holds `name`.
    public let aliases: [String]
    /// One line for the command list and `OVERVIEW:`.
    public let abstract: String
    /// More text for the command's own help (examples, notes).
    public let discussion: String
    /// The command's own options (global options are added by the parser).
    public let options: [OptionSpec]
    /// Its positional arguments.
    public let arguments: [ArgumentSpec]
    /// Its subcommands, for a group such as `cache`.
    public let subcommands: [CommandSpec]
    /// Whether it also runs with no subcommand (`pending` lists; `pending drop` removes).
    public let runsAlone: Bool

    /// A command or group.
    public init(
        name: String, aliases: [String] = [], abstract: String, discussion: String = "", options: [OptionSpec] = [],
        arguments: [ArgumentSpec] = [], subcommands: [CommandSpec] = [], runsAlone: Bool = false
    ) {
        self.name = name
        self.aliases = aliases
        self.abstract = abstract
        self.discussion = discussion
        self.options = options
        self.arguments = arguments
        self.subcommands = subcommands
        self.runsAlone = runsAlone
    }

    /// Whether it only groups subcommands (`cache`), rather than running.
    public var isGroup: Bool { !subcommands.isEmpty && !runsAlone }

    /// The subcommand a word names, by its name or one of its aliases.
    func subcommand(_ word: String) -> CommandSpec? {
        subcommands.first { $0.name == word || $0.aliases.contains(word) }
    }

    /// The words that name it: the name, then the aliases.
    var names: [String] { [name] + aliases }
}
