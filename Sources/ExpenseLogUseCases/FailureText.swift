import ExpenseLogClient
import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore

/// What a failure means to a person and to a shell, said in one place for every layer's errors: the words (English, or
/// Japanese for the errors a household meets) and the kind, which the CLI maps to an exit code.
public enum FailureText {
    /// An error as the person reads it: in Japanese when `japanese`, for the errors a household meets (the server, the
    /// network, the disk, the configuration); others as they are.
    public static func describe(_ error: any Error, japanese: Bool) -> String {
        guard japanese else { return "\(error)" }
        switch error {
        case let error as APIError: return error.japaneseDescription
        case let error as MonthFailure:
            switch error {
            case .api(let error): return error.japaneseDescription
            case .store(let error): return describe(error, japanese: true)
            case .notCached(let month): return "\(month) はキャッシュにありません"
            }
        case let error as StoreError:
            switch error {
            case let .writeFailed(path, reason):
                return "\(path) に書き込めません: \(reason)。フォルダーの権限と空き容量を確かめてください。そのファイルは元のままです。"
            case let .readFailed(path, reason):
                return "\(path) を読めません: \(reason)。ファイルかフォルダーか、その権限を確かめてください。何も変更していません。"
            case let .changed(path, next):
                return "\(path) がこの実行の途中で変わりました (手で編集しましたか?): \(next)"
            case let .notPrivate(path, owner):
                return "\(path) には家計の支出がありますが、別のアカウント (uid \(owner)) のもので、そのアカウントが読み書きできます。"
                    + "expense-log はここを使いません: 自分のものにする (chown -R) か、EXPENSE_LOG_HOME を自分のフォルダーにしてください。"
                    + "ここでは何も読み書きしていません。"
            }
        case let error as InputError:
            let reasons = [
                "no such file": "ありません", "permission denied": "権限がありません",
                "it is a folder, not a file": "ファイルではなくフォルダーです",
            ]
            return "\(error.path) を読めません: \(reasons[error.reason] ?? error.reason)"
        case let error as ConfigError:
            switch error {
            case let .missingBaseURL(env, configFile):
                return
                    "環境 '\(env.rawValue)' のベース URL が設定されていません。--base-url URL、EXPENSE_LOG_BASE_URL、または \(configFile) で設定するか "
                    + "(`expense-log config init`)、サーバーなしで試すには --env dummy を使ってください。"
            case let .missingConfigFile(path, source):
                return "設定ファイル \(path) (\(source) による) がありません。作るか、\(source) で別の場所を指定してください。"
            default:
                return "\(error)"
            }
        default:
            return "\(error)"
        }
    }

    /// Whether a failure may pass by itself (a network failure, 429, 5xx): the command then exits 75 and keeps what waits.
    public static func isTransient(_ error: any Error) -> Bool {
        switch error {
        case let error as APIError: error.isTransient
        case let error as MonthFailure: error.isTransient
        case let failure as BatchFailure: failure.error.isTransient
        default: false
        }
    }

    /// Whether an error is the server refusing a change because the item changed there since it was read.
    public static func isConflict(_ error: any Error) -> Bool {
        (error as? APIError)?.isConflict ?? false
    }

    /// Whether an error is a server that could not be reached at all (nothing was sent).
    public static func isUnreachable(_ error: any Error) -> Bool {
        (error as? APIError)?.isUnreachable ?? false
    }

    /// The kind of failure an error is, for its exit code; nil for an error no layer of the library throws.
    public static func kind(of error: any Error) -> FailureKind? {
        switch error {
        case is ConfigError: .configuration
        case is InputError: .noInput
        case is ValidationProblem: .data
        // Others can control the folder: as an insecure token file is, a configuration to fix (78).
        case StoreError.notPrivate: .configuration
        case is StoreError: .io
        case let failure as BatchFailure: kind(of: failure.error)
        case MonthFailure.api(let error): kind(of: error)
        case MonthFailure.store: .io
        case MonthFailure.notCached: .temporary
        case let error as APIError:
            switch error {
            case .network: .unavailable
            case .httpStatus(_, let status, _) where status == 401 || status == 403: .permission
            case .httpStatus: .unavailable
            case .invalidResponse, .answerTooLarge: .protocolError
            case .fixtureUnreadable: .noInput
            case .invalidMonth: .usage
            case .scriptStopped: .unavailable
            case .scriptRefused(_, let kind, _):
                kind == "unauthorized"
                    ? .permission : ["busy", "unavailable"].contains(kind) ? .unavailable : .protocolError
            }
        default: nil
        }
    }
}

/// The kinds of failure, one per exit code of the contract that a failure can have.
public enum FailureKind: Sendable {
    case usage, data, noInput, unavailable, io, temporary, protocolError, permission, configuration
}
