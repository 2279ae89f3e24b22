import Foundation

/// A shell the tool prints a completion script for.
public enum Shell: String, CaseIterable, Sendable {
    /// GNU bash, through `complete -F`.
    case bash
    /// zsh, through `compdef` and `_arguments`.
    case zsh
    /// fish, through `complete -c`.
    case fish
}

/// Completion scripts generated from the parser's declarations, so they offer exactly what the parser accepts.
public struct CompletionScript: Sendable {
    /// The tool's name as typed.
    public let toolName: String
    /// The parser whose command tree and global options are completed.
    public let parser: Parser

    /// A generator for a parser's tree under the tool's name.
    public init(toolName: String, parser: Parser) {
        self.toolName = toolName
        self.parser = parser
    }

    /// The script for a shell.
    public func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash()
        case .zsh: zsh()
        case .fish: fish()
        }
    }

    /// Every command of the tree with its canonical path, the tool itself first and each group before its subcommands.
    var nodes: [CompletionNode] {
        func walk(_ spec: CommandSpec, _ path: [String]) -> [CompletionNode] {
            [CompletionNode(path: path, spec: spec)] + spec.subcommands.flatMap { walk($0, path + [$0.name]) }
        }
        return walk(parser.root, [])
    }

    /// What the parser accepts at a command: its own options, the global ones, then `--version` and `--help`.
    func options(of spec: CommandSpec) -> [OptionSpec] { spec.options + parser.globals + Parser.builtInFlags }

    /// The words an option is typed as: `--format`, and `-h` when it has a short name.
    func words(of option: OptionSpec) -> [String] { ["--\(option.name)"] + (option.short.map { ["-\($0)"] } ?? []) }

    /// Whether a node is the `help` command, whose words the parser reads as a command path rather than as arguments.
    func isHelp(_ node: CompletionNode) -> Bool { node.path == [Parser.helpWord] }

    /// Names usable in shell function names: `expense-log` becomes `expense_log`.
    func identifier(_ words: [String]) -> String {
        words.map { String($0.map { $0.isLetter || $0.isNumber ? $0 : "_" }) }.joined(separator: "_")
    }
}

/// One command of the tree as the scripts see it.
struct CompletionNode {
    /// The canonical command words after the tool's name.
    let path: [String]
    /// Its declaration.
    let spec: CommandSpec

    /// The path as one string, the key the scripts use (`"cache list"`, `""` for the tool).
    var key: String { path.joined(separator: " ") }
}

/// What a shell offers for a value.
enum CompletionAction: Equatable {
    /// Nothing to offer (a number, a URL).
    case none
    /// One of these words.
    case words([String])
    /// File and folder paths.
    case files
    /// These words and file and folder paths.
    case wordsAndFiles([String])

    /// The completion of an option's value: free text has nothing to offer.
    init(option kind: ValueKind) {
        switch kind {
        case .choice(let words), .suggest(let words): self = .words(words)
        case .suggestOrPath(let words): self = .wordsAndFiles(words)
        case .path: self = .files
        case .text, .integer, .year, .seconds: self = .none
        }
    }

    /// The completion of a positional argument: free text is a file, as in every shell's default.
    init(argument kind: ValueKind) {
        switch kind {
        case .choice(let words), .suggest(let words): self = .words(words)
        case .suggestOrPath(let words): self = .wordsAndFiles(words)
        case .path, .text: self = .files
        case .integer, .year, .seconds: self = .none
        }
    }
}

extension String {
    /// Single-quoted for bash and zsh: a quote inside becomes `'\''`.
    var shellQuoted: String { "'" + replacingOccurrences(of: "'", with: #"'\''"#) + "'" }

    /// Single-quoted for fish, where a backslash escapes a backslash or a quote inside single quotes.
    var fishQuoted: String {
        "'" + replacingOccurrences(of: #"\"#, with: #"\\"#).replacingOccurrences(of: "'", with: #"\'"#) + "'"
    }
}
