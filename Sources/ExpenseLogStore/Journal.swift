import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The batches one run queued, as one file: a crash while queueing leaves all of them or none.
///
/// An entry holds where each batch lies in its file, never the items: `Journal.batch(_:of:)` reads one batch at a time,
/// so that a journal of millions of items is listed and sent in flat memory.
public struct ItemEntry: Sendable, Equatable {
    /// The entry's file.
    public let file: URL
    /// When the run queued it.
    public let queuedAt: Date
    /// The batches not sent yet, in the order they were queued (every one, for an entry just written).
    public let batches: [QueuedBatch]
    /// The version of the file the batches' byte ranges belong to.
    let identity: FileIdentity?

    /// An entry of batches.
    init(file: URL, queuedAt: Date, batches: [QueuedBatch], identity: FileIdentity?) {
        (self.file, self.queuedAt, self.batches, self.identity) = (file, queuedAt, batches, identity)
    }

    /// How many items wait in its batches.
    public var itemCount: Int { batches.reduce(0) { $0 + $1.count } }

    /// The months its batches' items fall in, oldest first.
    public var months: [YearMonth] { Set(batches.flatMap(\.months)).sorted() }
}

/// A queued batch: its key, where its body lies in the entry's file, and what it holds.
public struct QueuedBatch: Sendable, Equatable {
    /// The batch's `Idempotency-Key`.
    public let key: String
    /// The bytes of its JSON array in the entry's file.
    public let body: Range<Int64>
    /// How many items it holds.
    public let count: Int
    /// The months its items fall in, oldest first.
    public let months: [YearMonth]

    /// A batch as written or read.
    init(key: String, body: Range<Int64>, count: Int, months: [YearMonth]) {
        (self.key, self.body, self.count, self.months) = (key, body, count, months)
    }
}

/// The journal of one environment (`<state>/<env>/journal`): every write waiting for the server, one file each, in
/// one order. A `register` run's batches of items are one entry (`ItemEntryFile`); an edit or a deletion is one entry
/// (`JournalChanges`). Entries are named by a sequence number (`JournalSequence`), so listing the folder gives them in
/// the order they were made, and every sender holds the one lock (`lock`).
///
/// Each entry is written whole to a new file (write-temp, `fsync`, rename), so concurrent runs never touch the same
/// file. `sync` appends the key of every batch the server confirmed to the entry's `.sent` log (one line), and deletes
/// both files once every batch is confirmed: no whole-file rewrites per batch. The `.tried` line written before each
/// POST is `fsync`ed (after a power cut, `sync` must still know a POST may be running); the `.sent` line of a batch the
/// server has is not: losing one to a power cut costs only the check `sync` makes anyway before sending (the batch's
/// months are read, and the items found there are crossed off), and an `fsync` a batch was 3% of an import's CPU and
/// more of its time on a laptop's disk. A dropped or refused batch's line is `fsync`ed.
public struct Journal: Sendable {
    /// The folder holding the entries.
    public let directory: URL

    /// A journal over a folder, which is created when the first entry is written.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The lock every sender holds for its whole run (`sync`, `edit`/`delete` sending, `pending drop`), so two runs
    /// never send the same write. Its place is the one earlier versions' `sync` locked, so they exclude each other.
    public var lock: URL { directory.deletingLastPathComponent().appendingPathComponent("sync.lock") }

    /// A new entry's file, named by the next sequence number.
    func newEntryFile(now: Date) throws -> URL {
        directory.appendingPathComponent(JournalSequence.name(try JournalSequence.next(in: directory, now: now)))
    }

    /// Journals batches as one new entry; `inPlaceOf` gives it that entry's place in the order (rows a sync holds back
    /// from an entry wait on where they were, so a change of one made meanwhile still waits behind it).
    @discardableResult
    public func append(
        _ batches: [OutboxBatch], now: Date = Date(), inPlaceOf earlier: ItemEntry? = nil
    ) throws
        -> ItemEntry
    {
        let (file, queued) = try write(now: now, place: earlier, beforeRename: nil) { add in
            for batch in batches { try add(batch.queued) }
        }
        return ItemEntry(file: file, queuedAt: now, batches: queued, identity: FileIdentity(path: file.path))
    }

