import ExpenseLogCLI
import Foundation
import TestSupport
import Testing

/// Completion scripts over a small tree whose help text holds everything a shell reads specially.
@Suite("Completion scripts")
struct CompletionScriptTests {
    static let nasty = #"Don't [ever]: pick \ one."#
    static let parser = Parser(
        root: CommandSpec(
            name: "tool", abstract: "Tool.",
            subcommands: [
                CommandSpec(
                    name: "get", aliases: ["g"], abstract: #"Get it: the 'best' [fast] way."#,
                    options: [
                        .value("mode", "mode", .choice(["a:b", "c"]), help: nasty),
                        .flag("all", short: "a", help: #"All "of" it."#),
                    ], arguments: [ArgumentSpec("file", variadic: true, help: "Files.")]),
                CommandSpec(
                    name: "box", abstract: "A group.",
                    subcommands: [
                        CommandSpec(name: "open", aliases: ["o"], abstract: "Open.")
                    ]),
            ]),
        globals: [.value("dir", "dir", .path, help: "A folder.")])
    static let scripts = CompletionScript(toolName: "tool", parser: parser)

    /// Whether every line's single quotes pair up once the shell's escapes inside and around them are taken out.
    static func quotesBalance(_ script: String, escapes: [String]) -> Bool {
        script.split(separator: "\n").allSatisfy { line in
            let bare = escapes.reduce(String(line)) { $0.replacingOccurrences(of: $1, with: "") }
            return bare.filter { $0 == "'" }.count.isMultiple(of: 2)
        }
    }

    @Test("zsh specs escape quotes, colons, brackets and backslashes, and describe every name and alias")
    func zshEscaping() {
        let zsh = Self.scripts.script(for: .zsh)
        #expect(zsh.hasPrefix("#compdef tool\n"))
        #expect(zsh.contains(#"'--mode=[Don'\''t \[ever\]\: pick \\ one.]:mode:(a\:b c)'"#))
        #expect(zsh.contains(#"'(-a --all)'{-a,--all}'[All "of" it.]'"#))
        #expect(zsh.contains(#"'get:Get it: the '\''best'\'' [fast] way.'"#))
        #expect(zsh.contains(#"'g:Get it: the '\''best'\'' [fast] way.'"#))
        #expect(zsh.contains(#"'--dir=[A folder.]:dir:_files'"#))
        #expect(zsh.contains("'*:file:_files'"))
        #expect(zsh.contains("'get'|'g') _tool_get && ret=0 ;;"))
        #expect(zsh.contains("'o:Open.'"))
        #expect(Self.quotesBalance(zsh, escapes: [#"'\''"#]))
    }

    @Test("fish rules escape quotes and backslashes, and condition on the command path")
    func fishEscaping() {
        let fish = Self.scripts.script(for: .fish)
        #expect(
            fish.contains(
                #"complete -c tool -n '__tool_at "tool get"' -l 'mode' -x -a 'a:b c' -d 'Don\'t [ever]: pick \\ one.'"#)
        )
        #expect(fish.contains(#"complete -c tool -n '__tool_at "tool get"' -s 'a' -l 'all' -d 'All "of" it.'"#))
        #expect(
            fish.contains(#"complete -c tool -n '__tool_at "tool" 0' -a 'g' -d 'Get it: the \'best\' [fast] way.'"#))
        #expect(fish.contains(#"complete -c tool -n '__tool_at "tool box" 0' -a 'o' -d 'Open.'"#))
        #expect(fish.contains(#"complete -c tool -n '__tool_at "tool help box"' -a 'open' -d 'Open.'"#))
        #expect(fish.contains(#"complete -c tool -n '__tool_at "tool get" 0+' -F"#))
        #expect(fish.contains("complete -c tool -l 'dir' -r -F -d 'A folder.'"))
        #expect(Self.quotesBalance(fish, escapes: [#"\\"#, #"\'"#]))
    }

    @Test(
        "bash walks aliases, option values and groups the way the parser does",
        arguments: [
            (["tool", ""], ["box", "g", "get"]),
            (["tool", "g", "--mode", ""], ["a:b", "c"]),
            (["tool", "--dir", "x", "g", "--mode", "=", "c"], ["c"]),  // bash splits --mode=c at its COMP_WORDBREAKS
            (["tool", "get", "-"], ["--all", "--dir", "--help", "--mode", "--version", "-a", "-h"]),
            (["tool", "box", ""], ["o", "open"]),
            (["tool", "help", "box", "o"], ["o", "open"]),
            (["tool", "box", "open", ""], ["--dir", "--help", "--version", "-h"]),
        ])
    func bashWalk(words: [String], expected: [String]) throws {
        let bash = Self.scripts.script(for: .bash)
        #expect(bash.contains("'/get'|'/g') REPLY='get' ;;"))
        #expect(Self.quotesBalance(bash, escapes: [#"'\''"#]))
        #expect(try Self.complete(bash, words).sorted() == expected)
    }

    /// Sources the script in a bare bash and prints COMPREPLY for the words.
    static func complete(_ script: String, _ words: [String]) throws -> [String] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString).bash")
        try Data(script.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let driver =
            #"source "$1" || exit 9; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _tool; printf '%s\n' "${COMPREPLY[@]}""#
        let process = try ChildProcess(
            "/usr/bin/env", ["bash", "--norc", "--noprofile", "-c", driver, "bash", file.path] + words, stdout: .pipe)
        let data = process.output?.readDataToEndOfFile() ?? Data()
        #expect(process.waitBlocking() == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
