import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// What `settle` decides before it reckons: the split, the two people, the configuration's defaults, what it leaves
/// out, and the settlements that do not fit the period.
extension SettleCommand {
    /// The config's `payer.app` and `personal` categories, each checked against the catalogue (a name it lacks is a
    /// configuration error naming it).
    static func defaults(_ config: AppConfig, _ context: Context) throws -> ShareDefaults {
        let categories = try config.personalCategories.map { name in
            do {
                let (category, sub) = try config.catalogue.value.resolve(name)
                return ShareDefaults.Category(category: category, sub: sub)
            } catch {
                throw ConfigError.badConfigFile(
                    path: config.configFile.value,
                    reason: "'personal' names \(name), which is no category (`expense-log categories` lists them)")
            }
        }
        return ShareDefaults(appPayer: config.appPayer?.value, personal: categories)
    }

    /// `--ratio` (`60:40`, `６０：４０`, `60/40`, `60-40`: two whole numbers, not both 0), else the config's `ratio`,
    /// else 50:50.
    static func split(_ text: String?, _ config: AppConfig, _ context: Context) throws -> Split {
        guard let text else { return config.ratio?.value ?? .even }
        guard let split = Split(parsing: text) else {
            throw UsageError(
                path: context.invocation.path,
                message: "--ratio takes two whole numbers of 0 to 10000, not both 0, such as 60:40 (the two people "
                    + "in the order of their names), not '\(text)'")
        }
        return split
    }

    /// What settling left out, for the last line: the items no one paid (the household's) and the personal ones.
    static func leftOut(_ items: [Item]) -> (household: [Item], personal: [Item]) {
        (items.filter { $0.payer == nil }, items.filter { $0.personal && $0.payer != nil })
    }

    /// Says which settlements recorded for a longer period cover part of this one (a year's, asked for a month): they
    /// are not counted here, and settling that period counts them. Says too when one of this period's was made at
    /// another split (the partners' machines disagree).
    static func noteOverlapping(
        _ recorded: [Settlement], _ within: [Settlement], _ bounds: (from: Day, to: Day), _ split: Split,
        _ context: Context
    ) {
        for other in recorded where !within.contains(other) && other.from <= bounds.to && other.to >= bounds.from {
            context.warn(
                context.say(
                    "a settlement recorded for \(other.from) to \(other.to) (\(other.payer) paid \(other.payee) "
                        + "\(PriceText.yen(other.amount))) covers part of this period and is not counted here; settle "
                        + "that period to count it",
                    ja:
                        "\(other.from)〜\(other.to) の精算 (\(other.payer) が \(other.payee) に \(PriceText.yen(other.amount))) は"
                        + "この期間の一部にかかるため数えていません。その期間を精算すると数えます"))
        }
        for made in within where !made.ratio.isEmpty && made.ratio != split.description {
            context.warn(
                context.say(
                    "\(made.payer)'s settlement of \(PriceText.yen(made.amount)) was recorded at a split of \(made.ratio), "
                        + "and this is \(split.description): give --ratio \(made.ratio) (or set the same ratio on both "
                        + "machines) to settle as it was",
                    ja: "\(made.payer) の \(PriceText.yen(made.amount)) の精算は負担割合 \(made.ratio) で記録されています"
                        + " (今回は \(split.description))。同じにするには --ratio \(made.ratio)"))
        }
    }

    /// The two people in the order of their names (the split's order, the same on both partners' machines); nil when
    /// no shared item or settlement names anyone. More than two, or one without `--with`, is an error naming them.
    static func people(
        _ items: [Item], _ settlements: [Settlement], with other: String?, _ context: Context
    ) throws -> (String, String)? {
        var names = Set(items.filter { !$0.personal }.compactMap(\.payer))
        for settlement in settlements { names.formUnion([settlement.payer, settlement.payee]) }
        guard !names.isEmpty else { return nil }
        let named = other?.trimmingSpaces() ?? ""
        if !named.isEmpty {
            guard names.count == 1 || names.contains(named) else {
                throw UsageError(
                    path: context.invocation.path,
                    message: "the shared items already name \(names.sorted().joined(separator: " and ")): settle is "
                        + "between two people, so --with \(named) would make three")
            }
            names.insert(named)
        }
        let ordered = names.sorted()
        guard ordered.count == 2 else {
            throw UsageError(
                path: context.invocation.path,
                message: ordered.count == 1
                    ? "only \(ordered[0]) paid shared items in the period; name the other person with --with NAME"
                    : "settle splits between two people, and the shared items name \(ordered.joined(separator: ", "))")
        }
        return (ordered[0], ordered[1])
    }
}
