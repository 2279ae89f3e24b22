import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// How the `recurring` commands read and change the rules where they are kept, and find the one a person names.
extension RecurringCommand {
    /// The rules where they are kept, with a note when only this machine's copy could be read.
    static func rules(_ context: Context) async throws -> RecurringRules {
        let ledger = try context.ledger()
        let read = try await ledger.recurringRules(link: try ledger.link(queuesUnreachable: true))
        if let error = read.unreachable {
            context.warn(
                String(context.describe(error).prefix { $0 != "\n" })
                    + context.say(
                        "; the fixed costs are this machine's last copy of the server's",
                        ja: "。固定費はこのマシンに保存した最後の写しです"))
        }
        for notice in read.notices { context.warn(notice) }
        return read
    }

    /// Changes the rules where they are kept; 75 when the server cannot be reached (nothing changed).
    static func change(put: [RecurringRule], remove: [String], _ context: Context) async throws -> RecurringRules {
        let ledger = try context.ledger()
        do {
            return try await ledger.changeRules(put: put, remove: remove, link: try ledger.link())
        } catch RuleChangeError.unreachable(let error) {
            context.io.stderr.write(
                context.errorLine(error)
                    + context.say(
                        "Nothing was changed: the fixed costs are kept on the server; run the command again when it "
                            + "can be reached.\n",
                        ja: "何も変更していません。固定費はサーバーに保存されます。接続できるときにもう一度実行してください。\n"))
            throw CommandExit(code: .temporaryFailure)
        }
    }

    /// A usage error when another rule has `rule`'s name (widths, case and kana folded): `edit NAME` must find one.
    static func refuseTwin(of rule: RecurringRule, in rules: [RecurringRule], _ context: Context) throws {
        let name = NameFolding.fold(rule.name)
        guard let twin = rules.first(where: { $0.id != rule.id && NameFolding.fold($0.name) == name }) else { return }
        throw UsageError(
            path: context.invocation.path,
            message: "a fixed cost is already called \(PrintableText.of(twin.name)) (\(twin.id.prefix(8))); "
                + "`expense-log recurring edit` changes it, or give this one another name")
    }

    /// The one rule `text` names: its id or an id's prefix, or its name (widths, case and kana folded); a usage error
    /// naming the rules otherwise.
    static func find(_ text: String, in rules: [RecurringRule], _ context: Context) throws -> RecurringRule {
        let wanted = NameFolding.fold(text.trimmingSpaces())
        if let rule = rules.first(where: { $0.id == text }) { return rule }
        var found = rules.filter { NameFolding.fold($0.name) == wanted }
        if found.isEmpty { found = rules.filter { $0.id.lowercased().hasPrefix(text.lowercased()) && text.count >= 4 } }
        if found.isEmpty { found = rules.filter { NameFolding.fold($0.name).contains(wanted) && !wanted.isEmpty } }
        if found.count == 1 { return found[0] }
        let listing = rules.map { "\($0.name) (\($0.id.prefix(8)))" }.joined(separator: ", ")
        throw UsageError(
            path: context.invocation.path,
            message: found.isEmpty
                ? "no fixed cost is \(PrintableText.of(text))"
                    + (rules.isEmpty ? "; `expense-log recurring add` adds one" : " (they are: \(listing))")
                : "\(PrintableText.of(text)) names \(found.count) fixed costs; give an id: "
                    + found.map { "\($0.name) (\($0.id.prefix(8)))" }.joined(separator: ", "))
    }
}
