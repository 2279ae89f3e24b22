import ExpenseLogKit

/// The BSD sysexits codes of the contract.
public enum ExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
    /// `summary --budget`: a budget was overspent (the output is complete).
    case overBudget = 3
    case usage = 64
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    case ioError = 74
    case temporaryFailure = 75
    case protocolError = 76
    case noPermission = 77
    case configuration = 78

    /// The one place where every error becomes an exit code.
    public init(for error: any Error) {
        switch error {
        case let exit as CommandExit: self = exit.code
        case is UsageError: self = .usage
        case is ConfigError: self = .configuration
        case is InputError: self = .noInput
        case is ValidationProblem: self = .dataError
        case is StoreError: self = .ioError
        case let failure as BatchFailure: self = ExitCode(for: failure.error)
        case MonthFailure.api(let error): self = ExitCode(for: error)
        case MonthFailure.store: self = .ioError
        case MonthFailure.notCached: self = .temporaryFailure
        case let error as APIError:
            switch error {
            case .network: self = .unavailable
            case .httpStatus(_, let status, _) where status == 401 || status == 403: self = .noPermission
            case .httpStatus: self = .unavailable
            case .invalidResponse, .answerTooLarge: self = .protocolError
            case .fixtureUnreadable: self = .noInput
            case .invalidMonth: self = .usage
            case .scriptStopped: self = .unavailable
            case .scriptRefused(_, let kind, _): self = kind == "unauthorized" ? .noPermission : kind == "busy" ? .unavailable : .protocolError
            }
        default: self = .failure
        }
    }
}

/// Ends a command with a code after it has already said why (for example every invalid item).
public struct CommandExit: Error, Sendable {
    /// The code to exit with.
    public let code: ExitCode
}
