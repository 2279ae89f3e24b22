import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogUseCases

extension AddCommand {
    /// On a terminal, when the cache shows an item of the same name and price on the same day (a second coffee, or the
    /// same one typed twice), says so and asks whether to add another (yes by default). Off a terminal nothing is asked:
    /// a typed purchase is a new one, and `add` always registers it.
    static func confirmRepeat(_ fields: Fields, _ context: Context, _ config: AppConfig) async throws -> Bool {
        guard context.canAsk, let price = PriceText.parse(fields.price) else { return true }
        let name = fields.name.trimmingSpaces()
        let same = await cachedItems(context, config).filter {
            $0.date == fields.day && $0.price == price && $0.name.trimmingSpaces() == name
        }
        guard !same.isEmpty else { return true }
        let times = same.count == 1 ? "once" : "\(same.count) times"
        return try await context.confirm(
            context.say(
                "\(name) ¥\(PriceText.format(price)) is already registered \(times) on \(fields.day); add another",
                ja: "\(name) ¥\(PriceText.format(price)) は \(fields.day) に\(same.count)件登録済みです。もう1件追加しますか"),
            yesByDefault: true)
    }
}
