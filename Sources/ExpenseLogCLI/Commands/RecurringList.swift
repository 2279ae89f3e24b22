import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// `recurring list`, and how a rule is named in every message.
enum RecurringList {
    /// `recurring list`.
    struct List: ParsableCommand {
        @Opt(CommonOptions.listingFormat) var format: ListingFormat?

        static let about = CommandAbout(
            name: "list", abstract: "List the fixed costs, where they are kept, and when each is next due.")

        func run(_ context: Context) async throws -> ExitCode {
            let config = try context.config()
            let read = try await RecurringCommand.rules(context)
            if format == .json {
                context.io.stdout.write(RecurringRuleJSON.array(read.rules))
                return .success
            }
            let kept = RecurringList.kept(read.home, japanese: context.japanese)
            context.note(context.japanese ? kept + "。" : kept.capitalizedFirst)
            guard !read.rules.isEmpty else {
                context.note(
                    context.say(
                        "No fixed costs yet; `expense-log recurring add 家賃 85000 --day 27 --category 娯楽費` adds one.",
                        ja: "固定費はまだありません。`expense-log recurring add 家賃 85000 --day 27 --category 娯楽費` で追加します。"))
                return .success
            }
            let japanese = context.japanese
            var rows = [
                japanese
                    ? ["ID", "名前", "金額", "日", "項目", "期間", "次回", "照合語"]
                    : ["ID", "NAME", "PRICE", "DUE", "CATEGORY", "MONTHS", "NEXT", "MATCH"]
            ]
            let today = context.today
            for rule in read.rules {
                let next = rule.occurrences(from: today, through: today.adding(days: 800)).first
                rows.append([
                    String(rule.id.prefix(8)), PrintableText.of(rule.name), RecurringList.price(rule),
                    RecurringList.due(rule, japanese: japanese),
                    AddCommand.describe(rule.category, rule.categorySub, config, context),
                    "\(rule.from.map(\.description) ?? "")–\(rule.until.map(\.description) ?? "")",
                    next.map { $0.date.description } ?? "-", PrintableText.of(rule.match.joined(separator: " ")),
                ])
            }
            context.io.stdout.write(TextTable(rows: rows).render())
            return .success
        }
    }

    /// `¥85,000`, or `¥7,000 (¥4,000–¥12,000)` for a rule with a range.
    static func price(_ rule: RecurringRule) -> String {
        PriceText.yen(rule.price) + (rule.aboutText.map { " (\($0))" } ?? "")
    }

    /// `27th monthly`, `Apr 1 yearly`; `毎月27日`, `毎年4月1日`.
    static func due(_ rule: RecurringRule, japanese: Bool) -> String {
        if japanese {
            return rule.every == .year ? "毎年\(rule.month ?? 1)月\(rule.day)日" : "毎月\(rule.day)日"
        }
        return rule.every == .year ? "yearly, \(rule.month ?? 1)/\(rule.day)" : "monthly, day \(rule.day)"
    }

    /// `家賃 ¥85,000, monthly, day 27, from 2027-01`: a rule in a sentence.
    static func describe(_ rule: RecurringRule, _ config: AppConfig, japanese: Bool) -> String {
        let months =
            (rule.from.map { japanese ? "\($0)から" : ", from \($0)" } ?? "")
            + (rule.until.map { japanese ? "\($0)まで" : " until \($0)" } ?? "")
        let words = rule.match.isEmpty ? "" : PrintableText.of(rule.match.joined(separator: " "))
        return "\(PrintableText.of(rule.name)) \(price(rule)) \(due(rule, japanese: japanese))"
            + (japanese ? " " + months : months)
            + (words.isEmpty ? "" : japanese ? " 照合語 \(words)" : ", matching \(words)")
    }

    /// Where the rules are kept, as a clause.
    static func kept(_ home: RuleHome, japanese: Bool) -> String {
        switch home {
        case .server(let url):
            japanese
                ? "固定費はサーバー (\(url.host ?? "")) の 家計簿_固定費 にあり、どのマシンからも同じものが見えます"
                : "the fixed costs are kept on the server (\(url.host ?? "")), in 家計簿_固定費, for every machine"
        case let .machine(file, noServer):
            japanese
                ? (noServer ? "サーバーがないため" : "サーバーのスクリプトは固定費を保存しないため")
                    + "、固定費はこのマシンの \(file.path) にあります"
                : "the fixed costs are kept on this machine, in \(file.path) ("
                    + (noServer ? "this environment has no server" : "the server's script keeps none") + ")"
        }
    }
}

extension String {
    /// The text with its first letter capitalised (a clause made a sentence).
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() + (hasSuffix(".") ? "" : ".") }
}
