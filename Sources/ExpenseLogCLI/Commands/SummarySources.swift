import ExpenseLogConfig
import ExpenseLogModel
import ExpenseLogRendering
import ExpenseLogUseCases
import Foundation

/// What `summary` and a `fetch` of several months say on stderr after their output: where the months came from and
/// what is missing from them.
enum SummarySources {
    /// Stops at once on an error waiting cannot fix (401/403, 404, a non-JSON answer, an unreadable cache); else prints
    /// through `output` unless every month is missing (an empty output would look like a month of no spending), says
    /// where the months came from and what was left out, and throws the exit code: 69 when a month is missing, 65 when
    /// rows were left out, 74 when the cache could not be written.
    static func show(
        _ loaded: [LoadedMonth], _ context: Context, _ config: AppConfig, subject: String, verb: String,
        output: () -> Void
    ) throws {
        if let permanent = loaded.compactMap(\.missing).first(where: { !$0.isTransient }) {
            switch permanent {
            case .api(let error): throw error
            case .store(let error): throw error
            case .notCached: break
            }
        }
        let missing = loaded.filter { $0.missing != nil }
        if missing.count < loaded.count { output() }
        explain(loaded, context, config, subject: subject, verb: verb)
        for month in loaded { if let rows = month.rows { context.warnRows(rows, of: month.month) } }
        context.reportLeftOut(loaded.reduce(0) { $0 + $1.unreadable.count })
        if !missing.isEmpty { throw CommandExit(code: .unavailable) }
        if loaded.contains(where: { !$0.unreadable.isEmpty }) { throw CommandExit(code: .dataError) }
        if loaded.contains(where: { $0.cacheFailure != nil }) { throw CommandExit(code: .ioError) }
    }

    /// `subject` names the output (`the summary`), `verb` what happens to items in it (`counted`).
    static func explain(
        _ loaded: [LoadedMonth], _ context: Context, _ config: AppConfig, subject: String = "the summary",
        verb: String = "counted", now: Date = Date()
    ) {
        let outside = loaded.filter { $0.outsideCount > 0 }
        if !outside.isEmpty {
            context.warn(
                context.say(
                    "the server returned \(outside.map(\.outsideCount).reduce(0, +)) items dated outside the month asked for "
                        + "(\(list(outside))); they are not \(verb)",
                    ja: "サーバーは求めた月の外の日付の項目を\(outside.map(\.outsideCount).reduce(0, +))件返しました (\(list(outside)))。数えていません"
                ))
        }
        let fellBack = loaded.filter { $0.fallback != nil }
        if let first = fellBack.first?.fallback {
            context.warn(
                context.describe(first) + "\n"
                    + context.say(
                        "\(list(fellBack)) could not be fetched; the cached \(fellBack.count == 1 ? "copy is" : "copies are") "
                            + "used instead (run again when the server is back)",
                        ja: "\(list(fellBack)) を取得できないため、キャッシュを使いました (サーバーが戻ったらもう一度実行してください)"))
        }
        let partial = loaded.filter {
            if case .cache(_, complete: false) = $0.source { return true } else { return false }
        }
        if !partial.isEmpty {
            context.warn(
                context.say(
                    "\(list(partial)) \(partial.count == 1 ? "was" : "were") never fetched whole; "
                        + "only the items registered from here are \(verb)",
                    ja: "\(list(partial)) は一度も全体を取得していません。ここから登録した項目だけを数えています"))
        }
        let fetchTimes = loaded.compactMap { month -> Date? in
            if case .cache(let fetchedAt, _) = month.source { return fetchedAt }
            return nil
        }
        let cached = loaded.filter { if case .cache = $0.source { return true } else { return false } }
        if !cached.isEmpty {
            let when =
                fetchTimes.min().map { oldest in
                    let text = "\(Age.text(of: oldest, now: now)) (\(LocalTime.text(oldest)))"
                    return fetchTimes.count > 1 ? ", the oldest fetched \(text)" : ", fetched \(text)"
                } ?? ""
            context.note(
                context.say(
                    "\(list(cached)) came from the cache\(when); --refresh fetches \(cached.count == 1 ? "it" : "them") again",
                    ja: "\(list(cached)) はキャッシュから読みました。--refresh で取得し直します"))
        }
        for month in loaded {
            if let failure = month.cacheFailure {
                context.warn(
                    context.say("\(month.month) was fetched, but ", ja: "\(month.month) は取得しましたが、")
                        + context.describe(failure))
            }
        }
        let missing = loaded.filter { $0.missing != nil }
        guard let first = missing.first?.missing else { return }
        if case .notCached = first {
            context.warn(
                context.say(
                    "\(list(missing)) \(missing.count == 1 ? "is" : "are") missing from \(subject): not cached for the "
                        + "\(config.environment.value.rawValue) environment (\(config.cacheDirectory.path)); "
                        + "run without --offline to fetch \(missing.count == 1 ? "it" : "them")",
                    ja:
                        "\(list(missing)) は \(config.environment.value.rawValue) 環境のキャッシュ (\(config.cacheDirectory.path)) になく、"
                        + "含まれていません。--offline なしで実行すると取得します"))
        } else {
            context.warn(
                context.say(
                    "\(list(missing)) \(missing.count == 1 ? "is" : "are") missing from \(subject): ",
                    ja: "\(list(missing)) は含まれていません: ") + context.describe(first))
        }
    }

    /// `2024-01, 2024-02`.
    static func list(_ months: [LoadedMonth]) -> String {
        months.map(\.month.description).joined(separator: ", ")
    }
}
