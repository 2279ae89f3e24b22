import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogUseCases

/// What a statement row that may be an item already there becomes (`--ambiguous`).
enum AmbiguousRows: String, CaseIterable, Sendable {
    /// Ask a person, row by row (on a terminal).
    case ask
    /// Send nothing for it, list it, exit 4.
    case hold
    /// A purchase of its own: send it.
    case new
    /// The same purchase as its closest candidate: do not send it.
    case same
    /// Leave it out, and do not ask again.
    case skip
}

/// `register`'s held rows: the question a person answers for each on a terminal, and the list (with the command that
/// decides them) when nobody is asked.
struct HeldRowsText {
    let mode: AmbiguousRows
    let context: Context
    let progress: ProgressLine
    let options: RegisterOptions

    /// The mode `options` and the terminal give: ask on a terminal, hold elsewhere; a dry run asks nothing.
    init(options: RegisterOptions, context: Context, progress: ProgressLine) throws {
        var mode = options.ambiguous ?? (context.canAsk ? .ask : .hold)
        if options.dryRun, mode == .ask { mode = .hold }
        if mode == .ask, !context.canAsk {
            throw UsageError(
                path: ["register"],
                message: "--review asks on a terminal, and stdin or stderr is not one; "
                    + "give --ambiguous new, same or skip to decide every such row")
        }
        (self.mode, self.context, self.progress, self.options) = (mode, context, progress, options)
    }

    /// Who the decisions are kept as made by.
    var source: RowDecision.Source { mode == .ask ? .person : .flag }

    /// The decision about one row: the mode's, or a person's answer; nil holds it back.
    func decide(_ held: HeldRow) async throws -> HeldChoice? {
        switch mode {
        case .hold: return nil
        case .new: return .new
        case .skip: return .skip
        case .same: return held.candidates.first.map(HeldChoice.same)
        case .ask: return try await ask(held)
        }
    }

    private func ask(_ held: HeldRow) async throws -> HeldChoice? {
        progress.clear()
        var text =
            "\(held.location): \(Self.describe(held.item)) "
            + context.say("may be the same purchase as:", ja: "は次と同じ買い物かもしれません:") + "\n"
        for (number, candidate) in held.candidates.enumerated() {
            text += "  \(number + 1)) \(Self.describe(candidate.item)) \(Self.place(candidate))\n"
        }
        context.io.stderr.write(text)
        let numbers = held.candidates.count == 1 ? "1" : "1-\(held.candidates.count)"
        var question = context.say(
            "The same purchase (\(numbers)), a new purchase (n), or skip this row (s)? Enter decides later",
            ja: "同じ買い物 (\(numbers))、別の買い物 (n)、この行を飛ばす (s)? Enter で後で決める")
        while true {
            guard let answer = try await context.ask(question), !answer.isEmpty else { return nil }
            switch answer.lowercased() {
            case "n", "new": return .new
            case "s", "skip": return .skip
            default:
                if let number = Int(answer), held.candidates.indices.contains(number - 1) {
                    return .same(held.candidates[number - 1])
                }
                question = context.say(
                    "Answer \(numbers), n or s (Enter decides later)", ja: "\(numbers)、n、s のどれかで答えてください (Enter で後で決める)")
            }
        }
    }

    /// Lists the rows held back and says how to decide them.
    func list(_ held: [ImportRecord.Row]) {
        guard !held.isEmpty else { return }
        progress.clear()
        var text =
            context.say(
                "Held \(held.count) row\(held.count == 1 ? "" : "s") that may be items already there; "
                    + "\(held.count == 1 ? "it was" : "they were") not sent:",
                ja: "登録済みの項目かもしれない\(held.count)行を保留しました。送信していません:") + "\n"
        for row in held {
            let item = row.item.map(Self.describe) ?? "a row"
            let candidates = row.candidates.map { "\(Self.describe($0.item)) \(place($0))" }.joined(
                separator: context.say(", or ", ja: "、または "))
            // A row naming a fixed cost with another amount has no item it may be, but a reason (a raised fee).
            text +=
                "  \(row.location): "
                + (row.candidates.isEmpty
                    ? "\(item): \(row.reasons.joined(separator: "; "))"
                    : context.say("\(item) may be \(candidates)", ja: "\(item) は \(candidates) かもしれません")) + "\n"
        }
        // A shell reads the command as shown: a word with a space or a quote is quoted; the options that read the
        // inputs come along, so the next run finds the same rows.
        let words = (options.rereading + options.paths.map(\.path)).map { word in
            let shown = ArgumentBytes.display(word)
            return shown.contains(where: { " \t'\"\\$`!*?[](){}<>|&;#~".contains($0) }) ? shown.shellQuoted : shown
        }.joined(separator: " ")
        let fromStdin = options.paths.contains { $0.path == "-" }
        text +=
            context.say(
                (fromStdin ? "Save standard input to a file, then decide on a terminal" : "Decide on a terminal")
                    + " with `expense-log register \(words) --review`, or all at once with "
                    + "--ambiguous new (send them), same (they are the items above) or skip.",
                ja: (fromStdin ? "標準入力をファイルに保存してから、" : "") + "端末で `expense-log register \(words) --review` で決めるか、"
                    + "--ambiguous new (送る)、same (上の項目と同じ)、skip でまとめて決めてください。") + "\n"
        context.io.stderr.write(text)
    }

    /// `2024-11-19 まいばすけっと ¥1,280 (id 1000…)`, control characters shown as `�`.
    static func describe(_ item: Item) -> String {
        PrintableText.of("\(item.date) \(item.name) \(PriceText.yen(item.price))")
    }

    static func place(_ known: KnownItem) -> String {
        "(\(known.place == .server ? "on the server" : "waiting in the outbox"), id \(PrintableText.of(known.item.id)))"
    }

    /// Where a candidate is, in the person's language.
    func place(_ known: KnownItem) -> String {
        context.japanese
            ? "(\(known.place == .server ? "サーバー上" : "送信待ち")、ID \(PrintableText.of(known.item.id)))" : Self.place(known)
    }
}
