import Foundation

/// The manual page, `expense-log.1`, in roff's man macros, from the same declarations as the parser, the help and the
/// completion scripts: every command's synopsis, abstract, discussion, arguments and options, then the exit codes.
public struct ManPage: Sendable {
    /// The parser whose tree is described.
    public let parser: Parser
    /// The tool's name as typed.
    public let toolName: String
    /// The version the page describes.
    public let version: String
    /// The date on the page's footer, `yyyy-MM-dd`.
    public let date: String
    /// The exit codes and what each means, in the order shown.
    public let exitCodes: [(code: Int32, meaning: String)]

    /// A page for a parser's tree.
    public init(
        parser: Parser, toolName: String, version: String, date: String, exitCodes: [(code: Int32, meaning: String)]
    ) {
        (self.parser, self.toolName, self.version, self.date, self.exitCodes) = (
            parser, toolName, version, date, exitCodes
        )
    }

    /// The whole page.
    public func render() -> String {
        let root = parser.root
        var page = ".TH \(toolName.uppercased()) 1 \"\(date)\" \"\(toolName) \(version)\" \"User Commands\"\n"
        page += ".SH NAME\n\(Self.escape(toolName)) \\- \(Self.escape(root.abstract))\n"
        page +=
            ".SH SYNOPSIS\n.B \(Self.escape(toolName))\n[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]\n"
        page += ".SH DESCRIPTION\n" + Self.paragraphs(root.discussion)
        page +=
            ".SH GLOBAL OPTIONS\nAccepted before or after the command's name.\n"
            + parser.globals.map(Self.option).joined()
        page += ".SH COMMANDS\n"
        for command in root.subcommands { page += section(command, path: [command.name]) }
        page += ".SH EXIT STATUS\n" + exitCodes.map { ".TP\n.B \($0.code)\n\(Self.escape($0.meaning))\n" }.joined()
        page +=
            ".SH SEE ALSO\n\\fB\(Self.escape(toolName)) help\\fR \\fIcommand\\fR, and the README and docs/ of the source distribution.\n"
        return page
    }

    /// One command's part, and its subcommands' after it.
    private func section(_ command: CommandSpec, path: [String]) -> String {
        let usage = HelpFormatter(toolName: toolName, parser: parser).usage(path)
        var text =
            ".SS \(Self.escape(path.joined(separator: " ")))"
            + (command.aliases.isEmpty ? "" : " (also \(Self.escape(command.aliases.joined(separator: ", "))))") + "\n"
        text += ".B \(Self.escape(usage))\n.PP\n\(Self.escape(command.abstract))\n"
        if !command.discussion.isEmpty { text += Self.paragraphs(command.discussion) }
        for argument in command.arguments {
            text += ".TP\n.I \(Self.escape(argument.label))\n\(Self.escape(argument.help))\n"
        }
        text += command.options.map(Self.option).joined()
        for sub in command.subcommands { text += section(sub, path: path + [sub.name]) }
        return text
    }

    /// An option as a tagged paragraph: its names, its value, then its help with its values and default.
    private static func option(_ option: OptionSpec) -> String {
        var names = (option.short.map { "\\fB\\-\($0)\\fR, " } ?? "") + "\\fB\\-\\-\(escape(option.name))\\fR"
        if let value = option.valueName { names += " \\fI<\(escape(value))>\\fR" }
        var help = option.help
        if case .choice(let words) = option.kind { help += " (values: \(words.joined(separator: ", ")))" }
        if let fallback = option.defaultValue { help += " (default: \(fallback))" }
        return ".TP\n\(names)\n\(escape(help))\n"
    }

    /// Help text as paragraphs, keeping indented lines (examples) as they are.
    private static func paragraphs(_ text: String) -> String {
        var out = ".PP\n"
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                out += ".PP\n"
            } else if line.hasPrefix(" ") {
                out += ".nf\n\(escape(String(line)))\n.fi\n"
            } else {
                out += escape(String(line)) + "\n"
            }
        }
        return out
    }

    /// Text as roff reads it literally: backslashes and hyphens escaped, and a line that would start with a request
    /// (`.` or `'`) guarded.
    static func escape(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
