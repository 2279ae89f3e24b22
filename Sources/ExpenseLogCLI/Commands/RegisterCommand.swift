import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// `register`: read and validate every input row, skip what the server already has, POST the rest in batches, report.
struct RegisterCommand: ParsableCommand {
    @Opt(choice: "input-format", "format", help: "The input format when a file's extension does not tell it.")
    var inputFormat: InputFormat?
    @Opt(
        Option(
            .value(
                "encoding", "encoding", .choice(TextEncoding.names),
                help: "The text encoding of the inputs (default: detected; cp932 is shift_jis)."),
            decode: TextEncoding.init(name:)))
    var encoding: TextEncoding?
    @Opt(
        "profile", "name-or-file", .suggestOrPath(ImportProfile.builtinSources.keys.sorted()),
        help: "An import profile for a foreign CSV layout: a JSON file, or a built-in name (moneyforward).")
    var profile: String?
    @Opt(
        choice: "transfers", "mode",
        help: "Money moved between your own accounts (a card's bill, a top-up, cash from an ATM): "
            + "skip (the default: the card's or wallet's own statement has the purchases) or keep (import it as spending)."
    )
    var transfers: TransferRows?
    @Opt(
        "account", "name", .text,
        help: "The card or account the inputs are of (default: the profile's name): part of each row's made id, "
            + "so two cards' identical purchases are two items.") var account: String?
    @Opt(
        "payer", short: "p", "name",
        help: "Who paid the inputs' rows (a card belongs to one person; default: the profile's payer, else none: the "
            + "household's). Kept by the bundled script only.") var payer: String?
    @Flg("skip-invalid", help: "Send the valid rows even when others are invalid (still exits 65); --on-invalid skip.")
    var skipInvalid: Bool
    @Opt(
        choice: "on-invalid", "mode",
        help: "What invalid rows do: stop (send nothing, exit 65; the default), skip (send the "
            + "valid rows, exit 65) or warn (send the valid rows, warn, exit 0).") var onInvalid: InvalidRows?
    @Flg(
        "allow-duplicates",
        help: "Send statement rows that match items already there (only an id already there is skipped).")
    var allowDuplicates: Bool
    @Opt(
        choice: "ambiguous", "decision",
        help: "What a row that may be an item already there becomes: ask (the default on a "
            + "terminal), hold (list it, send nothing for it, exit 4; the default elsewhere), new, same or skip.")
    var ambiguous: AmbiguousRows?
    @Flg("review", help: "Ask about each row that may be an item already there (--ambiguous ask); needs a terminal.")
    var review: Bool
    @Opt(
        Option(
            "match-days", "days", .integer(0...31), default: StatementMatcher.defaultWindow,
            help: "How many days a statement row's date may be from the item it matches.")) var matchDays: Int?
    @Flg("explain", help: "Say which existing item each skipped row matched, and why.") var explain: Bool
    @Opt(
        "record", "file", .path,
        help:
            "Write the record of every row (its file, line and fate) to a file as JSON (--report, its old name, works too)."
    )
    var record: String?
    @Flg(RegisterCommand.dryRun) var dryRun: Bool
    @Opt(
        Option(
            "batch-size", "n", .integer(1...10_000), default: BatchLimit.defaultItems,
            help: "Items per POST request at most (a batch also ends at about 512 KiB of body).")) var batchSize: Int?
    @Opt(CommonOptions.format) var format: OutputFormat?
    @Arg(variadic: "file", help: "Files to read; - reads standard input.") var files: [String]

    /// `--dry-run`, which `add` takes too.
    static let dryRun = Flag(
        "dry-run", short: "n", help: "Validate, compare and print what would be sent; send nothing.")

    static let about = CommandAbout(
        name: "register",
        aliases: ["import"],
        abstract: "Register items from JSON, NDJSON or CSV files (- for stdin).",
        discussion: """
            Every row is checked before anything is sent: when any is invalid, each problem is listed as \
            FILE:LINE: field: message and nothing is sent (exit 65); --on-invalid skip (--skip-invalid) sends \
            the valid rows and still exits 65, --on-invalid warn sends them and exits 0. The format comes from \
            the extension (.json, .ndjson/.jsonl, .csv), else --input-format, else the content. Text is UTF-8 \
            (with or without BOM) or Shift_JIS, detected unless --encoding says. CSV headers may be the wire \
            keys or the sheet's ID,日付,品名,金額,項目,サブ項目 (other columns are ignored with a warning); \
            other layouts need --profile (built in: \(ImportProfile.builtinSources.keys.sorted().joined(separator: ", ")); \
            `expense-log profile init FILE` starts one). Dates may be \(DateText.forms), a time after them \
            ignored; empty rows are skipped.

            A CSV row without an id gets one made from its date, name, price and place among such rows of its \
            file (a version 5 UUID; see docs/register.md), so importing an overlapping statement again skips by id \
            what is already there; a JSON item without one gets a random id. Before sending, each row is \
            compared with its month on the server (fetched afresh, the cache only when the server cannot \
            answer) and with the outbox: a row whose id is there is skipped. A statement row (a CSV row \
            without an id, or any row read through a profile, given or recognised) that is the same purchase as an \
            item a person typed (the same amount, at most --match-days days apart, a related name: まいばすけっと and \
            まいばすけっと 中目黒1丁目店) is matched and not sent; one that may be (two equal candidates, or the \
            same amount and day under another name) is asked about on a terminal, and elsewhere held back and \
            listed, with exit status 4 (--ambiguous decides them all). Decisions are kept, so importing an \
            overlapping statement again decides the same way (docs/reconcile.md). The fate of every row ends \
            the run on stderr (Rows: …); --record FILE writes each row's as JSON. Valid rows wait in an unlinked temporary file in \
            $TMPDIR, not in memory, so a large import needs little of it.

            EXAMPLES:
              expense-log register items.csv
              expense-log import --profile moneyforward --record rows.json 収入・支出詳細_2024-01.csv
              expense-log import --profile bank.json --on-invalid warn statement.csv    # for cron
              expense-log import card.csv --ambiguous new    # a script: send every row it cannot decide
              expense-log fetch --year 2024 --month 1 --format json | expense-log register --dry-run -
              echo '{"date":"20240122","name":"コーヒー","price":178,"category":0,"categorySub":1}' | expense-log register -
            """)

    func run(_ context: Context) async throws -> ExitCode {
        try await Self.run(RegisterOptions(self, context), context)
    }
}
