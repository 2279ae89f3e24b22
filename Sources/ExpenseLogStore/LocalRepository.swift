import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogModel
import Foundation

/// One cached month: what the server had when it was fetched, plus what was registered from here since.
public struct CachedMonth: Sendable, Equatable {
    /// The month.
    public let month: YearMonth
    /// The items, in the server's order then in registration order.
    public var items: [Item]
    /// When the month was last fetched whole; nil when only registered items are known.
    public var fetchedAt: Date?

    /// Whether the whole month came from the server (not only items registered from here).
    public var isComplete: Bool { fetchedAt != nil }
}

/// The per-environment cache of fetched months: one `YYYY-MM.json` per month, written atomically.
///
/// Memory only changes after the file is written, so a failed write leaves both as they were.
public actor LocalRepository {
    /// The environment's cache folder.
    public nonisolated let directory: URL
    private var months: [YearMonth: CachedMonth] = [:]
    private var warnings: [String] = []

    /// A repository over a folder, which is created on the first write.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The lock file that serialises writers across processes.
    public nonisolated var lockFile: URL { directory.appendingPathComponent(".lock") }

    /// The file of one month.
    public nonisolated func file(for month: YearMonth) -> URL {
        directory.appendingPathComponent("\(month).json")
    }

    /// The cached month, or nil when it is not cached; a corrupt file is moved aside (see `takeWarnings`).
    public func month(_ month: YearMonth) throws -> CachedMonth? {
        if let cached = months[month] { return cached }
        return try load(month)
    }

    /// Reads a month's file into memory, ignoring what memory held (another process may have written it since).
    private func load(_ month: YearMonth) throws -> CachedMonth? {
        let url = file(for: month)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) {
                months[month] = nil
                return nil
            }
            throw StoreError.readFailed(path: url.path, reason: StoreError.reason(of: error, at: url.path))
        }
        do {
            let decoded = try CacheFileFormat.decode(data, month: month)
            months[month] = decoded
            return decoded
        } catch {
            let aside = url.appendingPathExtension("corrupt")
            try? FileManager.default.removeItem(at: aside)
            try? FileManager.default.moveItem(at: url, to: aside)
            months[month] = nil
            warnings.append(
                "the cache file \(url.path) was unreadable and was moved to \(aside.lastPathComponent); it will be fetched again"
            )
            return nil
        }
    }

    /// Replaces a month with what the server answered.
    public func replaceMonth(_ month: YearMonth, with items: [Item], fetchedAt: Date) async throws {
        let lock = try await FileLock.acquire(lockFile)
        defer { lock.release() }
        try save(CachedMonth(month: month, items: items, fetchedAt: fetchedAt))
    }

    /// Adds items the server saved to their months (replacing any with the same id), one write per month.
    ///
    /// Each month is re-read under the lock, so items another process added meanwhile are kept.
    public func add(_ items: [Item]) async throws {
        let byMonth = Dictionary(grouping: items, by: \.date.yearMonth)
        let lock = try await FileLock.acquire(lockFile)
        defer { lock.release() }
        for (month, newItems) in byMonth.sorted(by: { $0.key < $1.key }) {
            try merge(month) { add in try newItems.forEach { try $0.withFields(add) } }
        }
    }

    /// Adds every item of a spool to its month (`months` lists the months they fall in), as `add(_:)` does, straight
    /// from the spool to the files: the spool is read once for every 64 months, each month's file written beside the
    /// others (reading it once per month was a twelfth of a large import's time), and nothing is kept per item.
    public func add(_ months: Set<YearMonth>, from spool: ItemSpool.Reader) async throws {
        let lock = try await FileLock.acquire(lockFile)
        defer { lock.release() }
        // An import's items are never all held in memory, not even a month of them; 64 files open at most, over at
        // most 64 years (the table of slots stays small).
        var rest = months.sorted()[...]
        while let start = rest.first {
            let group = rest.prefix { $0.year < start.year + 64 }.prefix(64)
            try add(group, from: spool)
            rest = rest.dropFirst(group.count)
        }
    }

    /// `add(_:from:)` for some of the months, in one pass over the spool.
    private func add(_ chosen: ArraySlice<YearMonth>, from spool: ItemSpool.Reader) throws {
        // Each month gets a slot, found from a record's date by a table over the months' range (a hash lookup per
        // record cost more than the pass saved).
        let first = chosen.first.map(Self.number) ?? 0
        var slotOf = [Int](repeating: -1, count: chosen.last.map { Self.number($0) - first + 1 } ?? 0)
        func slot(_ fields: ItemFields) -> Int? {
            let key = Self.number(fields.date.yearMonth) - first
            guard key >= 0, key < slotOf.count, slotOf[key] >= 0 else { return nil }
            return slotOf[key]
        }
        var cached: [CachedMonth?] = [], known: [Set<String>] = []
        for month in chosen {
            slotOf[Self.number(month) - first] = cached.count
            cached.append(try load(month))
            known.append(Set(cached[cached.count - 1]?.items.map(\.id) ?? []))
        }
        // The cached items an added one replaces (same id), for every month in one more pass, if any month has items.
        var replaced = [Set<String>](repeating: [], count: chosen.count)
        if known.contains(where: { !$0.isEmpty }) {
            var reader = spool
            while true {
                let read: Void? = try reader.nextFields { fields, _ in
                    if let slot = slot(fields), !known[slot].isEmpty, case let id = fields.idText,
                        known[slot].contains(id)
                    {
                        replaced[slot].insert(id)
                    }
                }
                if read == nil { break }
            }
        }
        var files: [MonthFile] = []
        for (slot, month) in chosen.enumerated() {
            files.append(try open(month, cached: cached[slot], replacing: replaced[slot]))
        }
        var reader = spool
        while true {
            let read: Void? = try reader.nextFields { fields, _ in
                if let slot = slot(fields) { try files[slot].add(fields) }
            }
            if read == nil { break }
        }
        for (slot, month) in chosen.enumerated() {
            try files[slot].commit()
            months[month] = nil
        }
    }

    /// A month's place on a line of months (sorted months get increasing numbers).
    private static func number(_ month: YearMonth) -> Int { month.year * 12 + month.month - 1 }

    /// Writes a month (under the lock): its items on file, less those an added item replaces (same id), then the added
    /// items, which `eachAdded` hands over in order as fields (twice when the file has items: the first pass finds the
    /// replaced).
    private func merge(_ month: YearMonth, eachAdded: ((ItemFields) throws -> Void) throws -> Void) throws {
        let cached = try load(month)
        var replaced: Set<String> = []
        if let cached, !cached.items.isEmpty {
            let known = Set(cached.items.map(\.id))
            try eachAdded {
                let id = $0.idText
                if known.contains(id) { replaced.insert(id) }
            }
        }
        var file = try open(month, cached: cached, replacing: replaced)
        try eachAdded { try file.add($0) }
        try file.commit()
        // Not kept in memory: an import adds whole months that this run does not read again.
        months[month] = nil
    }

    /// Starts a month's new file: the header, then its cached items less those `replaced` names (an added item has
    /// their id); the added items follow, through `MonthFile.add`.
    private func open(_ month: YearMonth, cached: CachedMonth?, replacing replaced: Set<String>) throws -> MonthFile {
        var file = MonthFile(writer: try AtomicFile.Writer(to: self.file(for: month), durable: false))
        try CacheFileFormat.header(month: month, fetchedAt: cached?.fetchedAt).withUnsafeBytes {
            try file.writer.write($0)
        }
        for item in cached?.items ?? [] where !replaced.contains(item.id) { try item.withFields { try file.add($0) } }
        return file
    }

    /// Removes items by id from the cached months that hold them, each month re-read under the lock and keeping when it
    /// was fetched; returns the items removed.
    public func remove(ids: Set<String>) async throws -> [Item] {
        let lock = try await FileLock.acquire(lockFile)
        defer { lock.release() }
        return try removeLocked(ids)
    }

    /// Takes items out of their months and puts their new forms in (an item whose date moved goes to its new month),
    /// under one lock, so no reader sees a moment without them: the cache following a run of answered changes.
    public func replace(removing ids: Set<String>, adding items: [Item]) async throws {
        let lock = try await FileLock.acquire(lockFile)
        defer { lock.release() }
        _ = try removeLocked(ids)
        for (month, newItems) in Dictionary(grouping: items, by: \.date.yearMonth).sorted(by: { $0.key < $1.key }) {
            try merge(month) { add in try newItems.forEach { try $0.withFields(add) } }
        }
    }

    /// `remove(ids:)`, the lock held.
    private func removeLocked(_ ids: Set<String>) throws -> [Item] {
        var removed: [Item] = []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for month in names.compactMap(Self.month(ofFile:)).sorted() {
            months[month] = nil
            guard var cached = try load(month), cached.items.contains(where: { ids.contains($0.id) }) else { continue }
            removed += cached.items.filter { ids.contains($0.id) }
            cached.items.removeAll { ids.contains($0.id) }
            try save(cached)
        }
        return removed
    }

    /// Replaces an item (found by id in any cached month) with its changed form, in its month, under one lock: an edit
    /// that moves the item to another month leaves no moment without it.
    public func replace(id: String, with item: Item) async throws {
        let lock = try await FileLock.acquire(lockFile)
        defer { lock.release() }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for month in names.compactMap(Self.month(ofFile:)).sorted() where month != item.date.yearMonth {
            months[month] = nil
            guard var cached = try load(month), cached.items.contains(where: { $0.id == id }) else { continue }
            cached.items.removeAll { $0.id == id }
            try save(cached)
        }
        try merge(item.date.yearMonth) { add in try item.withFields(add) }
    }

    /// The server's description of itself, as last asked (`GET ?action=info`), or nil when never asked.
    public func serverInfo() -> ServerInfo? {
        (try? Data(contentsOf: directory.appendingPathComponent("server-info.json"))).flatMap {
            ServerInfo(json: Array($0))
        }
    }

    /// Remembers the server's description, so an edit or a deletion does not ask again.
    public func saveServerInfo(_ info: ServerInfo) throws {
        try AtomicFile.createDirectory(directory)
        try AtomicFile.write(
            Data(info.json.utf8), to: directory.appendingPathComponent("server-info.json"), durable: false)
    }

    /// Every cached month on disk, oldest first.
    public func cachedMonths() throws -> [CachedMonth] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return try names.compactMap(Self.month(ofFile:)).sorted().compactMap { try month($0) }
    }

    /// Deletes every cached month of this environment and returns how many there were.
    public func clear() throws -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var removed = 0
        // Only month files and their moved-aside copies: anything else in the folder is not ours to delete.
        for name in names where Self.month(ofFile: name.hasSuffix(".corrupt") ? String(name.dropLast(8)) : name) != nil
        {
            let url = directory.appendingPathComponent(name)
            do {
                try FileManager.default.removeItem(at: url)
            } catch {
                throw StoreError.writeFailed(
                    path: url.path, reason: "it cannot be removed (\(StoreError.reason(of: error)))")
            }
            if name.hasSuffix(".json") { removed += 1 }
        }
        months.removeAll()
        return removed
    }

    /// The month a cache file name (`YYYY-MM.json`) stands for, or nil for any other file.
    static func month(ofFile name: String) -> YearMonth? {
        name.hasSuffix(".json") ? YearMonth(parsing: String(name.dropLast(5))) : nil
    }

    /// Warnings gathered since the last call (corrupt files moved aside), for the caller to print.
    public func takeWarnings() -> [String] {
        defer { warnings.removeAll() }
        return warnings
    }

    private func save(_ cached: CachedMonth) throws {
        // Not durable: the cache is a copy of the server, and a lost write costs only a fetch.
        try AtomicFile.write(CacheFileFormat.encode(cached), to: file(for: cached.month), durable: false)
        months[cached.month] = cached
    }
}

