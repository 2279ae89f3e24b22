import ExpenseLogCLI
import Foundation
import Testing

/// Runs zsh's and fish's own completion on a command line, with the printed script installed as a user would.
extension CLICompletionTests {
    /// Whether the tests that run zsh and fish on their own scripts run: with both installed, or under CI (`CI=true`),
    /// where a missing one fails them; elsewhere they are disabled with the reason shown in the results.
    static let shellsToRun =
        ProcessInfo.processInfo.environment["CI"] == "true" || (installed("zsh") != nil && installed("fish") != nil)

    /// Why those tests are disabled, as the results show it.
    static let shellsMissing = Comment(
        rawValue: "zsh or fish is not installed, so the completion scripts are not run by the "
            + "shells themselves: make test-deps installs them (apt-get or Homebrew)")

    /// The shell that runs its own script; a missing one (only possible under CI, see `shellsToRun`) fails the test.
    static func checkingShell(_ shell: Shell, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL? {
        if let found = installed(shell.rawValue) { return found }
        Issue.record(
            Comment(
                rawValue: "\(shell) is not installed, so the \(shell) completion script was not run by \(shell) "
                    + "itself; make test-deps installs it"), sourceLocation: sourceLocation)
        return nil
    }

    /// What fish offers for a command line (the word under the cursor last), through `complete -C`.
    static func fishComplete(
        _ fish: URL, _ script: String, _ words: [String], in folder: TemporaryDirectory
    ) throws -> [String] {
        let file = try folder.write(".completion.fish", script)
        let line = (["expense-log"] + words).joined(separator: " ")
        let result = try runShell(
            fish, ["--no-config", "-c", "source $argv[1]; and complete -C $argv[2]", file, line], in: folder.url)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(line): \(result.stderr)")
        // Each candidate comes with its description after a tab.
        return result.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
    }

    /// What zsh's completion system offers for a command line (the word under the cursor last), with the script in
    /// `fpath` as `_expense-log` and `compinit` run, as in a user's `.zshrc`.
    ///
    /// Completion widgets run only in an interactive line editor, so an interactive zsh is driven through a
    /// pseudo-terminal (zsh/zpty) and Tab pressed there; `compadd` is wrapped to print each candidate it adds.
    static func zshComplete(
        _ zsh: URL, _ script: String, _ words: [String], in folder: TemporaryDirectory
    ) throws -> [String] {
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent(".zfunc"), withIntermediateDirectories: true)
        try folder.write(".zfunc/_expense-log", script)
        try folder.write(".capture.zsh", zshCapture)
        let driver = try folder.write(".drive.zsh", zshDriver)
        let line = (["expense-log"] + words).joined(separator: " ")
        let result = try runShell(zsh, ["-f", driver, line], in: folder.url)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(line): \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// Sourced by the interactive zsh (its HOME is the test's folder): loads the script, prints the candidates.
    static let zshCapture = #"""
        PROMPT=
        fpath=($HOME/.zfunc $fpath)
        autoload -Uz compinit && compinit -u -d $HOME/.zcompdump
        bindkey '^I' complete-word
        zstyle ':completion:*' insert-tab false
        started() { print; print -r -- '<<START>>' }
        finished() { print -r -- '<<DONE>>' }
        compprefuncs=(started)
        comppostfuncs=(finished exit)
        compadd() {
            # -O, -A and -D fill arrays for the completion functions themselves: those are not candidates.
            if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
            local -a hits
            builtin compadd -A hits "$@"
            local hit
            for hit in $hits; do print -r -- "HIT:$hit"; done
        }
        print -r -- '<<READY>>'
        """#

    /// Starts the interactive zsh, types `$1` and Tab, and prints the candidates; gives up after 20 s.
    static let zshDriver = #"""
        zmodload zsh/zpty zsh/zselect || exit 3
        zpty z zsh -f -i || exit 4
        zpty -w z 'source ~/.capture.zsh'
        local line phase=setup
        integer deadline=$(( SECONDS + 20 ))
        while (( SECONDS < deadline )); do
            if ! zpty -r -t z line; then zselect -t 2; continue; fi
            line=${line%$'\n'}
            line=${line%$'\r'}
            case $phase:$line in
                setup:*'<<READY>>'*) phase=typed; zpty -w -n z "$1"$'\t' ;;
                typed:*'<<START>>') phase=completing ;;
                completing:HIT:*) print -r -- ${line#HIT:} ;;
                completing:'<<DONE>>') zpty -d z; exit 0 ;;
            esac
        done
        print -u2 "zsh offered no completion within 20 s (stuck at: $phase)"
        zpty -d z
        exit 5
        """#
}
