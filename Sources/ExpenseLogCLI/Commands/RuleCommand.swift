import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// `rule add|list|remove`: a person's rules for shops, which every import applies before history and the profile's default.
enum RuleCommand: CommandGroup {
    static var subcommands: [any Command.Type] { [Add.self, List.self, Remove.self] }

    static let about = CommandAbout(
        name: "rule",
        abstract: "Give a shop's statement rows a category, or mark them as transfers between your own accounts.",
        discussion: """
            A rule names a shop as you would (東京電力, ENEOS, ﾔﾁﾝ): a statement row whose name holds it (widths, \
            case and kana folded, a branch such as 渋谷店 left out; the longest rule wins) takes its category, \
            before the profile's own rules, the shop's history and the default; a transfer rule leaves the row \
            out as money moved between your own accounts (--transfers keep imports it). Rules are kept per \
            environment beside the import decisions; `--explain` names the rule a row followed.

            EXAMPLES:
              expense-log rule add 東京電力 娯楽費
              expense-log rule add ENEOS entertainment/transportation
              expense-log rule add "ﾀﾞｲﾜｼﾖｳｹﾝ" transfer
              expense-log rule list
              expense-log rule remove ENEOS
            """)

    /// The word that makes a rule a transfer's.
    static let transferWords = ["transfer", "振替"]

    /// `rule add SHOP CATEGORY`.
    struct Add: ParsableCommand {
        @Arg("shop", help: "The shop's name, as statements or you write it.") var shop: String
        @Arg(
            "category", kind: .suggest(CommonOptions.categoryWords + RuleCommand.transferWords),
            help: "A category (食費, food/drink, 雑貨, a number), or transfer.") var category: String

        static let about = CommandAbout(name: "add", abstract: "Add or replace the rule for a shop.")

        func run(_ context: Context) async throws -> ExitCode {
            let config = try context.config()
            let name = shop.trimmingSpaces()
            guard ShopRuleList.isNamed(name) else {
                throw UsageError(path: context.invocation.path, message: "the shop's name is empty")
            }
            let rule: ShopRule
            if RuleCommand.transferWords.contains(category.trimmingSpaces().lowercased()) {
                rule = ShopRule(shop: name, category: nil, sub: nil, transfer: true)
            } else {
                do {
                    let (number, sub) = try config.catalogue.value.resolve(category)
                    rule = ShopRule(shop: name, category: number, sub: sub)
                } catch {
                    throw UsageError(
                        path: context.invocation.path,
                        message: "\(error.message), or transfer (`expense-log categories` lists them; "
                            + "the catalogue is the iOS app's, and a config file's \"categories\" replaces it: docs/configuration.md)"
                    )
                }
            }
            let replaced = try await context.ledger().shopRules.add(rule)
            let described = RuleCommand.describe(rule, config.catalogue.value, japanese: context.japanese)
            context.note(
                context.say(
                    "\(replaced ? "Replaced the rule" : "Added a rule"): \(PrintableText.of(name)) → \(described). Imports from now on "
                        + "follow it; items already registered keep theirs (`expense-log edit` changes one).",
                    ja: "規則を\(replaced ? "置き換えました" : "追加しました"): \(PrintableText.of(name)) → \(described)。以後の取り込みで使います。"
                        + "登録済みの項目はそのままです (`expense-log edit` で変更できます)。"))
            return .success
        }
    }
}
