/// A sub-category of the catalogue.
public struct SubCategory: Sendable, Hashable {
    /// Its number, unique within its category.
    public let id: Int
    /// The Japanese name shown when the locale is Japanese.
    public let japanese: String
    /// The English name.
    public let english: String

    /// A sub-category.
    public init(id: Int, japanese: String, english: String) {
        (self.id, self.japanese, self.english) = (id, japanese, english)
    }
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

    /// A category.
    public init(id: Int, japanese: String, english: String, subs: [SubCategory]) {
        (self.id, self.japanese, self.english, self.subs) = (id, japanese, english, subs)
    }
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
        Category(
            id: 0, japanese: "食費", english: "Food",
            subs: [
                SubCategory(id: 0, japanese: "食品", english: "Grocery"),
                SubCategory(id: 1, japanese: "飲料", english: "Drink"),
                SubCategory(id: 2, japanese: "菓子", english: "Sweets"),
                SubCategory(id: 3, japanese: "栄養補助", english: "Supplement"),
            ]),
        Category(
            id: 1, japanese: "娯楽費", english: "Entertainment",
            subs: [
                SubCategory(id: 0, japanese: "嗜好品", english: "Luxury"),
                SubCategory(id: 1, japanese: "交通費", english: "Transportation"),
                SubCategory(id: 2, japanese: "雑貨", english: "Goods"),
            ]),
    ])

    /// The category with a number, if the catalogue has it.
    public func category(_ id: Int) -> Category? { categories.first { $0.id == id } }

    /// Whether the catalogue has the category, and the sub-category in it when one is given; nothing is copied (every
    /// imported row asks).
    public func has(_ category: Int, sub: Int? = nil) -> Bool {
        categories.contains { found in
            found.id == category && (sub.map { sub in found.subs.contains { $0.id == sub } } ?? true)
        }
    }

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

extension CategoryCatalogue {
    /// A category (and maybe a sub-category) as a person names it: a number (`0`), a name in either language, any case
    /// (`食費`, `Food`, `food`), a unique prefix (`ent`), or a category and a sub joined by `/` (`食費/飲料`, `food/drink`,
    /// `0/1`). Throws a message naming what the catalogue has when the text names nothing, or more than one thing.
    public func resolve(_ text: String) throws(CategoryNameError) -> (category: Int, sub: Int?) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map {
            $0.trimmingSpaces()
        }
        let category: Int
        do {
            category = try match(parts[0], among: categories.map { ($0.id, $0.japanese, $0.english) }, what: "category")
        } catch {
            // A sub-category's own name (雑貨, goods) names its category too, when no other category has a sub of that name.
            let folded = Self.fold(parts[0])
            let owners =
                parts.count == 1
                ? categories.compactMap { category in
                    category.subs.first { Self.fold($0.japanese) == folded || Self.fold($0.english) == folded }.map {
                        (category.id, $0.id)
                    }
                } : []
            guard owners.count == 1, Int(parts[0]) == nil else { throw error }
            return (owners[0].0, owners[0].1)
        }
        guard parts.count == 2 else { return (category, nil) }
        let subs = self.category(category)?.subs ?? []
        return (
            category,
            try match(
                parts[1], among: subs.map { ($0.id, $0.japanese, $0.english) },
                what: "sub-category of \(name(of: category, japanese: false))",
                japaneseWhat: "\(name(of: category, japanese: true))のサブ項目")
        )
    }

    /// The sub-category a text names within a category (as `resolve` reads the part after `/`).
    public func resolveSub(_ text: String, in category: Int) throws(CategoryNameError) -> Int {
        try match(
            text.trimmingSpaces(),
            among: (self.category(category)?.subs ?? []).map { ($0.id, $0.japanese, $0.english) },
            what: "sub-category of \(name(of: category, japanese: false))",
            japaneseWhat: "\(name(of: category, japanese: true))のサブ項目")
    }

    /// A name as names are compared: case and full- or half-width ignored.
    static func fold(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
    }

    /// Every category and sub-category, as `0 食費 Food (0 食品 Grocery, 1 飲料 Drink, …)`, for messages.
    public var listing: String {
        categories.map { category in
            "\(category.id) \(category.japanese) \(category.english)"
                + (category.subs.isEmpty
                    ? ""
                    : " (" + category.subs.map { "\($0.id) \($0.japanese) \($0.english)" }.joined(separator: ", ") + ")")
        }.joined(separator: "; ")
    }

    private func match(
        _ text: String, among entries: [(id: Int, japanese: String, english: String)], what: String,
        japaneseWhat: String = "項目"
    ) throws(CategoryNameError) -> Int {
        let known = entries.map { "\($0.id) \($0.japanese) \($0.english)" }.joined(separator: ", ")
        if let number = Int(text) {
            guard entries.contains(where: { $0.id == number }) else {
                throw CategoryNameError(
                    message: "there is no \(what) \(number); the catalogue has \(known)",
                    brief: "there is no \(what) \(number)",
                    japanese: "\(japaneseWhat) \(number) はありません。一覧: \(known)",
                    japaneseBrief: "\(japaneseWhat) \(number) はありません")
            }
            return number
        }
        let folded = Self.fold(text)
        func fold(_ name: String) -> String { Self.fold(name) }
        if let exact = entries.first(where: { fold($0.japanese) == folded || fold($0.english) == folded }) {
            return exact.id
        }
        let prefixed = entries.filter {
            !folded.isEmpty && (fold($0.japanese).hasPrefix(folded) || fold($0.english).hasPrefix(folded))
        }
        if prefixed.count == 1 { return prefixed[0].id }
        if prefixed.count > 1 {
            throw CategoryNameError(
                message: "'\(text)' could be any of \(prefixed.map(\.english).joined(separator: ", ")); say which",
                japanese: "「\(text)」は \(prefixed.map(\.japanese).joined(separator: "、")) のどれにも当てはまります。どれか指定してください")
        }
        let meant = ClosestWord.to(text, among: entries.flatMap { [$0.english, $0.japanese] })
        let brief = "no \(what) is called '\(text)'" + (meant.map { ". Did you mean '\($0)'?" } ?? "")
        let japaneseBrief = "「\(text)」という\(japaneseWhat)はありません" + (meant.map { "。「\($0)」ですか?" } ?? "")
        throw CategoryNameError(
            message: brief + (meant == nil ? "; the" : " The") + " catalogue has \(known)", brief: brief, meant: meant,
            japanese: japaneseBrief + "。一覧: \(known)", japaneseBrief: japaneseBrief)
    }
}

/// A category name that names nothing in the catalogue, or more than one thing.
public struct CategoryNameError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming what the catalogue has.
    public let message: String
    /// What is wrong alone, where the catalogue was just shown.
    public let brief: String
    /// The name a typo most likely meant, if one is that close.
    public let meant: String?
    /// `message` in Japanese.
    public let japanese: String
    /// `brief` in Japanese.
    public let japaneseBrief: String

    /// An error, its words without the catalogue (the same when it names none), and the name it likely meant; the same
    /// in Japanese.
    public init(
        message: String, brief: String? = nil, meant: String? = nil, japanese: String? = nil,
        japaneseBrief: String? = nil
    ) {
        (self.message, self.brief, self.meant) = (message, brief ?? message, meant)
        self.japanese = japanese ?? message
        self.japaneseBrief = japaneseBrief ?? japanese ?? brief ?? message
    }
    /// The message.
    public var description: String { message }
}
