/// `completion bash|zsh|fish`: a completion script generated from the command tree.
struct CompletionCommand: ParsableCommand {
    @Arg("shell", kind: .choice(Shell.allCases.map(\.rawValue)), help: "The shell to complete in.") var shellName:
        String

    static let about = CommandAbout(
        name: "completion",
        abstract: "Print a completion script for bash, zsh or fish.",
        discussion: """
            The script is generated from the same declarations as the parser and this help, so it completes \
            exactly the commands, options and values the tool accepts. Print it again after an upgrade.

            INSTALL:
              bash  expense-log completion bash > ~/.local/share/bash-completion/completions/expense-log
                    (with the bash-completion package), or add to ~/.bashrc:
                    source <(expense-log completion bash)
              zsh   expense-log completion zsh > ~/.zfunc/_expense-log
                    and add to ~/.zshrc, before compinit runs: fpath=(~/.zfunc $fpath)
                    (or, after compinit: source <(expense-log completion zsh))
              fish  expense-log completion fish > ~/.config/fish/completions/expense-log.fish
            """)

    func run(_ context: Context) async throws -> ExitCode {
        // The parser has checked the word against the same list.
        guard let shell = Shell(rawValue: shellName) else {
            throw UsageError(path: context.invocation.path, message: "Missing expected argument '<shell>'")
        }
        let scripts = CompletionScript(
            toolName: ExpenseLogCommand.helpFormatter.toolName, parser: ExpenseLogCommand.parser)
        context.io.stdout.write(scripts.script(for: shell))
        return .success
    }
}
