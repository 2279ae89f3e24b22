import ExpenseLogModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One write waiting for the server: a run's batches of items to register, or a change to items.
public enum JournalEntry: Sendable {
    /// A `register` run's batches.
    case items(ItemEntry)
    /// An edit or a deletion.
    case change(QueuedEdit)

    /// Its file, whose name gives its place in the journal.
    public var file: URL {
        switch self {
        case .items(let entry): entry.file
        case .change(let change): change.file
        }
    }
}

/// The journal as read once, in its order.
public struct JournalListing: Sendable {
    /// Every entry that can be read (an entry of items with batches left), oldest first.
    public let entries: [JournalEntry]
    /// Each file that cannot be read (left in place), with a message saying so.
    public let unreadable: [(file: URL, problem: String)]

    /// The entries of items, oldest first.
    public var itemEntries: [ItemEntry] {
        entries.compactMap { if case .items(let entry) = $0 { entry } else { nil } }
    }

    /// The changes, oldest first.
    public var changes: [QueuedEdit] {
        entries.compactMap { if case .change(let change) = $0 { change } else { nil } }
    }

    /// A message for each file that cannot be read.
    public var problems: [String] { unreadable.map(\.problem) }

    /// The changes made before the first file that cannot be read: what it holds is unknown (it may be a change, or
    /// hold the item a later change touches), so nothing made after it overtakes it.
    public var sendableChanges: [QueuedEdit] {
        guard let first = unreadable.first?.file.lastPathComponent else { return changes }
        return changes.filter { $0.file.lastPathComponent < first }
    }

    /// The problem of the file that stops the changes after it, if any change waits behind it.
    public var blocker: String? {
        guard let first = unreadable.first else { return nil }
        return changes.contains { $0.file.lastPathComponent > first.file.lastPathComponent } ? first.problem : nil
    }

    /// Whether nothing waits, not even a file that cannot be read.
    public var isEmpty: Bool { entries.isEmpty && unreadable.isEmpty }
}

extension Journal {
    /// Every entry, oldest first. A missing folder is an empty journal; a folder that cannot be listed is an error,
    /// never "empty"; a file that cannot be read is listed as such and left in place.
    public func listing() throws -> JournalListing {
        var entries: [JournalEntry] = []
        var unreadable: [(file: URL, problem: String)] = []
        for name in try QueueFolder.entryNames(in: directory, what: "the journal of pending writes") {
            let file = directory.appendingPathComponent(name)
            do {
                let head = try Self.head(of: file)
                // Anything but a change is read as items, whose reader says exactly where a file is cut short or
                // malformed. A change is one short line, read whole with its first bytes: each file is opened once.
                if head.bytes.prefix(while: { $0 != 0x0A }).firstRange(of: Array(#""action":"#.utf8)) != nil {
                    entries.append(
                        .change(head.whole ? try change(from: head.bytes, file: file) : try readChange(file)))
                } else {
                    let entry = try read(file, parseItems: true)
                    if !entry.batches.isEmpty { entries.append(.items(entry)) }
                }
            } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
                continue  // sent and removed by another process since the folder was listed
            } catch {
                let reason =
                    if case StoreError.readFailed(_, let reason) = error { reason } else {
                        StoreError.reason(of: error)
                    }
                unreadable.append(
                    (
                        file,
                        "the journal entry \(file.path) cannot be read (\(reason)); it was left in place, and neither "
                            + "what it holds nor the changes made after it are sent until it is fixed or moved away"
                    ))
            }
        }
        return JournalListing(entries: entries, unreadable: unreadable)
    }

    /// A file's first bytes (up to 4 KiB, more than a change of one item takes) and whether they are all of it: what
    /// tells a change (`{"queuedAt":…,"action":…}`, one line) from batches of items (`{"queuedAt":…,"batches":[`), and
    /// the whole of a change.
    private static func head(of file: URL) throws -> (bytes: [UInt8], whole: Bool) {
        // pread, not FileHandle: Foundation's FileHandle traps on EINTR.
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw CocoaError(.fileReadNoSuchFile) }
            throw StoreError.readFailed(path: file.path, reason: AtomicFile.errorText())
        }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096), filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + filled, $0.count - filled, off_t(filled))
            }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw StoreError.readFailed(path: file.path, reason: AtomicFile.errorText()) }
            if count == 0 { return (Array(bytes[..<filled]), true) }
            filled += count
        }
        return (bytes, false)
    }

    /// The items waiting in `entries` (every entry of items when nil) with these ids, each once, in the journal's
    /// order: read one batch at a time, keeping only those (a journal of millions of items stays flat in memory); an
    /// entry a sync finished since it was listed holds none.
    public func waitingItems(_ ids: Set<String>, in entries: [ItemEntry]? = nil) throws -> [Item] {
        guard !ids.isEmpty else { return [] }
        return try waitingItems(in: entries) { ids.contains($0.id) }
    }

    /// The items waiting to be registered that are dated in `months`, each once (`fetch` shows them, marked).
    public func waitingItems(in months: Set<YearMonth>) throws -> [Item] {
        try waitingItems(in: nil) { months.contains($0.date.yearMonth) }
    }

    /// The items waiting to be registered that `wanted` keeps, each once, from `entries` (all, when nil).
    public func waitingItems(in entries: [ItemEntry]? = nil, where wanted: (Item) -> Bool) throws -> [Item] {
        var found: [Item] = [], seen = Set<String>()
        for entry in try entries ?? listing().itemEntries {
            _ = try forEachBatch(of: entry) { batch in
                for item in batch.items where wanted(item) && seen.insert(item.id).inserted { found.append(item) }
            }
        }
        return found
    }

    /// The changes of `changes` (in the journal's order) that may be sent now: those before the first that touches an
    /// item still waiting in `entries`, wherever that entry stands (rows a sync held back stand in their entry's place,
    /// but an entry an earlier version queued is named by its clock, which may have been set back). `behind` counts the
    /// rest, which wait, since no change overtakes an older one.
    public func ready(_ changes: [QueuedEdit], among entries: [ItemEntry]) throws -> (ready: [QueuedEdit], behind: Int)
    {
        let touched = Set(changes.flatMap(\.ids))
        // The touched items still waiting, read one batch at a time.
        let waiting = touched.isEmpty ? [] : Set(try waitingItems(touched, in: entries).map(\.id))
        let ready = changes.prefix { waiting.isDisjoint(with: $0.ids) }
        return (Array(ready), changes.count - ready.count)
    }
}
