import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// `rule list` and `rule remove`, and how a rule is named.
extension RuleCommand {
    /// `rule list`.
    struct List: ParsableCommand {
        @Opt(CommonOptions.listingFormat) var format: ListingFormat?

        static let about = CommandAbout(name: "list", abstract: "List the shop rules of the current environment.")

        func run(_ context: Context) async throws -> ExitCode {
            let config = try context.config()
            let rules = try context.ledger().shopRules.all()
            if format == .json {
                let members = rules.map { rule in
                    "  {\"shop\": \(Self.quoted(rule.shop)), \"category\": \(rule.category.map(String.init) ?? "null"), "
                        + "\"sub\": \(rule.sub.map(String.init) ?? "null"), \"transfer\": \(rule.transfer)}"
                }
                context.io.stdout.write(members.isEmpty ? "[]\n" : "[\n" + members.joined(separator: ",\n") + "\n]\n")
                return .success
            }
            guard !rules.isEmpty else {
                context.note(
                    context.say(
                        "No shop rules yet; `expense-log rule add SHOP CATEGORY` adds one.",
                        ja: "店の規則はまだありません。`expense-log rule add 店 項目` で追加します。"))
                return .success
            }
            var rows = [context.japanese ? ["店", "項目"] : ["SHOP", "CATEGORY"]]
            for rule in rules {
                rows.append([
                    PrintableText.of(rule.shop),
                    RuleCommand.describe(rule, config.catalogue.value, japanese: context.japanese),
                ])
            }
            context.io.stdout.write(TextTable(rows: rows).render())
            return .success
        }

        private static func quoted(_ text: String) -> String {
            var out = ""
            ItemJSON.appendString(text, to: &out)
            return out
        }
    }

    /// `rule remove SHOP`.
    struct Remove: ParsableCommand {
        @Arg("shop", help: "The shop whose rule goes (as `rule list` shows it; widths and kana are folded).") var shop:
            String

        static let about = CommandAbout(name: "remove", abstract: "Remove the rule for a shop.")

        func run(_ context: Context) async throws -> ExitCode {
            guard let rule = try await context.ledger().shopRules.remove(shop) else {
                context.io.stderr.write(
                    context.say(
                        "Error: no rule is for \(PrintableText.of(shop)); `expense-log rule list` shows them.",
                        ja: "エラー: \(PrintableText.of(shop)) の規則はありません。`expense-log rule list` で一覧できます。") + "\n")
                throw CommandExit(code: .dataError)
            }
            context.note(
                context.say(
                    "Removed the rule for \(PrintableText.of(rule.shop)).",
                    ja: "\(PrintableText.of(rule.shop)) の規則を削除しました。"))
            return .success
        }
    }

    /// `娯楽費/交通費`, `Food`, or `transfer`: what a rule gives, in the catalogue's words.
    static func describe(_ rule: ShopRule, _ catalogue: CategoryCatalogue, japanese: Bool) -> String {
        guard let category = rule.category else { return japanese ? "振替 (transfer)" : "transfer" }
        let name = catalogue.name(of: category, japanese: japanese)
        return rule.sub.map { name + "/" + catalogue.name(ofSub: $0, in: category, japanese: japanese) } ?? name
    }
}
