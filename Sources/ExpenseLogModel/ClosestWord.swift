/// The word a typo most likely meant, for "did you mean" (a command, an option, a category, a date word, a config key),
/// as git and swift-argument-parser suggest one.
public enum ClosestWord {
    /// The closest of `words` to `given` within a couple of edits (a third of the word at most), case ignored; nil when
    /// none is that close, or `given` is one of them (`baseurl` is taken for `baseURL`).
    public static func to(_ given: String, among words: some Sequence<String>) -> String? {
        let scored = words.map { ($0, distance(given.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.0 != given, best.1 <= max(1, min(2, given.count / 3))
        else { return nil }
        return best.0
    }

    /// The Levenshtein distance, with a swap of two neighbours counted as one edit (`feth`, `fecth`).
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                rows[i][j] = min(
                    rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }
}
