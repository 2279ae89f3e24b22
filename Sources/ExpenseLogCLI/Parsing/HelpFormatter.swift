import Foundation

/// Renders help and usage from the declarations, in swift-argument-parser's layout.
public struct HelpFormatter: Sendable {
    /// The tool's name as typed.
    public let toolName: String
    /// The parser whose tree is described.
    public let parser: Parser

    /// A renderer for a parser's tree under the tool's name.
    public init(toolName: String, parser: Parser) {
        self.toolName = toolName
        self.parser = parser
    }

    static let labelWidth = 26
    static let lineWidth = 80

    /// The one-line usage of a command.
    public func usage(_ path: [String]) -> String {
        let spec = parser.spec(at: path)
        var words = [([toolName] + path).joined(separator: " ")]
        if spec.isGroup {
            words.append(path.isEmpty ? "[<options>] <subcommand>" : "<subcommand>")
            return words.joined(separator: " ")
        }
        for option in spec.options {
            words.append(option.isRequired ? option.label : "[\(option.label)]")
        }
        words.append(contentsOf: spec.arguments.map { $0.isOptional ? "[\($0.label)]" : $0.label })
        if spec.runsAlone { words.append("[<subcommand>]") }
        return words.joined(separator: " ")
    }

    /// The full help of a command: overview, usage, examples, the rest of the discussion, arguments, its own options,
    /// then the global options under a heading of their own (as gh's INHERITED FLAGS), and subcommands.
    public func help(_ path: [String]) -> String {
        let spec = parser.spec(at: path)
        var out = "OVERVIEW: \(spec.abstract)\n"
        out += "\nUSAGE: \(usage(path))\n"
        let parts = spec.discussion.components(separatedBy: "EXAMPLES:")
        if parts.count == 2 { out += "\nEXAMPLES:" + parts[1].trimmingTrailingNewlines() + "\n" }
        let prose = parts[0].trimmingTrailingNewlines()
        if !prose.isEmpty {
            // Indented lines keep their layout; prose is wrapped like the option help.
            let lines = prose.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
                line.hasPrefix(" ") || line.isEmpty ? [String(line)] : wrap(String(line), width: Self.lineWidth)
            }
            out += "\n" + lines.joined(separator: "\n") + "\n"
        }
        if !spec.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for argument in spec.arguments {
                var help = argument.help
                if case .choice(let words) = argument.kind { help += " (values: \(words.joined(separator: ", ")))" }
                out += row(argument.label, help)
            }
        }
        out += "\nOPTIONS:\n" + spec.options.map(optionRow).joined() + Parser.builtInFlags.map(optionRow).joined()
        if !spec.isGroup || path.isEmpty { out += "\nGLOBAL OPTIONS:\n" + parser.globals.map(optionRow).joined() }
        if !spec.subcommands.isEmpty {
            out += "\nSUBCOMMANDS:\n"
            // swift-argument-parser lists aliases after the name: `register, import`.
            for sub in spec.subcommands { out += row(sub.names.joined(separator: ", "), sub.abstract) }
            out += "\n  See '\(toolName) help <subcommand>' for detailed help.\n"
        }
        return out
    }

    private func optionRow(_ option: OptionSpec) -> String {
        var help = option.help
        if case .choice(let words) = option.kind { help += " (values: \(words.joined(separator: ", ")))" }
        if let fallback = option.defaultValue { help += " (default: \(fallback))" }
        return row((option.short.map { "-\($0), " } ?? "") + option.label, help)
    }

    /// A usage error as printed on stderr.
    public func usageError(_ error: UsageError) -> String {
        let command = error.path.isEmpty ? "<command>" : error.path.joined(separator: " ")
        return
            "Error: \(error.message)\nUsage: \(usage(error.path))\n  See '\(toolName) help \(command)' for more information.\n"
    }

    private func row(_ label: String, _ help: String) -> String {
        let indent = String(repeating: " ", count: Self.labelWidth)
        let lines = wrap(help, width: Self.lineWidth - Self.labelWidth)
        var out = "  " + label
        if label.count + 2 >= Self.labelWidth - 1 {
            out += "\n" + indent
        } else {
            out += String(repeating: " ", count: Self.labelWidth - 2 - label.count)
        }
        out += lines.joined(separator: "\n" + indent) + "\n"
        return out
    }

    private func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty, current.count + 1 + word.count > width {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }
}

extension String {
    /// Without the line breaks (and spaces) it ends with.
    func trimmingTrailingNewlines() -> String {
        var text = Substring(self)
        while let last = text.last, last == "\n" || last == " " { text = text.dropLast() }
        return String(text)
    }
}
