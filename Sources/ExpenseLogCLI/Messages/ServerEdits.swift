import ExpenseLogConfig
import ExpenseLogHTTP
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// What `delete` and `edit` share: a server that takes the extensions, and items as their questions name them.
enum ServerEdits {
    /// Checks that the server takes `action` (`EditTargets.availability`). A server without the extensions (the original
    /// script) stops the command with what to do, before anything is sent. False when the server cannot be reached to
    /// ask: the change is then queued, and `sync` asks first.
    static func requireAction(
        _ action: String, _ ledger: Ledger, _ link: ServerLink, _ context: Context
    ) async throws -> Bool {
        switch try await ledger.availability(of: action, link: link) {
        case .offered:
            return true
        case .unknown(let error):
            context.warn(String(String(describing: error).prefix { $0 != "\n" }))
            return false
        case .absent:
            context.io.stderr.write(absent(action, link.baseURL))
            throw CommandExit(code: .unavailable)
        }
    }

    /// The error for a server without the extensions (the original script): what it can do, and what to do.
    static func absent(_ action: String, _ baseURL: URL) -> String {
        if action == "payer" {
            return
                "Error: \(URLRedaction.redacted(baseURL)) does not keep who paid (the bundled script does from version 5): "
                + "nothing was changed. `expense-log server script` prints it, and docs/server.md says how to update "
                + "the deployment in place.\n"
        }
        return
            "Error: \(URLRedaction.redacted(baseURL)) is not expense-log's web app (it does not answer ?action=info as the bundled "
            + "script does), so it can fetch and register items but not \(action) them. Deploy the bundled script to add edits "
            + "and deletions: `expense-log server script` prints it, and docs/server.md walks through it.\n"
    }

    /// The items with every row typed into the sheet by hand (no id) given one first, through the bundled script, so
    /// that a change can name it; the cache follows. Giving an id needs the server: when it cannot be reached, the
    /// command stops (75) with nothing changed.
    static func withIDs(
        _ items: [Item], _ ledger: Ledger, _ link: ServerLink, _ context: Context, _ config: AppConfig
    ) async throws -> [Item] {
        guard items.contains(where: { HandTypedRow.isHandTyped($0.id) }) else { return items }
        guard try await requireAction("adopt", ledger, link, context) else {
            context.io.stderr.write(
                context.say(
                    "Error: a row typed into the sheet by hand has no id; giving it one needs the server, which could not "
                        + "be reached. Nothing was changed; try again when it answers.",
                    ja: "エラー: シートに手で入力された行には ID がなく、付けるにはサーバーが必要ですが届きません。"
                        + "何も変更していません。サーバーが応答するようになったらもう一度試してください。") + "\n")
            throw CommandExit(code: .temporaryFailure)
        }
        var adopted: [Item] = []
        for item in items {
            guard HandTypedRow.isHandTyped(item.id) else {
                adopted.append(item)
                continue
            }
            let adoption = try await ledger.adopt(item, link: link)
            let saved = adoption.item
            if let error = adoption.cacheFailure {
                context.warn(
                    context.say("the cache could not be updated: ", ja: "キャッシュを更新できません: ") + context.describe(error))
            }
            context.note(
                context.say(
                    "Gave \(describe(item, config, context)), typed into the sheet by hand, the id \(saved.id).",
                    ja: "シートに手で入力された \(describe(item, config, context)) に ID \(saved.id) を付けました。"))
            adopted.append(saved)
        }
        return adopted
    }

    /// `2024-01-05 コーヒー ¥178 (Food/Drink)`, an item as the questions name it.
    static func describe(_ item: Item, _ config: AppConfig, _ context: Context) -> String {
        PrintableText.of(
            "\(item.date) \(item.name) \(PriceText.yen(item.price)) "
                + "(\(AddCommand.describe(item.category, item.categorySub, config, context)))"
                + (item.payer.map { context.say(", paid by \($0)", ja: "、支払者 \($0)") } ?? "")
                + (item.personal ? context.say(", personal", ja: "、個人") : ""))
    }
}