    /// Journals batches as one new entry that is locked before it appears; see `appendHeld(writing:)`.
    public func appendHeld(_ batches: [OutboxBatch], now: Date = Date()) throws -> (ItemEntry, HeldLock) {
        try appendHeld(now: now) { add in
            for batch in batches { try add(batch.queued) }
        }
    }

    /// Journals the batches `batches` hands to the function it gets as one new entry, written a batch at a time and
    /// locked before it appears, so that no `sync` sends them while the caller does and a large import is never held
    /// whole in memory; the lock goes with the process, so after a crash `sync` takes over.
    public func appendHeld(
        now: Date = Date(), writing batches: ((BatchBody) throws -> Void) throws -> Void
    )
        throws -> (ItemEntry, HeldLock)
    {
        var held: HeldLock?
        let (file, queued) = try write(
            now: now, place: nil,
            beforeRename: { fd in held = try FileLock.hold(descriptor: fd, path: directory.path) },
            batches: batches)
        guard let held else { throw StoreError.writeFailed(path: file.path, reason: "it could not be locked") }
        return (ItemEntry(file: file, queuedAt: now, batches: queued, identity: FileIdentity(path: file.path)), held)
    }

    private func write(
        now: Date, place: ItemEntry?, beforeRename: ((Int32) throws -> Void)?,
        batches: ((BatchBody) throws -> Void) throws -> Void
    ) throws -> (URL, [QueuedBatch]) {
        let file =
            try place.map { directory.appendingPathComponent(JournalSequence.name(sharing: $0.file)) }
            ?? newEntryFile(now: now)
        return (file, try ItemEntryFile.write(to: file, queuedAt: now, beforeRename: beforeRename, batches: batches))
    }

    /// The body of a queued batch, read back from the entry's file.
    public func body(of batch: QueuedBatch, in entry: ItemEntry) throws -> Data {
        try ItemEntryFile.body(of: batch, in: entry.file, expected: entry.identity)
    }

    /// A queued batch with its items, read back from the entry's file: one batch in memory at a time.
    public func batch(_ batch: QueuedBatch, of entry: ItemEntry) throws -> OutboxBatch {
        let body = try body(of: batch, in: entry)
        do {
            return OutboxBatch(key: batch.key, items: try ItemEntryFile.items(body), body: body)
        } catch {
            let why = String(describing: error)
            throw StoreError.readFailed(
                path: entry.file.path, reason: "the queued batch \(batch.key) cannot be read (\(why))")
        }
    }

    /// Locks an entry for sending and drops the batches sent since it was listed; nil when another process is sending
    /// it, nothing is left, or the file is not the one listed (edited or replaced since: its byte ranges no longer hold,
    /// and its items may fall in months this run did not check). Once written, an entry's file never changes: only its
    /// sent log grows.
    public func hold(_ entry: ItemEntry) throws -> (ItemEntry, HeldLock)? {
        guard let lock = try FileLock.holdIfFree(entry.file) else { return nil }
        let sent = sentKeys(of: entry.file)
        let left = entry.batches.filter { !sent.contains($0.key) }
        guard !left.isEmpty, let identity = FileIdentity(path: entry.file.path), identity == entry.identity else {
            lock.release()
            return nil
        }
        return (ItemEntry(file: entry.file, queuedAt: entry.queuedAt, batches: left, identity: identity), lock)
    }

