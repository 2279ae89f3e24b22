import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// What `summary`'s (and `report`'s) options mean together: how to load the period, and the budgets.
extension SummaryCommand {
    /// The period with how to load it (`--offline`, `--refresh`: not both).
    static func periodAndPolicy(
        _ period: Period, offline: Bool, refresh: Bool, _ context: Context
    ) throws -> (Period, MonthLoader.Policy) {
        if offline, refresh {
            throw UsageError(path: context.invocation.path, message: "--offline and --refresh cannot be used together")
        }
        return (period, offline ? .offline : refresh ? .refresh : .preferServer)
    }

    /// `--budget`: the config file's budgets; none set is a configuration error saying how to set them.
    static func budgets(_ config: AppConfig, format: SummaryFormat, _ context: Context) throws -> Budgets {
        guard format == .table || format == .json else {
            throw UsageError(
                path: context.invocation.path,
                message: "--budget prints a table or JSON; --format \(format.rawValue) has no budget columns")
        }
        guard let budgets = config.budgets?.value, !budgets.isEmpty else {
            throw ConfigError.badConfigFile(
                path: config.configFile.value,
                reason: "it sets no budgets; set one with "
                    + "`expense-log config set budgets.total 80000` (or budgets.食費, budgets.娯楽費/交通費)")
        }
        return budgets
    }
}
