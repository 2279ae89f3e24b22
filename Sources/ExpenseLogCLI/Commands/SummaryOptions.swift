import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// What `summary` (and `report`) read from their options: the period, how to load it, the budgets.
extension SummaryCommand {
    /// The month or year asked for, or with `ranges` (`summary`) the range `--from`/`--to` give, and how to load it
    /// (`--offline`, `--refresh`).
    static func periodAndPolicy(_ invocation: Invocation, ranges: Bool = false) throws -> (Period, MonthLoader.Policy) {
        let period = try (ranges ? CommonOptions.range(invocation) : nil) ?? CommonOptions.period(invocation)
        if invocation[offline], invocation[refresh] {
            throw UsageError(path: invocation.path, message: "--offline and --refresh cannot be used together")
        }
        return (period, invocation[offline] ? .offline : invocation[refresh] ? .refresh : .preferServer)
    }

    /// `--budget`: the config file's budgets; none set is a configuration error saying how to set them.
    static func budgets(_ invocation: Invocation, _ config: AppConfig, format: SummaryFormat) throws -> Budgets? {
        guard invocation[budget] else { return nil }
        guard format == .table || format == .json else {
            throw UsageError(path: invocation.path, message: "--budget prints a table or JSON; --format \(format.rawValue) has no budget columns")
        }
        guard let budgets = config.budgets?.value, !budgets.isEmpty else {
            throw ConfigError.badConfigFile(path: config.configFile.value, reason: "it sets no budgets; set one with "
                                            + "`expense-log config set budgets.total 80000` (or budgets.食費, budgets.娯楽費/交通費)")
        }
        return budgets
    }
}
