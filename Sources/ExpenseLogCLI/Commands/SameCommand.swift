import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// `same A B`: says two items are one purchase; keeps the typed one and deletes the other, remembering the decision.
struct SameCommand: ParsableCommand {
    @Flg("yes", short: "y", help: "Do it without asking (needed when stdin is not a terminal).") var yes: Bool
    @Flg("statement-date", help: "Give the item kept the other's date (the day the card or bank booked the purchase).")
    var statementDate: Bool
    @Opt(CommonOptions.from) var from: String?
    @Opt(CommonOptions.to) var to: String?
    @Arg("first", help: "One item: its id, the first 4 or more characters of it (fetch --ids), or part of its name.")
    var first: String
    @Arg("second", help: "The other item, named the same ways.") var second: String

    static let about = CommandAbout(
        name: "same",
        abstract: "Say two items are one purchase: keep one, delete the other, and remember it for later imports.",
        discussion: """
            For a purchase entered twice that matching could not tell (typed as 本, booked as 紀伊國屋書店 新宿本店 \
            two days later; imported with --ambiguous new by mistake). The typed item (the app's or add's: a \
            random id) is kept and the statement's row deleted; of two typed or two statement items, the first \
            named is kept. The decision is kept with the import decisions, so importing the statement again \
            does not bring the row back. Items are named as edit and delete name them (this month, else last \
            month, or --from/--to). The deletion goes through the queue of changes as `delete` does (it needs \
            the bundled web app).

            EXAMPLES:
              expense-log same 本 紀伊國屋
              expense-log same 7B2A 0C41 --statement-date --yes
            """)

    func run(_ context: Context) async throws -> ExitCode {
        let config = try context.config()
        let period = try CommonOptions.range(from: from, to: to, context)
        let (ledger, link) = (try context.ledger(), try context.link())
        let a = try await NamedItems.find([first], all: false, in: period, ledger, context, config, offersAll: false)
            .items
        let b = try await NamedItems.find([second], all: false, in: period, ledger, context, config, offersAll: false)
            .items
        guard let one = a.first, let other = b.first, one.id != other.id else {
            throw UsageError(
                path: context.invocation.path,
                message: "\(PrintableText.of(first)) and \(PrintableText.of(second)) name one item; name two")
        }
        let named = SamePurchase.order(one, other)
        // Two purchases typed with different amounts are two purchases: `same` folds one entered twice, it does not delete.
        if RandomID.isTyped(one.id), RandomID.isTyped(other.id), one.price != other.price {
            let (first, second) = (
                ServerEdits.describe(one, config, context), ServerEdits.describe(other, config, context)
            )
            context.io.stderr.write(
                context.say(
                    "Error: \(first) and \(second) were both typed, with different amounts: two purchases, not one "
                        + "entered twice. Nothing was changed; `expense-log delete` removes one you did not make.",
                    ja: "エラー: \(first) と \(second) はどちらも入力された金額の違う項目で、二重に入った一つの買い物ではなく"
                        + "二つの買い物です。何も変更していません。していない買い物は `expense-log delete` で削除してください。") + "\n")
            throw CommandExit(code: .dataError)
        }
        if named.keep.price != named.drop.price {
            context.warn(
                context.say(
                    "their amounts differ (\(PriceText.yen(named.keep.price)) and \(PriceText.yen(named.drop.price))); the kept one's stays",
                    ja: "金額が違います (\(PriceText.yen(named.keep.price)) と \(PriceText.yen(named.drop.price)))。残す方の金額のままです")
            )
        }
        let reachable = try await ServerEdits.requireAction("delete", ledger, link, context)
        if !yes {
            guard context.canAsk else {
                throw UsageError(
                    path: context.invocation.path, message: "same needs --yes when stdin is not a terminal")
            }
            context.io.stderr.write(
                "  " + context.say("keep  ", ja: "残す") + "  \(ServerEdits.describe(named.keep, config, context))\n  "
                    + context.say("delete", ja: "削除") + "  \(ServerEdits.describe(named.drop, config, context))\n")
            let question = context.say(
                "One purchase: keep the first, delete the second"
                    + (statementDate ? " (the first taking its date)?" : "?"),
                ja: "同じ買い物として、上を残し下を削除しますか" + (statementDate ? " (上の日付は下のものに)?" : "?"))
            guard try await context.confirm(question, yesByDefault: false) else {
                context.io.stderr.write(context.say("Nothing was changed.", ja: "何も変更していません。") + "\n")
                throw CommandExit(code: .failure)
            }
        }
        // A row typed into the sheet by hand has no id a change could name: it gets one first, once agreed.
        let (keep, drop) =
            try await ServerEdits.withIDs([named.keep, named.drop], ledger, link, context, config).pair ?? named
        var waiting: CommandExit?
        do {
            try await EditText.submit(.delete([drop]), reachable: reachable, link: link, context, config)
        } catch let exit as CommandExit where exit.code == .temporaryFailure {
            waiting = exit
        }
        // Kept whether the deletion went out or waits in the queue; it replaces the deletion's "skip", saying more.
        try await context.ledger().samePurchase.record(kept: keep, dropped: drop)
        if statementDate, keep.date != drop.date {
            var changed = keep
            changed.date = drop.date
            try await EditText.submit(
                .update(item: keep, changed: changed, fields: [.date]), reachable: reachable && waiting == nil,
                link: link, context, config)
        }
        if let waiting { throw waiting }
        return .success
    }
}

extension Array {
    /// The two elements of a two-element array.
    fileprivate var pair: (Element, Element)? { count == 2 ? (self[0], self[1]) : nil }
}