/// The cache file: `{"month":"2024-01","fetchedAt":1705900000.0,"items":[…]}`, its items through `ItemCodec`.
enum CacheFileFormat {
    struct File {
        let month: String
        let fetchedAt: Double?
        let items: [Item]
    }

    static func encode(_ cached: CachedMonth) -> Data {
        Data(header(month: cached.month, fetchedAt: cached.fetchedAt) + ItemJSON.arrayBytes(cached.items) + trailer)
    }

    /// What comes before the items' array.
    static func header(month: YearMonth, fetchedAt: Date?) -> [UInt8] {
        let fetched = fetchedAt.map { String($0.timeIntervalSince1970) } ?? "null"
        return Array("{\"month\":\"\(month)\",\"fetchedAt\":\(fetched),\"items\":".utf8)
    }

    /// What comes after it.
    static let trailer = Array("}\n".utf8)

    static func decode(_ data: Data, month: YearMonth) throws -> CachedMonth {
        let bytes = Array(data)
        let file = try fastDecode(bytes) ?? decodeParsed(bytes)
        guard file.month == month.description else {
            throw StoreError.readFailed(path: "\(month).json", reason: "it holds \(file.month)")
        }
        return CachedMonth(
            month: month, items: file.items, fetchedAt: file.fetchedAt.map(Date.init(timeIntervalSince1970:)))
    }

