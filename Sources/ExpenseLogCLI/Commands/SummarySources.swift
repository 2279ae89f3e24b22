import ExpenseLogKit
import Foundation

/// What `summary` says on stderr after its output: where the months came from and what is missing from them.
enum SummarySources {
    static func report(_ loaded: [LoadedMonth], _ context: Context, _ config: AppConfig, now: Date = Date()) {
        let outside = loaded.filter { $0.outsideCount > 0 }
        if !outside.isEmpty {
            context.warn("the server returned \(outside.map(\.outsideCount).reduce(0, +)) items dated outside the month asked for "
                         + "(\(list(outside))); they are not counted")
        }
        let fellBack = loaded.filter { $0.fallback != nil }
        if let first = fellBack.first?.fallback {
            context.warn("\(first)\n\(list(fellBack)) could not be fetched; the cached \(fellBack.count == 1 ? "copy is" : "copies are") "
                         + "used instead (run again when the server is back)")
        }
        let partial = loaded.filter { if case .cache(_, complete: false) = $0.source { return true } else { return false } }
        if !partial.isEmpty {
            context.warn("\(list(partial)) \(partial.count == 1 ? "was" : "were") never fetched whole; "
                         + "only the items registered from here are counted")
        }
        let fetchTimes = loaded.compactMap { month -> Date? in
            if case .cache(let fetchedAt, _) = month.source { return fetchedAt }
            return nil
        }
        let cached = loaded.filter { if case .cache = $0.source { return true } else { return false } }
        if !cached.isEmpty {
            let when = fetchTimes.min().map { oldest in
                let text = "\(Age.text(of: oldest, now: now)) (\(oldest.formatted(Date.ISO8601FormatStyle())))"
                return fetchTimes.count > 1 ? ", the oldest fetched \(text)" : ", fetched \(text)"
            } ?? ""
            context.note("\(list(cached)) came from the cache\(when); --refresh fetches \(cached.count == 1 ? "it" : "them") again")
        }
        for month in loaded {
            if let failure = month.cacheFailure { context.warn("\(month.month) was fetched, but \(failure)") }
        }
        let missing = loaded.filter { $0.missing != nil }
        guard let first = missing.first?.missing else { return }
        if case .notCached = first {
            context.warn("\(list(missing)) \(missing.count == 1 ? "is" : "are") missing from the summary: not cached for the "
                         + "\(config.environment.value.rawValue) environment (\(config.cacheDirectory.path)); "
                         + "run without --offline to fetch \(missing.count == 1 ? "it" : "them")")
        } else {
            context.warn("\(list(missing)) \(missing.count == 1 ? "is" : "are") missing from the summary: \(first)")
        }
    }

    /// `2024-01, 2024-02`.
    static func list(_ months: [LoadedMonth]) -> String {
        months.map(\.month.description).joined(separator: ", ")
    }
}
