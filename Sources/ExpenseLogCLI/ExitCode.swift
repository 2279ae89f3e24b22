import ExpenseLogUseCases

/// The BSD sysexits codes of the contract.
public enum ExitCode: Int32, Sendable, CaseIterable {
    case success = 0
    case failure = 1
    /// `summary --budget`: a budget was overspent (the output is complete).
    case overBudget = 3
    /// `register`: statement rows that may be items already there were held back for a person to decide.
    case held = 4
    case usage = 64
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    case ioError = 74
    case temporaryFailure = 75
    case protocolError = 76
    case noPermission = 77
    case configuration = 78
    /// Ctrl-C, SIGTERM or SIGHUP: 128 plus the signal's number, as a shell reports it; this is SIGINT's.
    case interrupted = 130

    /// What each code means, in a line, for the manual page (docs/exit-codes.md says more).
    public var meaning: String {
        switch self {
        case .success: "Success, also when the cached month was served after a network failure (with a warning)."
        case .failure: "Unexpected failure; server check: a check did not hold; a question answered no."
        case .overBudget: "summary --budget: a budget was overspent (the output is complete)."
        case .held:
            "register: rows that may be items already there (or a fixed cost at another amount) were held for a person (the rest was sent)."
        case .usage: "Usage: an unknown command or option, a missing or malformed value."
        case .dataError:
            "An input item or file is invalid (every problem listed, nothing sent), or rows of the server's answer were left out."
        case .noInput: "An input file or a dummy fixture does not exist or cannot be read."
        case .unavailable:
            "The network failed or the server answered an error status, and nothing cached could serve; or the server lacks what the command needs."
        case .ioError: "The cache, the queue of pending writes, the token file or stdout could not be written."
        case .temporaryFailure:
            "Items or changes wait in the queue for sync (the server could not be reached, or its answer was lost)."
        case .protocolError:
            "The server answered something that is not the expected JSON, or an answer that does not account for what was asked."
        case .noPermission: "HTTP 401 or 403, or the web app's key refused."
        case .interrupted:
            "Interrupted (Ctrl-C at a prompt or during a run; SIGTERM gives 143, SIGHUP 129): what was queued waits for sync."
        case .configuration:
            "Configuration: no base URL, a bad config file, an insecure token file, http:// in release."
        }
    }

    /// The one place where every error becomes an exit code.
    public init(for error: any Error) {
        switch error {
        case let exit as CommandExit: self = exit.code
        case is UsageError: self = .usage
        default:
            switch FailureText.kind(of: error) {
            case .usage: self = .usage
            case .data: self = .dataError
            case .noInput: self = .noInput
            case .unavailable: self = .unavailable
            case .io: self = .ioError
            case .temporary: self = .temporaryFailure
            case .protocolError: self = .protocolError
            case .permission: self = .noPermission
            case .configuration: self = .configuration
            case nil: self = .failure
            }
        }
    }
}

/// Ends a command with a code after it has already said why (for example every invalid item).
public struct CommandExit: Error, Sendable {
    /// The code to exit with.
    public let code: ExitCode
}