    /// Hands each batch of an entry to `body`, read back one at a time; false when the entry is gone (sent and removed
    /// since it was listed), so a reader that only lists skips it.
    public func forEachBatch(of entry: ItemEntry, _ body: (OutboxBatch) throws -> Void) throws -> Bool {
        for queued in entry.batches {
            let read: OutboxBatch
            do {
                read = try batch(queued, of: entry)
            } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
                return false
            }
            try body(read)
        }
        return true
    }

    /// Moves a batch the server refused as invalid out of the journal into `rejected/`, as a JSON array that
    /// `register` reads once fixed; returns that file.
    ///
    /// `key` is the batch's key in the entry when `batch` is a narrowed copy of it.
    public func reject(_ batch: OutboxBatch, from entry: ItemEntry, key: String? = nil) throws -> URL {
        let file = directory.deletingLastPathComponent().appendingPathComponent("rejected", isDirectory: true)
            .appendingPathComponent(
                entry.file.deletingPathExtension().lastPathComponent + "-" + batch.key.prefix(8) + ".json")
        try AtomicFile.write(Data((ItemJSON.array(batch.items) + "\n").utf8), to: file)
        try markSent(key ?? batch.key, in: entry)
        return file
    }

    /// How many items wait to be registered.
    public func pendingCount() throws -> Int {
        try listing().itemEntries.reduce(0) { $0 + $1.itemCount }
    }

    /// Crosses off a batch (confirmed by the server, dropped, or refused); the entry's files go once every batch is.
    /// `onServer` says the server has the batch's items: then the line is not `fsync`ed, as a power cut that loses it
    /// costs only the check `sync` makes before sending (a dropped or refused batch has no such check, so its line is).
    public func markSent(_ key: String, in entry: ItemEntry, onServer: Bool = false) throws {
        let log = sentLog(for: entry.file)
        let lines = try appendLine(key, to: log, countingLines: true, durable: !onServer)
        // Reading the keys back is needed only once the log has as many lines as the entry has batches: reading them
        // after every batch made a large import's confirmations quadratic.
        if lines >= entry.batches.count, Set(entry.batches.map(\.key)).isSubset(of: sentKeys(of: entry.file)) {
            // The entry first: a crash between the two leaves only logs that name nothing, which is harmless.
            for url in [entry.file, log, attemptLog(for: entry.file)] where unlink(url.path) != 0 && errno != ENOENT {
                throw StoreError.writeFailed(path: url.path, reason: "it cannot be removed (\(AtomicFile.errorText()))")
            }
            AtomicFile.syncDirectory(directory)
        }
    }

    /// Deletes what a crash left behind: entries every batch of which was confirmed, logs whose entry is gone,
    /// and temporary files no writer will finish (`TemporaryFiles.removeStale`).
    public func tidy(now: Date = Date()) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names {
            let url = directory.appendingPathComponent(name)
            // Only an entry with a sent log can be finished, so the others are not read at all.
            if name.hasSuffix(".json"), !name.hasPrefix("."),
                FileManager.default.fileExists(atPath: sentLog(for: url).path),
                (try? read(url, parseItems: false))?.batches.isEmpty == true
            {
                unlink(url.path)
                unlink(sentLog(for: url).path)
            } else if name.hasSuffix(".sent") || name.hasSuffix(".tried"),
                !FileManager.default.fileExists(atPath: url.deletingPathExtension().appendingPathExtension("json").path)
            {
                unlink(url.path)
            }
        }
        TemporaryFiles.removeStale(in: directory, names: names, now: now)
    }

    /// Appends a line to a log, `fsync`ed when `durable`; after a line torn by a crash, starts a new line, so this one
    /// is not glued onto it. Returns how many line ends the log then holds when `countingLines`, else 0.
    @discardableResult
    func appendLine(_ text: String, to log: URL, countingLines: Bool = false, durable: Bool = true) throws -> Int {
        let fd = open(log.path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, PrivateFiles.file)
        guard fd >= 0 else { throw StoreError.writeFailed(path: log.path, reason: AtomicFile.errorText()) }
        var last: UInt8 = 0x0A
        let size = lseek(fd, 0, SEEK_END)
        if size > 0 { _ = pread(fd, &last, 1, size - 1) }
        let line = Array(((last == 0x0A ? "" : "\n") + text + "\n").utf8)
        let written = line.withUnsafeBytes { Glibc_or_Darwin_write(fd, $0.baseAddress!, $0.count) }
        let failure =
            written != line.count
            ? AtomicFile.errorText()
            : (durable && AtomicFile.flushToDisk(fd) != 0 ? AtomicFile.errorText() : nil)
        defer { close(fd) }
        if let failure { throw StoreError.writeFailed(path: log.path, reason: failure) }
        return countingLines ? Self.lineEnds(fd, size: Int(size) + line.count) : 0
    }

    /// How many line ends the first `size` bytes of a file hold.
    private static func lineEnds(_ fd: Int32, size: Int) -> Int {
        var buffer = [UInt8](repeating: 0, count: min(size, 1 << 16)), count = 0, offset = 0
        while offset < size {
            let got = buffer.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress!, min($0.count, size - offset), off_t(offset))
            }
            guard got > 0 else { break }
            count += buffer[..<got].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            offset += got
        }
        return count
    }

    private func sentLog(for file: URL) -> URL {
        file.deletingPathExtension().appendingPathExtension("sent")
    }

    /// The keys in a sent log. A line cut short by a crash matches no key, so its batch is checked again by the
    /// next `sync` (which skips what the server already has).
    private func sentKeys(of file: URL) -> Set<String> {
        guard let data = FileManager.default.contents(atPath: sentLog(for: file).path) else { return [] }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        return Set(lines.dropLast().map(String.init))  // the last piece is "" after a whole line, or a torn line
    }

    /// An entry with the batches not sent yet; `parseItems` reads each of those once, to count its items and months.
    func read(_ file: URL, parseItems: Bool) throws -> ItemEntry {
        let sent = sentKeys(of: file)
        let (queuedAt, batches, identity) = try ItemEntryFile.scan(file, parseItems: parseItems, sent: sent)
        return ItemEntry(
            file: file, queuedAt: queuedAt, batches: batches.filter { !sent.contains($0.key) }, identity: identity)
    }
}

