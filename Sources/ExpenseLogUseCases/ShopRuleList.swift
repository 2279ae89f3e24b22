import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// `rule add|list|remove`: the person's shop rules of an environment, one rule per shop (two names with one folded
/// key are one shop).
public struct ShopRuleList: Sendable {
    /// Where they are kept.
    public let store: ShopRules

    /// The rules kept in an environment's state folder.
    public init(store: ShopRules) {
        self.store = store
    }

    /// Every rule, in the order they were added.
    public func all() throws -> [ShopRule] {
        try store.load()
    }

    /// Adds `rule`, replacing the shop's earlier one; returns whether one was replaced.
    public func add(_ rule: ShopRule) async throws -> Bool {
        let key = ShopRuleBook.key(rule.shop)
        return try await store.update { rules in
            let before = rules.count
            rules.removeAll { ShopRuleBook.key($0.shop) == key }
            rules.append(rule)
            return rules.count == before
        }
    }

    /// Removes the rule for `shop`; returns it, nil when there was none.
    public func remove(_ shop: String) async throws -> ShopRule? {
        let key = ShopRuleBook.key(shop)
        return try await store.update { rules in
            let gone = rules.first { ShopRuleBook.key($0.shop) == key }
            rules.removeAll { ShopRuleBook.key($0.shop) == key }
            return gone
        }
    }

    /// Whether `shop` has a name a rule can be kept under (not only spaces and a branch).
    public static func isNamed(_ shop: String) -> Bool {
        !ShopRuleBook.key(shop).isEmpty
    }
}
