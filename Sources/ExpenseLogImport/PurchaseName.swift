import ExpenseLogModel

/// A purchase's name as statement matching compares it: NFKC, case and kana folded, the branch a statement adds
/// (`まいばすけっと 中目黒1丁目店` → `まいばすけっと`) left out, spaces dropped.
public struct PurchaseName: Sendable, Equatable {
    /// The folded name without its branch and spaces.
    public let key: String
    /// Its first word, folded (`ラーメン一蘭` of `ﾗｰﾒﾝ一蘭 渋谷店`): what names a shop when a statement adds more.
    public let firstWord: String

    /// Words that end a statement's branch suffix: `渋谷店`, `新宿支店`, `3号店`, `本店`, and in kana, as half-width
    /// statements print it and folding leaves it (`ﾅｶﾒｸﾞﾛ1ﾁｮｳﾒﾃﾝ` → `なかめぐろ1ちょうめてん`).
    static let branchEndings = ["店", "支店", "号店", "営業所", "出張所", "売店", "てん"]

    /// The name of `text` as a person or a statement wrote it.
    public init(_ text: String) {
        var words = CellFolding.fold(text.trimmingSpaces()).split(whereSeparator: { $0 == " " || $0 == "\u{3000}" })
            .map(String.init)
        // A branch is a later word (never the whole name): `渋谷店` in `ラーメン一蘭 渋谷店`, not `本店` alone.
        while words.count > 1, let last = words.last, Self.branchEndings.contains(where: last.hasSuffix) {
            words.removeLast()
        }
        key = words.joined()
        firstWord = words.first ?? ""
    }

    /// A shop's name as messages show it: NFKC, case kept, its branch left out (`セブン-イレブン` of
    /// `セブン－イレブン　目黒店`).
    public static func shown(_ text: String) -> String {
        var words = NameFolding.compatible(text.trimmingSpaces()).split(whereSeparator: {
            $0 == " " || $0 == "\u{3000}"
        }).map(String.init)
        while words.count > 1, let last = words.last, branchEndings.contains(where: NameFolding.fold(last).hasSuffix) {
            words.removeLast()
        }
        return words.joined(separator: " ")
    }

    /// The shortest name that counts when another name contains it or begins with it: one character (`本`) is in too
    /// many names to mean anything.
    static let shortest = 2
    /// The leading run two unrelated-looking names must share (`スターバ…`): long enough to name a shop.
    static let sharedRun = 3

    /// How closely two names name the same purchase: 0 the same, 1 one contains the other, 2 a shared first word or a
    /// leading run of `sharedRun` characters; nil when unrelated.
    public func distance(to other: PurchaseName) -> Int? {
        guard !key.isEmpty, !other.key.isEmpty else { return nil }
        if key == other.key { return 0 }
        let (short, long) = key.count <= other.key.count ? (key, other.key) : (other.key, key)
        if short.count >= Self.shortest, long.contains(short) { return 1 }
        if firstWord.count >= Self.shortest, firstWord == other.firstWord { return 2 }
        if zip(key, other.key).prefix(while: { $0 == $1 }).count >= Self.sharedRun { return 2 }
        return nil
    }
}
