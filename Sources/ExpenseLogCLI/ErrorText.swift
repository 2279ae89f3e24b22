import ExpenseLogClient
import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogStore
import ExpenseLogUseCases

extension Context {
    /// An error as the person reads it: in Japanese under a Japanese locale, for the errors a household meets (the
    /// server, the network, the disk, the configuration); others as they are.
    func describe(_ error: any Error) -> String {
        guard japanese else { return "\(error)" }
        switch error {
        case let error as APIError: return error.japaneseDescription
        case let error as MonthFailure:
            switch error {
            case .api(let error): return error.japaneseDescription
            case .store(let error): return describe(error)
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
            }
        case let error as InputError:
            let reasons = ["no such file": "ありません", "permission denied": "権限がありません", "it is a folder, not a file": "ファイルではなくフォルダーです"]
            return "\(error.path) を読めません: \(reasons[error.reason] ?? error.reason)"
        case let error as ConfigError:
            switch error {
            case let .missingBaseURL(env, configFile):
                return "環境 '\(env.rawValue)' のベース URL が設定されていません。--base-url URL、EXPENSE_LOG_BASE_URL、または \(configFile) で設定するか "
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

    /// `Error: …` (`エラー: …`), a line of its own.
    func errorLine(_ error: any Error) -> String {
        say("Error", ja: "エラー") + ": " + describe(error) + "\n"
    }
}
