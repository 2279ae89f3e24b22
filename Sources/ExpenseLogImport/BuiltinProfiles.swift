extension ImportProfile {
    /// The built-in profiles by name, written in the same JSON a profile file uses (docs/import-profiles.md shows them).
    public static let builtinSources: [String: String] = ["moneyforward": moneyForward]

    /// Every built-in profile by name, parsed once, in name order.
    public static let builtins: [(String, ImportProfile)] = builtinSources.keys.sorted().compactMap { name in
        (try? builtin(name)).flatMap { $0 }.map { (name, $0) }
    }

    /// A built-in profile, parsed from its JSON; nil for an unknown name.
    public static func builtin(_ name: String) throws -> ImportProfile? {
        guard let source = builtinSources[name] else { return nil }
        return try parse(Array(source.utf8), name: name, file: "built-in profile \(name)")
    }

    /// MoneyForward ME's 入出金 export: spending is negative, transfers and rows not counted are left out, and
    /// 大項目/中項目 map to the app's catalogue; rows of other categories (住宅, 水道・光熱費…) are left out and reported,
    /// so a profile that extends this one with rules for them imports them.
    static let moneyForward = """
        {
          "description": "MoneyForward ME export (計算対象,日付,内容,金額（円）,保有金融機関,大項目,中項目,メモ,振替,ID)",
          "columns": {"id": "ID", "date": "日付", "name": "内容", "price": ["金額（円）", "金額(円)"]},
          "invertSign": true,
          "truncateNames": true,
          "unmatched": "exclude",
          "skip": [
            {"column": "計算対象", "equals": "0", "reason": "not counted (計算対象 is 0)"},
            {"column": "振替", "equals": "1", "reason": "a transfer between accounts (振替)"},
            {"column": "大項目", "equals": "収入", "reason": "income (収入)"}
          ],
          "rules": [
            {"column": "中項目", "equals": "カフェ", "category": 0, "sub": 1},
            {"column": "中項目", "equals": "食料品", "category": 0, "sub": 0},
            {"column": "大項目", "equals": "食費", "category": 0},
            {"column": "中項目", "equals": "タバコ", "category": 1, "sub": 0},
            {"column": "大項目", "equals": "交通費", "category": 1, "sub": 1},
            {"column": "大項目", "equals": "日用品", "category": 1, "sub": 2},
            {"column": "大項目", "equals": ["趣味・娯楽", "交際費"], "category": 1}
          ]
        }
        """
}
