import Foundation

/// The fields of an item, as named on the wire and in a profile's `columns`.
public enum ItemField: String, Sendable, CaseIterable {
    /// `id`.
    case id
    /// `date`.
    case date
    /// `name`.
    case name
    /// `price`.
    case price
    /// `category`.
    case category
    /// `categorySub`.
    case categorySub

    /// Its place in `allCases`, for tables indexed by field (hashing a field hashes its name).
    public var ordinal: Int {
        switch self {
        case .id: 0
        case .date: 1
        case .name: 2
        case .price: 3
        case .category: 4
        case .categorySub: 5
        }
    }
}
