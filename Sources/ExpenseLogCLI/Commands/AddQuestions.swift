import ExpenseLogConfig
import ExpenseLogModel
import Foundation

/// `add` on a terminal with arguments missing: asks for each (the date with today as default, the name with the names
/// already in the cache shown, the price, the category with the guessed one as default), re-asking after an answer it
/// cannot read, then shows the item and asks before sending it.
struct AddQuestions {
    let command: AddCommand
    let context: Context
    let config: AppConfig

    /// The answered item, or nil when the person stopped (Ctrl-D, or no at the confirmation). With a name and a price
    /// given, only the category is missing: the day is `--date` or today, not asked.
    func ask(name given: String?, price givenPrice: String? = nil) async throws -> AddCommand.Fields? {
        // The cache is read once, for the names shown and for the guessed category.
        let cached = await AddCommand.cachedItems(context, config)
        var day = try command.date.map { text in
            guard let day = Day(personDate: text) else { throw AddCommand.notADay(text, context) }
            return day
        }
        if given != nil, givenPrice != nil, day == nil { day = Day.today() }
        while day == nil {
            guard
                let text = try await context.ask(
                    context.say("Date", ja: "日付"), suggested: context.say("today", ja: "今日"))
            else { return nil }
            day = Day(personDate: text)
            if day == nil { context.refuseAnswer(Day.refusal(of: text)) }
        }
        var name = given
        if name == nil {
            let known = knownNames(cached)
            if !known.isEmpty {
                context.io.stderr.write(
                    context.say("Names in the cache: ", ja: "キャッシュにある品名: ") + known.joined(separator: ", ") + "\n")
            }
        }
        while name?.trimmingSpaces().isEmpty ?? true {
            guard let text = try await context.ask(context.say("Name", ja: "品名")) else { return nil }
            name = text
        }
        var price = givenPrice
        while price == nil {
            guard let text = try await context.ask(context.say("Price", ja: "金額")) else { return nil }
            if PriceText.parse(text.trimmingSpaces()) != nil {
                price = text
            } else {
                context.refuseAnswer(
                    context.say(
                        "'\(text)' is not a price: give 980, ¥1,500, 1,500円 or -300 for a refund",
                        ja: "「\(text)」は金額ではありません: 980、¥1,500、1,500円、返金は -300 のように入力してください"))
            }
        }
        guard let day, let name, let price, let category = try await category(for: name, cached) else { return nil }
        let shown =
            "\(day)  \(name)  \(price)  \(AddCommand.describe(category.category, category.sub, config, context))"
        guard try await context.confirm(context.say("Register \(shown)?", ja: "\(shown) を登録しますか?"), yesByDefault: true)
        else { return nil }
        return AddCommand.Fields(day: day, name: name, price: price, category: category.category, sub: category.sub)
    }

    /// `--category`, or the answer to a question whose default is the category the name had last time.
    private func category(for name: String, _ cached: [Item]) async throws -> (category: Int, sub: Int?)? {
        if let text = command.category { return try AddCommand.resolve(text, config, context) }
        let guess = AddCommand.latest(named: name, among: cached)
        var suggested = guess.map { AddCommand.describe($0.category, $0.categorySub, config, context) }
        // The catalogue once, before the question, when there is no guess to take; an answer it lacks is told apart
        // (with the name it most likely meant) without listing it again.
        if guess == nil {
            context.io.stderr.write(context.say("Categories: ", ja: "項目: ") + config.catalogue.value.listing + "\n")
        }
        while true {
            guard let text = try await context.ask(context.say("Category", ja: "項目"), suggested: suggested) else {
                return nil
            }
            do {
                return try config.catalogue.value.resolve(text)
            } catch {
                context.refuseAnswer(
                    text.isEmpty
                        ? context.say("a category is needed", ja: "項目を入力してください")
                        : context.say(error.brief, ja: error.japaneseBrief))
                // Enter then takes the name it most likely meant.
                if let meant = error.meant { suggested = meant }
            }
        }
    }

    /// The names of the cached items, the latest first, each once, at most eight.
    private func knownNames(_ cached: [Item]) -> [String] {
        var seen: Set<String> = [], names: [String] = []
        for item in cached.sorted(by: { $0.date > $1.date }) where seen.insert(item.name).inserted {
            names.append(item.name)
            if names.count == 8 { break }
        }
        return names
    }
}
