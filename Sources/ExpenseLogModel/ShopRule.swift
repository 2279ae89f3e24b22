import Foundation

/// A person's rule for a shop: its rows take this category (and sub), or are transfers between their own accounts.
public struct ShopRule: Codable, Sendable, Equatable {
    /// The shop's name as the person wrote it (`東京電力`, `ENEOS`).
    public let shop: String
    /// The category number, nil for a transfer.
    public let category: Int?
    /// The sub-category number, if any.
    public let sub: Int?
    /// Whether the shop's rows are money moved between one's own accounts, not spending.
    public let transfer: Bool

    /// A rule giving a category, or (`transfer`) marking the shop's rows as transfers.
    public init(shop: String, category: Int?, sub: Int?, transfer: Bool = false) {
        (self.shop, self.category, self.sub, self.transfer) = (shop, category, sub, transfer)
    }

    private enum CodingKeys: String, CodingKey { case shop, category, sub, transfer }

    /// Reads a rule, `transfer` false when absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        shop = try container.decode(String.self, forKey: .shop)
        category = try container.decodeIfPresent(Int.self, forKey: .category)
        sub = try container.decodeIfPresent(Int.self, forKey: .sub)
        transfer = try container.decodeIfPresent(Bool.self, forKey: .transfer) ?? false
    }
}
