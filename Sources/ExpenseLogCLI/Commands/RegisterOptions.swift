import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// What a registration run is asked to do: `register`'s options checked together, or `add`'s one item.
struct RegisterOptions {
    /// The inputs as given (`-` for standard input), each with the format its extension or `--input-format` gives.
    let paths: [(path: String, format: InputFormat?)]
    let profile: ImportProfile?
    let encoding: TextEncoding?
    /// `--transfers`: whether money moved between one's own accounts is left out (the default) or kept as spending.
    let transfers: TransferRows
    /// `--account`: the card or account the inputs are of, part of their rows' made ids.
    let account: String?
    /// `--payer`: who paid the inputs' rows.
    let payer: String?
    /// What invalid rows do: `--on-invalid`, `--skip-invalid`, else the profile's `onInvalid`, else stop.
    let onInvalid: InvalidRows
    let allowDuplicates: Bool
    /// What rows that may be items already there become: `--ambiguous` (`--review` is `ask`); nil: ask on a terminal, else hold.
    let ambiguous: AmbiguousRows?
    /// `--match-days`.
    let matchDays: Int
    /// The options that read the inputs as this run did (`--profile`, `--encoding`…), to repeat in a suggested command.
    private(set) var rereading: [String] = []
    let explain: Bool
    let recordFile: String?
    let dryRun: Bool
    let limit: BatchLimit
    let format: OutputFormat
    /// An item made on the command line (`add`), registered instead of files.
    private(set) var adding: ItemDraft?
    /// The fixed costs' occurrences `recurring post` registers, each with its own id, instead of files.
    private(set) var posting: [ItemDraft] = []
    /// The fixed costs' rules `recurring post` read; nil: a run of files reads them itself.
    private(set) var rules: [RecurringRule]?
    /// Whether a server that cannot be reached is given up at once, the items waiting in the journal (`add`, `recurring
    /// post`: a cron job or a person on a train).
    var queuesUnreachable: Bool { adding != nil || !posting.isEmpty }
    /// Whether the command has `--explain` (`register`; not `add` or `recurring post`).
    var hasExplain: Bool { adding == nil && posting.isEmpty }

    /// `register`'s options checked together; two `-`, a file named twice, an unknown profile, a profile over a non-CSV
    /// input, or two options that say one thing differently is a usage error.
    init(_ command: RegisterCommand, _ context: Context) throws {
        let fail = { (message: String) in UsageError(path: context.invocation.path, message: message) }
        let arguments = command.files
        if arguments.filter({ $0 == "-" }).count > 1 { throw fail("Standard input ('-') can be read only once") }
        let named = arguments.filter { $0 != "-" }.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        if let twice = named.first(where: { path in named.filter { $0 == path }.count > 1 }) {
            throw fail("\(twice) is named twice; each file can be registered only once per run")
        }
        paths = arguments.map { ($0, ($0 == "-" ? nil : InputFormat(fileName: $0)) ?? command.inputFormat) }
        profile = try command.profile.map { try ProfileLoader.load($0, for: context.invocation) }
        if profile != nil, let (path, format) = paths.first(where: { $0.format.map { $0 != .csv } ?? false }),
            let format
        {
            throw fail("--profile reads CSV, but \(Self.name(of: path)) is \(format.rawValue)")
        }
        encoding = command.encoding
        transfers = command.transfers ?? .skip
        account = command.account
        payer = command.payer?.trimmingSpaces()
        if let payer, payer.isEmpty { throw fail("--payer needs a name (who paid: 花子)") }
        if let account, account.trimmingSpaces().isEmpty {
            throw fail("--account needs a name (the card or account, e.g. vpass-hanako)")
        }
        if command.skipInvalid, let mode = command.onInvalid, mode != .skip {
            throw fail("--skip-invalid is --on-invalid skip; give one of them")
        }
        onInvalid = command.onInvalid ?? (command.skipInvalid ? .skip : nil) ?? profile?.onInvalid ?? .stop
        (allowDuplicates, explain) = (command.allowDuplicates, command.explain)
        if command.review, let mode = command.ambiguous, mode != .ask {
            throw fail("--review is --ambiguous ask; give one of them")
        }
        ambiguous = command.review ? .ask : command.ambiguous
        matchDays = command.matchDays ?? StatementMatcher.defaultWindow
        if allowDuplicates, ambiguous != nil {
            throw fail("--allow-duplicates turns statement matching off; --review and --ambiguous belong to it")
        }
        // What a later run needs to read the inputs the same way, for the command that decides held rows.
        rereading = [
            ("--profile", command.profile), ("--encoding", command.encoding?.rawValue),
            ("--input-format", command.inputFormat?.rawValue),
            ("--transfers", command.transfers?.rawValue), ("--account", command.account), ("--payer", command.payer),
            ("--match-days", matchDays == StatementMatcher.defaultWindow ? nil : String(matchDays)),
        ]
        .compactMap { name, value in value.map { [name, $0] } }.flatMap { $0 }
        (recordFile, dryRun) = (command.record, command.dryRun)
        limit = BatchLimit(items: command.batchSize ?? BatchLimit.defaultItems)
        format = command.format ?? .table
    }

    /// One item given on the command line (`add`), registered with the defaults and `format`.
    init(adding draft: ItemDraft, format: OutputFormat, dryRun: Bool) {
        (paths, profile, encoding, adding, transfers, account, payer) = (
            [(draft.location.file, nil)], nil, nil, draft, .skip, nil, nil
        )
        (onInvalid, allowDuplicates, explain, recordFile, self.dryRun) = (.stop, false, false, nil, dryRun)
        (ambiguous, matchDays) = (.hold, StatementMatcher.defaultWindow)
        (limit, self.format) = (BatchLimit(items: BatchLimit.defaultItems), format)
    }

    /// The occurrences `recurring post` registers, compared with the server by their ids.
    init(posting drafts: [ItemDraft], rules: [RecurringRule], format: OutputFormat, dryRun: Bool) {
        self.init(
            adding: ItemDraft(location: SourceLocation(file: "(fixed costs)", line: 1)), format: format, dryRun: dryRun)
        (adding, posting, self.rules) = (nil, drafts, rules)
    }

    /// The name an input is reported under.
    static func name(of path: String) -> String {
        path == "-" ? "<stdin>" : ArgumentBytes.display(path)
    }

    /// What to register: the item `add` made, else every input opened in order (standard input is read whole here); an
    /// unreadable file stops the command (66).
    func input(_ context: Context) throws -> RegistrationInput {
        if let adding { return .typed([adding]) }
        if !posting.isEmpty { return .typed(posting) }
        return .files(
            try sources(context), profile: profile, encoding: encoding, keepsTransfers: transfers == .keep,
            account: account, payer: payer)
    }

    /// Opens every input in order.
    private func sources(_ context: Context) throws -> [ImportSource] {
        try paths.map {
            ImportSource(
                name: Self.name(of: $0.path), format: $0.format, input: try InputFile.chunked($0.path, context))
        }
    }
}
