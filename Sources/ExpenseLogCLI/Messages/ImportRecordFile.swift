import ExpenseLogImport
import ExpenseLogUseCases
import Foundation

/// How every `register` run ends: the report's summary on stderr, the JSON report file, then the exit code.
struct ImportRecordFile {
    /// `--record FILE`.
    let file: String?
    let context: Context
    let progress: ProgressLine
    /// Whether the report's one-line summary is said (not for `add`'s one item, whose fate was just said in words).
    let summarizes: Bool

    /// The ending of a run writing its report to `file` (none when nil).
    init(file: String?, context: Context, progress: ProgressLine, summarizes: Bool = true) {
        (self.file, self.context, self.progress, self.summarizes) = (file, context, progress, summarizes)
    }

    /// Says the report's summary and writes the report file; returns the run's code (74 when the file could not be
    /// written and the run had succeeded).
    func finish(_ report: ImportRecord, code: ExitCode, of outcome: RegisterOutcome? = nil) -> ExitCode {
        progress.clear()
        let summary =
            !summarizes || report.isEmpty && code != .success
            ? nil
            : context.say("Rows: \(report.summary).", ja: "結果: \(report.japaneseSummary)。")
        if let path = file {
            do {
                // A document at a path the person chose (as a report page is): the usual mode, not the store's.
                try DocumentFile.save(to: URL(fileURLWithPath: path)) { emit in
                    try report.write(exitCode: code.rawValue, spool: outcome?.items, to: emit)
                }
            } catch {
                context.io.stderr.write(
                    context.say("Error: the report could not be written to \(path): ", ja: "エラー: 結果を \(path) に書けません: ")
                        + context.describe(error) + "\n")
                if let summary { context.note(summary) }
                return code == .success ? .ioError : code
            }
        }
        if let summary { context.note(summary + (file.map { " Every row is in \($0)." } ?? "")) }
        return code
    }
}
