import ExpenseLogClient
import ExpenseLogFormats
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
    public let journal: Journal?

    /// Targets found in a cache, as the queued changes leave it, and among the items waiting to be registered.
    public init(repository: LocalRepository, queued: [QueuedEdit], journal: Journal? = nil) {
        (self.repository, self.queued, self.journal) = (repository, queued, journal)
    }

    /// The shortest prefix that names an id: four characters, as `git` shortens a hash to seven.
    public static let shortestPrefix = 4

    /// What each text names, in the order given, among the items as the queued changes leave them: cached (an id the
    /// sheet shows without its leading zeros matches as the sheet shows it), else waiting to be registered (a change to
    /// one is queued behind it). What is no whole id may be a unique prefix of at least four characters, case ignored,
    /// as `git` takes a short hash (only text an id could start with: hex digits and `-`), or part of the name of an
    /// item of `searched` (this month), case and widths ignored, as a person remembers a purchase; a whole name wins over
    /// a part (with `all`, every name holding the text is taken). With the matches come the short ids that tell every
    /// item searched apart, for listing several, and the months the cache holds, read in the same pass.
    public func matches(
        _ texts: [String], searched: Set<YearMonth> = [YearMonth.current()], all every: Bool = false
    ) async throws
        -> (matches: [TargetMatch], shortIDs: [String: String], cachedMonths: Set<YearMonth>)
    {
        let months = try await repository.cachedMonths()
        let cached = queued.applied(to: months.flatMap(\.items))
        var matches: [TargetMatch] = [], candidates: [Item]?
        let asked = Set(texts), prefixes = texts.filter(Self.mayBePrefix).map { $0.uppercased() }
        for text in texts {
            if let item = cached.first(where: { $0.id == text })
                ?? cached.first(where: { SheetText.key($0.id) == SheetText.key(text) })
            {
                matches.append(.one(item, named: false))
                continue
            }
            // Read once, only when the cache lacks an id: the outbox may hold an import of millions of items, of which the
            // ids asked, the months searched and the prefixes given are kept.
            if candidates == nil {
                let waiting =
                    try journal.map { journal in
                        queued.applied(
                            to: try journal.waitingItems { item in
                                asked.contains(item.id) || searched.contains(item.date.yearMonth)
                                    || prefixes.contains { item.id.uppercased().hasPrefix($0) }
                            })
                    } ?? []
                let cachedIDs = Set(cached.map(\.id))
                candidates = cached + waiting.filter { !cachedIDs.contains($0.id) }
            }
            let all = candidates ?? cached
            if let item = all.first(where: { $0.id == text }) {
                matches.append(.one(item, named: false))
                continue
            }
            let prefix = text.uppercased(), folded = Self.folded(text)
            let byID = Self.mayBePrefix(text) ? all.filter { $0.id.uppercased().hasPrefix(prefix) } : []
            let inMonths =
                folded.isEmpty
                ? [] : all.filter { searched.contains($0.date.yearMonth) && Self.folded($0.name).contains(folded) }
            let exact = inMonths.filter { Self.folded($0.name) == folded }
            // One thing meant: a whole name wins over the names holding it. Every thing (`--all`): every name holding it.
            let named = every || exact.isEmpty ? inMonths : exact
            let matching = byID + named.filter { item in !byID.contains { $0.id == item.id } }
            switch matching.count {
            case 0: matches.append(.none)
            case 1: matches.append(.one(matching[0], named: byID.isEmpty))
            default: matches.append(.several(matching))
            }
        }
        let several = matches.contains { if case .several = $0 { true } else { false } }
        return (matches, several ? Self.shortIDs((candidates ?? cached).map(\.id)) : [:], Set(months.map(\.month)))
    }

    /// What `text` names among `ids` (the waiting ones `pending drop` takes): itself when it is one, else the ids it is
    /// a prefix of (at least four characters an id could start with, case ignored); none when neither.
    public static func expand(_ text: String, among ids: some Collection<String>) -> [String] {
        if ids.contains(text) { return [text] }
        guard mayBePrefix(text) else { return [] }
        let prefix = text.uppercased()
        return ids.filter { $0.uppercased().hasPrefix(prefix) }.sorted()
    }

    /// Whether text could be the start of an id (`7B2A`, a bank's digits): four or more hex digits and dashes.
    static func mayBePrefix(_ text: String) -> Bool {
        text.count >= shortestPrefix && text.allSatisfy { $0.isHexDigit || $0 == "-" }
    }

    /// A name as it is searched: NFKC, case folded, katakana as hiragana (`NameFolding`), trimmed.
    static func folded(_ text: String) -> String {
        NameFolding.fold(text.trimmingSpaces())
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
        return Dictionary(
            ids.map { ($0, String($0.prefix(lengths[$0.uppercased()] ?? $0.count))) },
            uniquingKeysWith: { first, _ in first })
    }

    /// Whether the server takes `action`, from its cached `?action=info` or asked again (and remembered) when that
    /// lacks it: offered, absent (another script: nothing must be sent), or unknown when it cannot be reached.
    public static func availability(
        of action: String, _ client: ExpenseLogAPIClient, _ repository: LocalRepository
    ) async throws -> ActionAvailability {
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

/// What one text a person gave to `edit` or `delete` names.
public enum TargetMatch: Sendable {
    /// One item: by its id or a unique prefix of it, or (`named`) by its name.
    case one(Item, named: Bool)
    /// Several items: the text is a prefix of their ids or part of their names.
    case several([Item])
    /// No cached or waiting item.
    case none
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