extension Journal {
    /// What `drop` did.
    public struct Dropped: Sendable {
        /// The items removed, in queue order.
        public var removed: [Item] = []
        /// Entries another process was sending (or that changed since they were listed), left as they were.
        public var busy = 0
        /// How many removed items were in a batch whose last POST got no answer: the server may have saved them.
        public var maybeOnServer = 0
    }

    /// Removes the waiting items whose ids are in `ids` (every waiting item when nil), under each entry's lock: a
    /// batch emptied is marked done, and a batch partly dropped is queued again without them (in a new entry, under
    /// a new key) before its old key is marked done, so an item is never lost by a crash in between (only queued twice,
    /// which `sync` resolves by id against the server).
    public func drop(ids: Set<String>?) throws -> Dropped {
        var result = Dropped()
        for entry in try listing().itemEntries {
            guard let (held, lock) = try hold(entry) else {
                result.busy += 1
                continue
            }
            defer { lock.release() }
            let tried = attempts(in: held)
            var kept: [(batch: OutboxBatch, tried: Date?)] = [], done: [String] = []
            for queued in held.batches {
                let items = try batch(queued, of: held).items
                let dropped = items.filter { ids?.contains($0.id) ?? true }
                guard !dropped.isEmpty else { continue }
                result.removed += dropped
                if tried[queued.key] != nil { result.maybeOnServer += dropped.count }
                let rest = items.filter { !(ids?.contains($0.id) ?? true) }
                if !rest.isEmpty { kept.append((OutboxBatch(key: RandomID.make(), items: rest), tried[queued.key])) }
                done.append(queued.key)
            }
            if !kept.isEmpty {
                // A POST of the old batch may still be running on the server: its time carries over, so that `sync`
                // waits for it as it would have for the old key.
                let entry = try append(kept.map(\.batch), inPlaceOf: held)
                for (batch, time) in kept where time != nil { try markAttempt(batch.key, in: entry, at: time) }
            }
            for key in done { try markSent(key, in: held) }
        }
        return result
    }
}
