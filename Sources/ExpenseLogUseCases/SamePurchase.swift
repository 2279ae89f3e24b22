import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// `same A B`: two items a person says are one purchase. The typed one (a random id: the app's or `add`'s) is kept,
/// the statement's row goes, and the decision is kept so that importing the statement again does not bring it back.
public struct SamePurchase: Sendable {
    /// Where the decision is kept.
    public let decisions: ImportDecisions

    /// A decision kept in `decisions`.
    public init(decisions: ImportDecisions) {
        self.decisions = decisions
    }

    /// Which of two items is kept: the typed one when one is typed and the other a statement's row, else the first.
    public static func order(_ first: Item, _ second: Item) -> (keep: Item, drop: Item) {
        RandomID.isTyped(second.id) && !RandomID.isTyped(first.id) ? (second, first) : (first, second)
    }

    /// Keeps the decision that `dropped`'s row is the purchase `kept` is: a later import of its statement matches it to
    /// `kept` and sends nothing.
    public func record(kept: Item, dropped: Item, today: Day = Day.today()) async throws {
        try await decisions.record([dropped.id: RowDecision(.same, item: kept.id, by: .person, on: today.description)])
    }
}
