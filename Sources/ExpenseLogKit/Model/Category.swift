/// A sub-category of the catalogue.
public struct SubCategory: Sendable, Hashable {
    /// Its number, unique within its category.
    public let id: Int
    /// The Japanese name shown when the locale is Japanese.
    public let japanese: String
    /// The English name.
    public let english: String
}

/// A category of the catalogue with its sub-categories.
public struct Category: Sendable, Hashable {
    /// Its number, as sent in `category`.
    public let id: Int
    /// The Japanese name.
    public let japanese: String
    /// The English name.
    public let english: String
    /// Its sub-categories, numbered as sent in `categorySub`.
    public let subs: [SubCategory]
}

/// The categories the log knows, used to name the numbers the server stores.
public struct CategoryCatalogue: Sendable, Equatable {
    /// Every category, in order.
    public let categories: [Category]

    /// A catalogue of the given categories.
    public init(categories: [Category]) {
        self.categories = categories
    }

    /// The original app's catalogue.
    public static let standard = CategoryCatalogue(categories: [
        Category(id: 0, japanese: "食費", english: "Food", subs: [
            SubCategory(id: 0, japanese: "食品", english: "Grocery"),
            SubCategory(id: 1, japanese: "飲料", english: "Drink"),
            SubCategory(id: 2, japanese: "菓子", english: "Sweets"),
            SubCategory(id: 3, japanese: "栄養補助", english: "Supplement"),
        ]),
        Category(id: 1, japanese: "娯楽費", english: "Entertainment", subs: [
            SubCategory(id: 0, japanese: "嗜好品", english: "Luxury"),
            SubCategory(id: 1, japanese: "交通費", english: "Transportation"),
            SubCategory(id: 2, japanese: "雑貨", english: "Goods"),
        ]),
    ])

    /// The category with a number, if the catalogue has it.
    public func category(_ id: Int) -> Category? { categories.first { $0.id == id } }

    /// The category's name, or its number when the catalogue lacks it.
    public func name(of category: Int, japanese: Bool) -> String {
        guard let found = self.category(category) else { return "#\(category)" }
        return japanese ? found.japanese : found.english
    }

    /// The sub-category's name, its number when unknown, or "" when there is none.
    public func name(ofSub sub: Int?, in category: Int, japanese: Bool) -> String {
        guard let sub else { return "" }
        guard let found = self.category(category)?.subs.first(where: { $0.id == sub }) else { return "#\(sub)" }
        return japanese ? found.japanese : found.english
    }
}
