import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// On a terminal, before an import sends anything: each shop whose rows would take the profile's default category (no
/// rule or history names theirs) is asked about once; an answer becomes a rule (`expense-log rule`), which this import
/// and every later one follows. Enter leaves the default.
enum NewShopQuestions {
    /// Asks about the shops `request` would give the default category, and keeps the answers as rules.
    static func ask(
        _ options: RegisterOptions, _ request: RegisterRequest, _ ledger: Ledger, _ context: Context,
        _ config: AppConfig
    ) async throws {
        // Asked only where the inputs can be read twice (a file, not standard input) and the answers change what is sent.
        guard context.canAsk, options.adding == nil, !options.dryRun, !options.paths.contains(where: { $0.path == "-" })
        else { return }
        // The inputs opened afresh: this pass reads them once more, before the run reads them.
        var reading = request
        reading.input = try options.input(context)
        let shops = try await ledger.defaultedShops(reading)
        guard !shops.isEmpty else { return }
        let catalogue = config.catalogue.value
        context.io.stderr.write(
            context.say(
                "\(shops.count) shop\(shops.count == 1 ? "" : "s") never seen before; give each its category "
                    + "(Enter keeps \(catalogue.name(of: shops[0].item.category, japanese: false)), transfer leaves its rows "
                    + "out), remembered for every later import:",
                ja: "初めての店が\(shops.count)件あります。それぞれの項目を入力してください (Enter で"
                    + "\(catalogue.name(of: shops[0].item.category, japanese: true))のまま、transfer で振替として除外)。"
                    + "以後の取り込みでも使います:") + "\n")
        context.io.stderr.write(context.say("Categories: ", ja: "項目: ") + catalogue.listing + "\n")
        let rules = ledger.shopRules
        for shop in shops {
            // The rule names the shop by its first word, as the rows were grouped: `ENEOS` for `ENEOS 渋谷SS` and `ENEOS 目黒SS`.
            let name = shop.shop.split(separator: " ").first.map(String.init) ?? shop.shop
            let question =
                "\(shop.first): \(PrintableText.of(shop.shop)) \(PriceText.yen(shop.item.price))"
                + (shop.rows > 1 ? context.say(" (and \(shop.rows - 1) more)", ja: " (ほか\(shop.rows - 1)件)") : "")
                + (name == shop.shop
                    ? ""
                    : context.say(", a rule for \(PrintableText.of(name))", ja: "、\(PrintableText.of(name)) の規則として"))
                + context.say(" — its category", ja: " — 項目")
            var suggested: String?
            while true {
                guard let answer = try await context.ask(question, suggested: suggested), !answer.isEmpty else { break }
                if RuleCommand.transferWords.contains(answer.lowercased()) {
                    _ = try await rules.add(ShopRule(shop: name, category: nil, sub: nil, transfer: true))
                    context.io.stderr.write("  → \(PrintableText.of(name)): transfer\n")
                    break
                }
                let resolved: (category: Int, sub: Int?)
                do {
                    resolved = try catalogue.resolve(answer)
                } catch {
                    context.refuseAnswer(
                        context.say(
                            error.brief + " (Enter keeps the default)", ja: error.japaneseBrief + " (Enter でそのまま)"))
                    suggested = error.meant
                    continue
                }
                let rule = ShopRule(shop: name, category: resolved.category, sub: resolved.sub)
                _ = try await rules.add(rule)
                context.io.stderr.write(
                    "  → \(PrintableText.of(name)): \(RuleCommand.describe(rule, catalogue, japanese: context.japanese))\n"
                )
                break
            }
        }
    }
}
