extension ImportProfile {
    /// The built-in profiles by name, written in the same JSON a profile file uses (docs/import-profiles.md shows them).
    public static let builtinSources: [String: String] = [
        "moneyforward": moneyForward, "vpass": vpass, "rakuten-card": rakutenCard,
        "paypay": payPay, "mufg": mufg, "yucho": yucho, "smbc": smbc,
    ]

    /// Every built-in profile by name, parsed once, in name order.
    public static let builtins: [(String, ImportProfile)] = builtinSources.keys.sorted().compactMap { name in
        (try? builtin(name)).flatMap { $0 }.map { (name, $0) }
    }

    /// A built-in profile, parsed from its JSON; nil for an unknown name.
    public static func builtin(_ name: String) throws -> ImportProfile? {
        guard let source = builtinSources[name] else { return nil }
        var profile = try parse(Array(source.utf8), name: name, file: "built-in profile \(name)")
        // The card or account its statements are of: its name (a profile file extending it keeps it, or sets its own).
        profile.account = profile.account ?? name
        return profile
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
            {"column": "大項目", "equals": "収入", "reason": "income (収入)"}
          ],
          "transfers": [
            {"column": "振替", "equals": "1", "reason": "a transfer between your own accounts (振替)"}
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

    /// How banks print the card companies whose bills they debit, as a `regex` over folded text (half-width kana and
    /// full-width letters made ordinary, katakana as hiragana, so `ﾐﾂｲｽﾐﾄﾓｶｰﾄﾞ`, `ミツイスミトモカ－ド` and `ﾗｸﾃﾝｶ-ﾄﾞｻｰﾋﾞｽ` all
    /// match). `カード` counts only as a name's last word, so that a shop such as カードラボ paid with a debit card stays
    /// spending. The JSON text escapes its backslashes (`\\s` is `\s`).
    static let cardBills =
        #"カ[ー-]ド(サ[ー-]ビス)?($|\\s|\\()|クレジツト|クレデイセゾン|セゾン|JCB|ジエ[ー-]シ[ー-]ビ[ー-]|エポス|アメリカンエキスプレス|アメツクス|ダイナ[ー-]スクラブ|オリコ|ニコス|アプラス|ジヤツクス"#

    /// How banks and wallets print a top-up of a wallet (PayPay, Suica, 楽天Edy…): money moved, spent later.
    /// Short names (`EDY`, `LINE PAY`) only as words of their own, so that `SPEEDY` or `ONLINE PAYMENT` stays spending.
    static let topUps =
        #"チヤ[ー-]ジ|PAYPAY|ペイペイ|SUICA|スイカ|(^|\\s|・|楽天)EDY|エデイ|PASMO|パスモ|NANACO|ナナコ|(^|\\s)WAON|ワオン|ラクテンキヤツシユ|楽天キャッシュ|メルペイ|(^|\\s)LINE ?PAY"#

    /// What every built-in statement profile says: rows of another shape and rows of no amount are left out, names cut
    /// to fit, and a shop's category learned from history (else 0).
    static let statementKeys =
        #""otherShapes": "skip", "noAmount": "skip", "truncateNames": true, "categories": "learn", "defaultCategory": 0"#

    /// 三井住友カード's Vpass statement (確定明細): no header row, a card-holder row opening each card's section, total rows.
    static let vpass = """
        {
          "description": "三井住友カード Vpass statement (no header: 利用日,利用店名,利用金額,支払区分,今回回数,今回支払金額,備考)",
          "source": "Vpass's CSV download of a settled statement, as public converters document it (vpass-csv-converter on GitHub): Shift_JIS, no header row; a card-holder row (氏名 様,カード番号,カード名) opens each card's section, again for iD or Apple Pay; total rows with no date end the file. Left out: those rows (another shape) and rows of 0 yen (a waived annual fee). 分割 and ボーナス purchases are registered once, for 利用金額 (the full amount) on the purchase date; a later statement's row of the same purchase has the same content, so the same id, and is skipped.",
          "encoding": "shift_jis",
          "header": ["利用日", "利用店名", "利用金額", "支払区分", "今回回数", "今回支払金額", "備考"],
          "columns": {"date": "利用日", "name": "利用店名", "price": "利用金額"},
          \(statementKeys)
        }
        """

    /// 楽天カード's e-NAVI statement: two columns titled by the month, which change every month and are not read.
    static let rakutenCard = """
        {
          "description": "楽天カード e-NAVI statement (利用日,利用店名・商品名,利用者,支払方法,利用金額,支払手数料,支払総額,…)",
          "source": "e-NAVI's CSV of a month's statement, as public importers document it: a header row whose 8th and 9th titles name months (11月支払金額, 12月繰越残高) and change every month, so they are not read. 利用金額 is the purchase's full amount (分割 and リボ too), registered once on 利用日. Left out: rows with no date (adjustments), and rows of 0 yen.",
          "columns": {"date": "利用日", "name": "利用店名・商品名", "price": "利用金額"},
          \(statementKeys)
        }
        """

    /// PayPay's 取引履歴: payments and their refunds; charges, transfers and money received are not spending.
    static let payPay = """
        {
          "description": "PayPay 取引履歴 (取引日,出金金額（円）,入金金額（円）,…,取引内容,取引先,取引方法,支払い区分,利用者,取引番号)",
          "source": "The PayPay app's CSV of its transaction history, as public converters document it: `-` where a column has no amount; 取引先 names the shop (取引内容 only says 支払い). A payment is 出金金額, a refund (返金) comes back as 入金金額 and is registered as a negative amount. A チャージ (a top-up) is a transfer, left out unless --transfers keep. A 返金 carries the 取引番号 of the payment it refunds: its item's id is that number with -R. Left out: 送金 and 受け取り (money sent to or received from people), ポイント, and rows with no amount.",
          "columns": {"id": "取引番号", "date": "取引日", "name": ["取引先", "取引内容"],
                      "price": {"out": ["出金金額（円）", "出金金額(円)"], "in": ["入金金額（円）", "入金金額(円)"]}},
          "refundIDSuffix": "-R",
          "transfers": [
            {"column": "取引内容", "contains": "チャージ", "reason": "a top-up of PayPay 残高 (チャージ): the money's spending is the payments"}
          ],
          "skip": [
            {"column": "取引内容", "contains": "送金", "reason": "money sent to a person (送金)"},
            {"column": "取引内容", "contains": "受け取", "reason": "money received (受け取り)"},
            {"column": "取引内容", "contains": "ポイント", "reason": "points (ポイント)"}
          ],
          \(statementKeys)
        }
        """

    /// 三菱UFJ銀行's 入出金明細: debit-card purchases and their cancellations, direct debits; money in is no spending.
    static let mufg = """
        {
          "description": "三菱UFJ銀行 入出金明細 (日付,摘要,摘要内容,支払い金額,預かり金額,差引残高,…)",
          "source": "The 入出金明細 CSV of 三菱UFJ銀行's online banking (Shift_JIS): 摘要 is the kind of entry (デビット, 口座振替, カード, 振込…) and 摘要内容 the counterparty, sometimes empty, when 摘要 names the row. A debit card's cancellation (取消) comes back as 預かり金額 and is taken off as a refund; other money in (a salary, a transfer) is not spending and is left out. Transfers between the household's own accounts are left out unless --transfers keep: ATM withdrawals (摘要 カード or カードC1: the cash's purchases are the spending), card bills (摘要内容 naming a card company, in half- or full-width: the card's own statement has the purchases), wallet top-ups (PayPay, Suica, 楽天Edy…) and 振替. Left out too: rows with no amount.",
          "encoding": "shift_jis",
          "columns": {"date": "日付", "name": ["摘要内容", "摘要"], "price": {"out": ["支払い金額", "お支払金額"], "in": ["預かり金額", "お預り金額"]}},
          "refunds": {"column": "摘要", "contains": "デビット"},
          "transfers": [
            {"column": "摘要", "regex": "^カ[ー-]ド(C[0-9]*)?$", "reason": "cash from an ATM (カード): what the cash buys is the spending"},
            {"column": "摘要内容", "regex": "\(cardBills)", "reason": "a card's bill: the card's own statement has its purchases"},
            {"column": "摘要内容", "regex": "\(topUps)", "reason": "a wallet's top-up: the wallet's own statement has its purchases"},
            {"column": "摘要", "regex": "^(振替|フリカエ)", "reason": "a transfer between your own accounts (振替)"}
          ],
          \(statementKeys)
        }
        """

    /// ゆうちょ銀行's 入出金明細 from ゆうちょダイレクト: seven lines about the account before the header.
    static let yucho = """
        {
          "description": "ゆうちょ銀行 入出金明細 (取引日,入出金明細ＩＤ,受入金額（円）,払出金額（円）,詳細１,詳細２,現在（貸付）高)",
          "source": "ゆうちょダイレクト's CSV of an account's 入出金明細, as public converters document it (yuucho-to-freee on GitHub): Shift_JIS, seven lines about the account (お客さま口座情報, 現在高, 出力日時…) before the header, dates as yyyyMMdd, 詳細１ the kind of entry (自払, カード, 手数料, 振込) and 詳細２ the counterparty, sometimes empty. 入出金明細ＩＤ becomes the item's id. Transfers between the household's own accounts are left out unless --transfers keep: ATM withdrawals (詳細１ カード), card bills and wallet top-ups (詳細２ naming the card company or the wallet) and 振替. Left out: money in (受入金額: a salary, a transfer) unless it is a debit card's refund, and rows with no amount.",
          "encoding": "shift_jis",
          "skipRows": 7,
          "columns": {"id": "入出金明細ＩＤ", "date": "取引日", "name": ["詳細２", "詳細１"],
                      "price": {"out": "払出金額（円）", "in": "受入金額（円）"}},
          "refunds": {"column": "詳細１", "contains": "デビット"},
          "transfers": [
            {"column": "詳細１", "regex": "^カ[ー-]ド(C[0-9]*)?$", "reason": "cash from an ATM (カード): what the cash buys is the spending"},
            {"column": "詳細２", "regex": "\(cardBills)", "reason": "a card's bill: the card's own statement has its purchases"},
            {"column": "詳細２", "regex": "\(topUps)", "reason": "a wallet's top-up: the wallet's own statement has its purchases"},
            {"column": "詳細１", "regex": "^(振替|フリカエ)", "reason": "a transfer between your own accounts (振替)"}
          ],
          \(statementKeys)
        }
        """

    /// 三井住友銀行's 入出金明細: one column for what the entry is, money out and money in apart.
    static let smbc = """
        {
          "description": "三井住友銀行 入出金明細 (年月日,お引出し,お預入れ,お取り扱い内容,残高)",
          "source": "SMBC Direct's CSV of an account's 明細, as public parsers document it: CP932, 年月日,お引出し,お預入れ,お取り扱い内容,残高 (メモ and ラベル may follow), the header found among the first lines. A deposit is money in: a debit card's refund (お取り扱い内容 naming デビット) is taken off, any other (a salary, a transfer) is left out. Transfers between the household's own accounts are left out unless --transfers keep: ATM withdrawals, card bills (お取り扱い内容 naming a card company), wallet top-ups and 振替. Left out too: rows with no amount.",
          "encoding": "shift_jis",
          "columns": {"date": "年月日", "name": "お取り扱い内容", "price": {"out": "お引出し", "in": "お預入れ"}},
          "refunds": {"column": "お取り扱い内容", "contains": "デビット"},
          "transfers": [
            {"column": "お取り扱い内容", "regex": "^(ATM|カ[ー-]ド(C[0-9]*)?$)", "reason": "cash from an ATM: what the cash buys is the spending"},
            {"column": "お取り扱い内容", "regex": "\(cardBills)", "reason": "a card's bill: the card's own statement has its purchases"},
            {"column": "お取り扱い内容", "regex": "\(topUps)", "reason": "a wallet's top-up: the wallet's own statement has its purchases"},
            {"column": "お取り扱い内容", "regex": "^(振替|フリカエ)", "reason": "a transfer between your own accounts (振替)"}
          ],
          \(statementKeys)
        }
        """
}
