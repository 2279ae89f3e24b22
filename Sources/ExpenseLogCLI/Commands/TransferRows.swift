/// What an import does with money moved between the household's own accounts (`--transfers`).
enum TransferRows: String, CaseIterable, Sendable {
    /// Leave it out: the card's or the wallet's own statement has the purchases it paid for.
    case skip
    /// Import it as spending: for a household that does not import that card or wallet.
    case keep
}
