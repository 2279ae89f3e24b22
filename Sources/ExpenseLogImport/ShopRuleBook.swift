import ExpenseLogModel
import ExpenseLogStore

/// The person's shop rules as an import applies them: a row's shop is the rule's when its name, folded as statement
/// matching folds names (`PurchaseName`), holds the rule's; the longest such rule wins (`ENEOS 渋谷SS` is `ENEOS`'s).
public struct ShopRuleBook: Sendable, Equatable {
    /// The rules with their folded names, the longest first.
    private let entries: [(key: String, rule: ShopRule)]

    /// A book of `rules`; a later rule for the same shop replaces an earlier one.
    public init(_ rules: [ShopRule] = []) {
        var byKey: [String: ShopRule] = [:]
        for rule in rules { byKey[PurchaseName(rule.shop).key] = rule }
        entries = byKey.filter { !$0.key.isEmpty }.map { (key: $0.key, rule: $0.value) }.sorted {
            ($0.key.count, $0.key) > ($1.key.count, $1.key)
        }
    }

    /// Whether it holds no rule.
    public var isEmpty: Bool { entries.isEmpty }

    /// The rule for a row named `name`, if any.
    public func rule(for name: String) -> ShopRule? {
        guard !entries.isEmpty else { return nil }
        let key = PurchaseName(name).key
        return entries.first { key == $0.key || ($0.key.count >= PurchaseName.shortest && key.contains($0.key)) }?.rule
    }

    /// The key a shop's rule is kept under: two names with one key are one shop.
    public static func key(_ shop: String) -> String { PurchaseName(shop).key }

    public static func == (left: ShopRuleBook, right: ShopRuleBook) -> Bool {
        left.entries.map(\.key) == right.entries.map(\.key) && left.entries.map(\.rule) == right.entries.map(\.rule)
    }
}
