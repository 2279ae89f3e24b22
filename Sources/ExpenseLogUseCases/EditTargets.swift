import ExpenseLogClient
import ExpenseLogModel
import ExpenseLogStore
import Foundation

/// Where an edit or deletion stands before anything is sent: the items it names, and whether the server takes it.
public struct EditTargets: Sendable {
    /// The cache the items are found in.
    public let repository: LocalRepository
    /// The changes still queued, laid over the cache.
    public let queued: [QueuedEdit]
    /// The writes waiting, whose items to register are looked in for an id the cache lacks.
    public let pending: PendingWrites?

    /// Targets found in a cache, as the queued changes leave it, and among the items waiting to be registered.
    public init(repository: LocalRepository, queued: [QueuedEdit], pending: PendingWrites? = nil) {
        (self.repository, self.queued, self.pending) = (repository, queued, pending)
    }

    /// The shortest prefix that names an id: four characters, as `git` shortens a hash to seven.
    public static let shortestPrefix = 4

    /// The items with these ids, in the order given, as the queued changes leave them: cached (an id the sheet shows
    /// without its leading zeros matches as the sheet shows it, and a unique prefix of at least four characters, case
    /// ignored, as `git` takes a short hash), else waiting to be registered (a change to one is queued behind it). The
    /// first id found in neither is `missing`; a prefix several cached ids share is `ambiguous`, with their items. What is
    /// no id is looked for in the names of the cached items of `searched` (this month), case and widths ignored, as a
    /// person remembers a purchase: one such item is found, several are `ambiguous`.
    public func items(_ ids: [String], searched: Set<YearMonth> = [YearMonth.current()]) async throws
        -> (found: [Item], missing: String?, ambiguous: (prefix: String, items: [Item])?) {
        let cached = queued.applied(to: try await repository.cachedMonths().flatMap(\.items))
        var found: [Item] = [], waiting: [Item]?
        let asked = Set(ids), prefixes = ids.filter { $0.count >= Self.shortestPrefix }.map { $0.uppercased() }
        for id in ids {
            if let item = cached.first(where: { $0.id == id }) ?? cached.first(where: { SheetText.key($0.id) == SheetText.key(id) }) {
                found.append(item)
                continue
            }
            // Read only when the cache lacks an id: the outbox may hold an import of millions of items. A prefix or a name
            // may be an item still waiting, so those read all the waiting items of the months searched and any prefix.
            let prefix = id.uppercased(), text = Self.folded(id)
            waiting = try waiting ?? pending.map { pending in
                queued.applied(to: try pending.waitingItems { item in
                    asked.contains(item.id) || searched.contains(item.date.yearMonth) || prefixes.contains { item.id.uppercased().hasPrefix($0) }
                })
            } ?? []
            let candidates = cached + (waiting ?? []).filter { item in !cached.contains { $0.id == item.id } }
            if let item = candidates.first(where: { $0.id == id }) {
                found.append(item)
                continue
            }
            if id.count >= Self.shortestPrefix {
                let matching = candidates.filter { $0.id.uppercased().hasPrefix(prefix) }
                if matching.count == 1 {
                    found.append(matching[0])
                    continue
                }
                if matching.count > 1 { return (found, nil, (id, matching)) }
            }
            let named = text.isEmpty ? [] : candidates.filter { searched.contains($0.date.yearMonth) && Self.folded($0.name).contains(text) }
            if named.count == 1 {
                found.append(named[0])
                continue
            }
            return named.isEmpty ? (found, id, nil) : (found, nil, (id, named))
        }
        return (found, nil, nil)
    }

    /// A name as it is searched: NFKC (half-width kana and full-width letters made ordinary), case folded, trimmed.
    static func folded(_ text: String) -> String {
        text.trimmingSpaces().precomposedStringWithCompatibilityMapping.lowercased()
    }

    /// Each id's shortest prefix, at least `shortestPrefix` characters, that no other of `ids` starts with (case
    /// ignored): what a person types to name it. Sorted, an id shares its longest prefix with a neighbour.
    public static func shortIDs(_ ids: [String]) -> [String: String] {
        let sorted = Set(ids.map { $0.uppercased() }).sorted()
        func shared(_ a: String, _ b: String) -> Int { zip(a, b).prefix { $0 == $1 }.count }
        var lengths: [String: Int] = [:]
        for (index, id) in sorted.enumerated() {
            let before = index > 0 ? shared(id, sorted[index - 1]) : 0
            let after = index + 1 < sorted.count ? shared(id, sorted[index + 1]) : 0
            lengths[id] = min(id.count, max(shortestPrefix, max(before, after) + 1))
        }
        return Dictionary(ids.map { ($0, String($0.prefix(lengths[$0.uppercased()] ?? $0.count))) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether the server takes `action`, from its cached `?action=info` or asked again (and remembered) when that
    /// lacks it: offered, absent (another script: nothing must be sent), or unknown when it cannot be reached.
    public static func availability(of action: String, _ client: ExpenseLogAPIClient, _ repository: LocalRepository) async throws -> ActionAvailability {
        if await repository.serverInfo()?.offers(action) == true { return .offered }
        let info: ServerInfo?
        do {
            info = try await client.info()
        } catch let error as APIError where error.isTransient {
            return .unknown(error)
        }
        if let info { try? await repository.saveServerInfo(info) }
        return info?.offers(action) == true ? .offered : .absent
    }
}

/// Whether a server takes one of the bundled script's actions.
public enum ActionAvailability: Sendable {
    /// It does.
    case offered
    /// It does not: it is not the bundled script (or an older one).
    case absent
    /// It could not be asked; the change is queued and `sync` asks first.
    case unknown(APIError)
}
