import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

/// The items a person named to `edit` or `delete`: by id, a short id, or part of a name in the months searched. Several
/// for one text are all taken with `--all`, picked from a numbered list on a terminal, and listed with their short ids
/// (nothing changed) elsewhere.
enum NamedItems {
    /// The items named, and whether any was found by its name rather than its id (shown and confirmed before a change).
    struct Found {
        var items: [Item] = []
        var byName = false
    }

    /// The items `texts` name among this month's (or `period`'s) items, cached or waiting; the months searched are
    /// fetched first when a name is looked for in one never cached. With no period, a text that names nothing this
    /// month is looked for in last month too (a statement's purchase of the 30th is edited on the 2nd), and stderr
    /// says where it was found.
    static func find(
        _ texts: [String], all: Bool, in period: Period?, _ ledger: Ledger, _ context: Context, _ config: AppConfig,
        offersAll: Bool = true
    ) async throws -> Found {
        let targets = ledger.targets(queued: EditText.waiting(context, config))
        var months = period?.months ?? [YearMonth.current()]
        var (matches, short, unknown) = try await lookup(texts, all: all, in: months, targets, context, config)
        let missing = matches.indices.filter { if case .none = matches[$0] { true } else { false } }
        if period == nil, let current = months.first, !missing.isEmpty {
            // Only what named nothing this month is looked for again: what did keeps its one match.
            months = [current.previous, current]
            let wider = try await lookup(texts, all: all, in: months, targets, context, config)
            (short, unknown) = (wider.1, wider.2)
            for index in missing {
                matches[index] = wider.0[index]
                if case let .one(item, true) = matches[index] {
                    context.note(
                        context.say(
                            "Nothing of \(current) is called \(PrintableText.of(texts[index])); found \(PrintableText.of(item.name)) of "
                                + "\(item.date) in \(current.previous).",
                            ja:
                                "\(current) に「\(PrintableText.of(texts[index]))」はありません。\(current.previous) の \(item.date) "
                                + "\(PrintableText.of(item.name)) が見つかりました。"))
                }
            }
        }
        await context.flushWarnings(ledger)
        var found = Found(), seen: Set<String> = []
        for (text, match) in zip(texts, matches) {
            switch match {
            case let .one(item, named):
                found.items.append(item)
                found.byName = found.byName || named
            case .several(let items) where all:
                found.items += items
                found.byName = true
            case .several(let items):
                found.items.append(try await pick(text, items, short, months, context, config, offersAll: offersAll))
            case .none:
                // The months could not be read: that, not the name, is what stopped the search.
                if let unknown {
                    context.io.stderr.write(
                        context.errorLine(unknown)
                            + "The items of \(describe(months)) could not be read, so \(PrintableText.of(text)) "
                            + "was looked for only among the cached and waiting ones; try again when the server answers.\n"
                    )
                    throw CommandExit(code: unknown.isTransient ? .unavailable : ExitCode(for: unknown))
                }
                context.io.stderr.write(
                    context.say(
                        "Error: no cached or waiting item has the id \(PrintableText.of(text)), and no item of "
                            + "\(describe(months)) is called like it; fetch its month first, or search another with "
                            + "--from/--to (`expense-log fetch MONTH --ids` shows each item's short id, its first 4 or more characters)",
                        ja: "エラー: ID が \(PrintableText.of(text)) の項目はキャッシュにも送信待ちにもなく、\(describe(months)) に"
                            + "その名前の項目もありません。先にその月を取得するか、--from/--to で別の月を探してください "
                            + "(`expense-log fetch 月 --ids` で短い ID を表示します)") + "\n")
                throw CommandExit(code: .dataError)
            }
        }
        found.items = found.items.filter { seen.insert($0.id).inserted }
        return found
    }

    /// What each text names in `months`, the months never cached fetched first when a text names nothing by its id.
    private static func lookup(
        _ texts: [String], all: Bool, in months: [YearMonth], _ targets: EditTargets, _ context: Context,
        _ config: AppConfig
    ) async throws -> ([TargetMatch], [String: String], MonthFailure?) {
        let first = try await targets.matches(texts, searched: Set(months), all: all)
        let uncached = months.filter { !first.cachedMonths.contains($0) }
        guard !uncached.isEmpty, first.matches.contains(where: { if case .one(_, false) = $0 { false } else { true } })
        else {
            return (first.matches, first.shortIDs, nil)
        }
        let loaded = try await context.readMonths(uncached, policy: .preferServer, strict: false).loaded
        let again = try await targets.matches(texts, searched: Set(months), all: all)
        return (again.matches, again.shortIDs, loaded.compactMap(\.missing).first)
    }

    /// The one of several items a person picks by number on a terminal; elsewhere the list, and exit 65.
    private static func pick(
        _ text: String, _ items: [Item], _ short: [String: String], _ months: [YearMonth], _ context: Context,
        _ config: AppConfig, offersAll: Bool
    ) async throws -> Item {
        let byID = items.allSatisfy { $0.id.uppercased().hasPrefix(text.uppercased()) }
        let what =
            byID
            ? context.say(
                "have ids that start with \(PrintableText.of(text))", ja: "の ID が \(PrintableText.of(text)) で始まります")
            : context.say(
                "match \(PrintableText.of(text)) (by id, or by name in \(describe(months)))",
                ja: "が \(PrintableText.of(text)) に当てはまります (ID か、\(describe(months)) の名前で)")
        let list = items.enumerated().map { number, item in
            "  \(context.canAsk ? "\(number + 1)) " : "")\(PrintableText.of(short[item.id] ?? item.id))  \(ServerEdits.describe(item, config, context))\n"
        }.joined()
        guard context.canAsk else {
            context.io.stderr.write(
                context.say(
                    "Error: \(items.count) items \(what); nothing was changed. Give "
                        + (byID ? "more of the id" : "one's short id" + (offersAll ? ", or --all for every one" : "")),
                    ja: "エラー: \(items.count)件\(what)。何も変更していません。"
                        + (byID ? "ID をもっと長く" : "短い ID を" + (offersAll ? "指定するか、すべてなら --all を" : "")) + "指定してください")
                    + ":\n" + list)
            throw CommandExit(code: .dataError)
        }
        context.io.stderr.write(
            context.say("\(items.count) items \(what):", ja: "\(items.count)件\(what):") + "\n" + list)
        while true {
            guard
                let answer = try await context.ask(
                    context.say("Which one? 1-\(items.count), Enter for none", ja: "どれですか? 1-\(items.count)、Enter でやめる")
                ),
                !answer.isEmpty
            else {
                context.io.stderr.write(context.say("Nothing was changed.", ja: "何も変更していません。") + "\n")
                throw CommandExit(code: .failure)
            }
            let number = Int(answer.precomposedStringWithCompatibilityMapping) ?? 0
            if items.indices.contains(number - 1) { return items[number - 1] }
            context.refuseAnswer(
                "'\(PrintableText.of(answer))' is none of 1-\(items.count)\(byID || !offersAll ? "" : "; --all takes every one")"
            )
        }
    }

    /// `2024-01`, or `2024-01 to 2024-03`: the months a name is searched in.
    private static func describe(_ months: [YearMonth]) -> String {
        guard let first = months.first, let last = months.last else { return "this month" }
        return first == last ? first.description : "\(first) to \(last)"
    }
}
