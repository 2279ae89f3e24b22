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
}