    /// The file through `WireItems`, or nil for the general reading (which says what is wrong).
    static func fastDecode(_ bytes: [UInt8]) -> File? {
        WireItems.read(bytes) { parser in
            var month: String?, fetchedAt: Double?, items: [Item]?
            let complete = try parser.fields(["month", "fetchedAt", "items"]) { parser, key in
                switch key {
                case 0: month = try parser.string(); return month != nil
                case 1: return try parser.optionalNumber(&fetchedAt)
                default: items = try parser.itemArray(); return items != nil
                }
            }
            guard complete, let month, let items else { return nil }
            return File(month: month, fetchedAt: fetchedAt, items: items)
        }
    }

    /// The file parsed whole; a problem names its line.
    static func decodeParsed(_ bytes: [UInt8]) throws(ItemCodec.Problem) -> File {
        let value = try ItemCodec.parse(bytes)
        guard case .object(let members, _) = value else {
            throw ItemCodec.Problem(
                line: value.line, item: nil, message: "expected the cache's object, found \(value.described)")
        }
        let fields = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard case .string(let month, _)? = fields["month"] else {
            throw ItemCodec.Problem(line: value.line, item: nil, message: "month: missing or not a string")
        }
        var fetchedAt: Double?
        switch fields["fetchedAt"] {
        case nil, .null?: fetchedAt = nil
        case .number(let text, _)? where Double(text) != nil: fetchedAt = Double(text)
        case let other?:
            throw ItemCodec.Problem(
                line: other.line, item: nil, message: "fetchedAt: expected a time, found \(other.described)")
        }
        guard let items = fields["items"] else {
            throw ItemCodec.Problem(line: value.line, item: nil, message: "items: missing")
        }
        return File(month: month, fetchedAt: fetchedAt, items: try ItemCodec.items(in: items))
    }
}

/// A cached month's new file being written: items go through a buffer of JSON, drained every 16 KiB, so months
/// written side by side hold little memory each.
private struct MonthFile {
    let writer: AtomicFile.Writer
    var array = ItemJSON.ArrayBytes()

    mutating func add(_ item: ItemFields) throws {
        array.append(item)
        if array.bytes.count >= 1 << 14 { try array.drain(to: writer.write) }
    }

    /// Ends the array and the file, and puts it in place.
    mutating func commit() throws {
        array.close()
        try array.drain(to: writer.write)
        try CacheFileFormat.trailer.withUnsafeBytes(writer.write)
        try writer.commit()
    }
}
