import Foundation

/// What was decided about a statement row that matched, or might have matched, an item already there.
public struct RowDecision: Codable, Sendable, Equatable {
    /// The decision.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// The same purchase as `item`: the row is not sent.
        case same
        /// A purchase of its own: the row is sent (once: its id is then on the server).
        case new
        /// Neither sent nor asked about again.
        case skip
    }

    /// Who decided.
    public enum Source: String, Codable, Sendable {
        /// The matching rule, on its own.
        case rule
        /// A person, asked on a terminal.
        case person
        /// The command line's `--ambiguous`.
        case flag
        /// A person deleted the row's item (`delete`): importing it again would bring it back.
        case deletion
    }

    /// The decision.
    public let decision: Kind
    /// The id of the item a `same` row is, when known.
    public let item: String?
    /// Who decided.
    public let by: Source
    /// The day it was decided (`2026-11-25`).
    public let on: String

    /// A decision.
    public init(_ decision: Kind, item: String?, by: Source, on: String) {
        (self.decision, self.item, self.by, self.on) = (decision, item, by, on)
    }
}
