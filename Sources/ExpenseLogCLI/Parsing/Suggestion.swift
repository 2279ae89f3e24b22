import ExpenseLogModel

/// "Did you mean" for a mistyped command, option or value, as git and swift-argument-parser offer it.
enum Suggestion {
    /// `. Did you mean 'fetch'?` for the closest word within a couple of edits (`ClosestWord`), or "".
    static func didYouMean(_ given: String, among words: [String]) -> String {
        ClosestWord.to(given, among: words).map { ". Did you mean '\($0)'?" } ?? ""
    }
}
