import ExpenseLogModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Items kept on disk between the phases of a large import, so its memory does not grow with its rows.
///
/// The file is made in the temporary folder (`TMPDIR`) and unlinked at once: it is never seen by anyone else, and a
/// crash or kill leaves nothing behind. Each record is an item in a compact binary form with a number the caller
/// chooses (a report row); appending is buffered, and reading goes record by record in the order written.
///
/// The one format that is not JSON through `ItemCodec`, by measurement: a 100,000-row import reads its spool about
/// five times, and NDJSON records made it 2.8 times as costly in CPU (bench/results.md, "the spool's format").
public final class ItemSpool {
    private let file: SpoolFile
    /// Records not yet written to the file: the first `used` bytes.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 8)
    private var used = 0
    /// Bytes on disk (not counting `buffer`).
    private var flushed: Int64 = 0
    /// How many records it holds.
    public private(set) var count = 0
    /// The sum of their prices (for a table's total, without a pass to add them up).
    public private(set) var totalPrice: Int128 = 0

    private static let bufferSize = 1 << 16
    /// The fixed part of a record after its length: tag, day, price, category, sub-category and whether there is one.
    private static let fixedSize = 33

    /// A new empty spool in the temporary folder.
    public init() throws {
        file = try SpoolFile()
    }

    deinit { buffer.deallocate() }

    /// Where the next record will start.
    public var end: Int64 { flushed + Int64(used) }

    /// How far the spool got, to go back to with `truncate(to:)`.
    public struct Mark: Sendable {
        fileprivate let end: Int64
        fileprivate let count: Int
        fileprivate let total: Int128
    }

    /// Where the spool is now.
    public var mark: Mark { Mark(end: end, count: count, total: totalPrice) }

    /// Appends an item with a number; returns where its record starts.
    @discardableResult
    public func append(_ item: Item, tag: Int32) throws -> Int64 {
        let start = end
        try item.id.withUTF8Bytes { id in
            try item.name.withUTF8Bytes { name in
                let size = 4 + Self.fixedSize + 4 + id.count + 4 + name.count + Self.shareSize(item)
                if used + size > buffer.count { try flush() }
                if size <= buffer.count {
                    Self.lay(item, tag: tag, id: id, name: name, at: buffer.baseAddress! + used)
                    used += size
                } else {
                    // A record larger than the buffer (a name of most of a megabyte) goes to the file on its own.
                    try withUnsafeTemporaryAllocation(byteCount: size, alignment: 8) { record in
                        Self.lay(item, tag: tag, id: id, name: name, at: record.baseAddress!)
                        var written = 0
                        do {
                            try write(UnsafeRawBufferPointer(record), progress: &written)
                        } catch {
                            // No half record is left for the next one to follow.
                            if ftruncate(file.fd, off_t(start)) == 0 { flushed = start }
                            throw error
                        }
                    }
                }
            }
        }
        count += 1
        totalPrice += Int128(item.price)
        return start
    }

    /// Appends, as they are, the records another spool holds from `start` to `end` (where records begin, as a reader's
    /// `offset` gives them): `count` items whose prices add up to `total`. Copied as bytes, with no item made of them.
    public func append(recordsOf other: ItemSpool, from start: Int64, to end: Int64, count: Int, total: Int128) throws {
        try other.flush()
        guard start >= 0, start <= end, end <= other.flushed else { throw other.file.corrupt() }
        let before = mark
        do {
            var position = start
            while position < end {
                if used == buffer.count { try flush() }
                let want = min(buffer.count - used, Int(end - position))
                let got = pread(other.file.fd, buffer.baseAddress! + used, want, off_t(position))
                if got < 0, errno == EINTR { continue }
                if got < 0 { throw other.file.failure(writing: false) }
                guard got > 0 else { throw other.file.corrupt() }
                used += got
                position += Int64(got)
            }
        } catch {
            // No part of the records is left for the next record to follow.
            if before.end < flushed { try? truncate(to: before) } else { used = Int(before.end - flushed) }
            throw error
        }
        self.count += count
        totalPrice += total
    }

    /// The bytes a record's share takes after its name: none for an item of the app's six fields, else a flag byte (4: shared; 1:
    /// personal, 2: a payer follows), the payer's length and its bytes.
    private static func shareSize(_ item: Item) -> Int {
        item.hasShare ? 1 + 4 + (item.payer?.utf8.count ?? 0) : 0
    }

    /// Lays out an item's record at `start`: its length, then the fixed part, then its texts (numbers least significant
    /// byte first, whatever the machine's order). Laid out in place: appended to an array a piece at a time, it cost
    /// a thousand instructions a record.
    private static func lay(
        _ item: Item, tag: Int32, id: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>,
        at start: UnsafeMutableRawPointer
    ) {
        let length = fixedSize + 4 + id.count + 4 + name.count + shareSize(item)
        start.storeBytes(of: UInt32(length).littleEndian, toByteOffset: 0, as: UInt32.self)
        start.storeBytes(of: UInt32(bitPattern: tag).littleEndian, toByteOffset: 4, as: UInt32.self)
        start.storeBytes(of: UInt16(item.date.year).littleEndian, toByteOffset: 8, as: UInt16.self)
        start.storeBytes(of: UInt8(item.date.month), toByteOffset: 10, as: UInt8.self)
        start.storeBytes(of: UInt8(item.date.day), toByteOffset: 11, as: UInt8.self)
        start.storeBytes(of: UInt64(bitPattern: Int64(item.price)).littleEndian, toByteOffset: 12, as: UInt64.self)
        start.storeBytes(of: UInt64(bitPattern: Int64(item.category)).littleEndian, toByteOffset: 20, as: UInt64.self)
        start.storeBytes(
            of: UInt64(bitPattern: Int64(item.categorySub ?? 0)).littleEndian, toByteOffset: 28, as: UInt64.self)
        start.storeBytes(of: item.categorySub == nil ? 0 : 1, toByteOffset: 36, as: UInt8.self)
        start.storeBytes(of: UInt32(id.count).littleEndian, toByteOffset: 37, as: UInt32.self)
        var at = 41
        if let base = id.baseAddress { (start + at).copyMemory(from: base, byteCount: id.count) }
        at += id.count
        start.storeBytes(of: UInt32(name.count).littleEndian, toByteOffset: at, as: UInt32.self)
        at += 4
        if let base = name.baseAddress { (start + at).copyMemory(from: base, byteCount: name.count) }
        guard item.hasShare else { return }
        at += name.count
        let payer = Array((item.payer ?? "").utf8)
        start.storeBytes(
            of: UInt8((item.personal ? 1 : 0) | (item.payer == nil ? 0 : 2) | (item.shared ? 4 : 0)), toByteOffset: at,
            as: UInt8.self)
        start.storeBytes(of: UInt32(payer.count).littleEndian, toByteOffset: at + 1, as: UInt32.self)
        payer.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { (start + at + 5).copyMemory(from: base, byteCount: bytes.count) }
        }
    }

    /// Forgets every record appended since `mark`.
    public func truncate(to mark: Mark) throws {
        try flush()
        guard ftruncate(file.fd, off_t(mark.end)) == 0 else { throw file.failure(writing: true) }
        (flushed, count, totalPrice) = (mark.end, mark.count, mark.total)
    }

    /// Reads the records in the order written, from the one at `start` (the first unless given) to those before `end`.
    public func reader(from start: Int64 = 0, to end: Int64? = nil) throws -> Reader {
        try flush()
        return Reader(file: file, from: start, to: min(end ?? flushed, flushed))
    }

    /// Record by record from the file, through a buffer of its own; Sendable, to hand to an actor that caches them.
    public struct Reader: Sendable {
        private let file: SpoolFile
        private var position: Int64
        /// Where it stops: records appended after it was made are not read, so two readers made together agree.
        private let end: Int64
        private var chunk: [UInt8] = []
        private var index = 0

        fileprivate init(file: SpoolFile, from offset: Int64, to end: Int64) {
            self.file = file
            position = offset
            self.end = end
        }

        /// Where the next record starts (as `append` returned it).
        public var offset: Int64 { position - Int64(chunk.count - index) }

        /// The record that starts at `offset` (from `append`); reading on goes from there. Records near the last
        /// one read come from the buffer, so visiting them roughly in order reads the file about once.
        public mutating func record(at offset: Int64) throws -> (item: Item, tag: Int32) {
            try fields(at: offset) { fields, tag in (fields.item, tag) }
        }

        /// Hands the fields of the record that starts at `offset` to `body`, as `nextFields` does; reading on goes from
        /// there, and records near the last one read come from the buffer.
        public mutating func fields<R>(at offset: Int64, _ body: (ItemFields, Int32) throws -> R) throws -> R {
            let chunkStart = position - Int64(chunk.count)
            if offset >= chunkStart, offset < position {
                index = Int(offset - chunkStart)
            } else {
                (index, position) = (0, offset)
                chunk.removeAll(keepingCapacity: true)
            }
            guard let result = try nextFields(body) else { throw file.corrupt() }
            return result
        }

        /// The next record's tag alone (its item is skipped), or nil at the end.
        public mutating func nextTag() throws -> Int32? {
            guard let base = try nextRecord() else { return nil }
            return Int32(bitPattern: word(UInt32.self, at: base))
        }

        /// The next record, or nil at the end.
        public mutating func next() throws -> (item: Item, tag: Int32)? {
            try next(where: nil)
        }

        /// The next record whose day passes `keep` (the others are skipped without decoding their text), or nil at the end.
        public mutating func next(where keep: ((Int, Int) -> Bool)?) throws -> (item: Item, tag: Int32)? {
            try nextFields(where: keep) { fields, tag in (fields.item, tag) }
        }

        /// Hands the next record whose day passes `keep` to `body`, its texts as bytes in the reader's buffer (valid only
        /// there), and returns what `body` returns; nil at the end. A pass that needs no String of each item uses this.
        public mutating func nextFields<R>(
            where keep: ((Int, Int) -> Bool)? = nil,
            _ body: (ItemFields, Int32) throws -> R
        ) throws -> R? {
            while let base = try nextRecord() {
                let year = Int(word(UInt16.self, at: base + 4)), month = Int(chunk[base + 6]),
                    day = Int(chunk[base + 7])
                if let keep, !keep(year, month) { continue }
                let tag = Int32(bitPattern: word(UInt32.self, at: base))
                let price = Int(Int64(bitPattern: word(UInt64.self, at: base + 8)))
                let category = Int(Int64(bitPattern: word(UInt64.self, at: base + 16)))
                let sub = chunk[base + 32] == 0 ? nil : Int(Int64(bitPattern: word(UInt64.self, at: base + 24)))
                let idAt = base + ItemSpool.fixedSize
                guard idAt + 4 <= index else { throw file.corrupt() }
                let idSize = Int(word(UInt32.self, at: idAt))
                let nameAt = idAt + 4 + idSize
                guard idSize <= index - idAt - 4, nameAt + 4 <= index else { throw file.corrupt() }
                let nameSize = Int(word(UInt32.self, at: nameAt))
                guard nameSize <= index - nameAt - 4 else { throw file.corrupt() }
                guard let date = Day(year: year, month: month, day: day) else { throw file.corrupt() }
                // Who paid, after the name when the item has it.
                let shareAt = nameAt + 4 + nameSize
                var payer: String?, personal = false, shared = false
                if shareAt < index {
                    guard shareAt + 5 <= index else { throw file.corrupt() }
                    let flags = chunk[shareAt], payerSize = Int(word(UInt32.self, at: shareAt + 1))
                    guard payerSize <= index - shareAt - 5 else { throw file.corrupt() }
                    (personal, shared) = (flags & 1 != 0, flags & 4 != 0)
                    if flags & 2 != 0 {
                        payer = String(decoding: chunk[(shareAt + 5)..<(shareAt + 5 + payerSize)], as: UTF8.self)
                    }
                }
                return try chunk.withUnsafeBufferPointer { bytes in
                    let id = UnsafeBufferPointer(rebasing: bytes[(idAt + 4)..<(idAt + 4 + idSize)])
                    let name = UnsafeBufferPointer(rebasing: bytes[(nameAt + 4)..<(nameAt + 4 + nameSize)])
                    var fields = ItemFields(
                        id: id, date: date, name: name, price: price, category: category, categorySub: sub,
                        payer: payer, personal: personal)
                    fields.shared = shared
                    return try body(fields, tag)
                }
            }
            return nil
        }

        /// Steps over the next record and returns where its body (after the length) starts in `chunk`, or nil at the end.
        private mutating func nextRecord() throws -> Int? {
            guard try fill(4) else { return nil }
            let length = Int(word(UInt32.self, at: index))
            // Two texts of at most 2 GiB each would never be written; a length outside this is a damaged file.
            guard length >= ItemSpool.fixedSize + 8, length < 1 << 31 else { throw file.corrupt() }
            guard try fill(4 + length) else { throw file.corrupt() }
            let base = index + 4
            index = base + length
            return base
        }

        private func word<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
            precondition(offset >= 0 && offset + MemoryLayout<T>.size <= chunk.count)
            return chunk.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
        }

        /// Makes `needed` bytes from `index` available; false at a clean end of file.
        private mutating func fill(_ needed: Int) throws -> Bool {
            if chunk.count - index >= needed { return true }
            chunk.removeSubrange(..<index)
            index = 0
            while chunk.count < needed {
                let want = min(max(needed - chunk.count, ItemSpool.bufferSize), Int(max(end - position, 0)))
                guard want > 0 else {
                    if chunk.isEmpty { return false }
                    throw file.corrupt()
                }
                // Read straight into the chunk's new tail (a copy through another array went a byte at a time).
                let had = chunk.count
                chunk.append(contentsOf: repeatElement(0, count: want))
                let got = chunk.withUnsafeMutableBytes { pread(file.fd, $0.baseAddress! + had, want, off_t(position)) }
                chunk.removeLast(want - max(got, 0))
                if got < 0 {
                    if errno == EINTR { continue }
                    throw file.failure(writing: false)
                }
                if got == 0 {
                    if chunk.isEmpty { return false }
                    throw file.corrupt()
                }
                position += Int64(got)
            }
            return true
        }
    }

    private func flush() throws {
        let pending = UnsafeRawBufferPointer(rebasing: buffer[..<used])
        var written = 0
        // After a failed write, what was written is dropped from the buffer, so the next flush goes on from there.
        defer {
            if written < pending.count, written > 0, let base = buffer.baseAddress {
                base.copyMemory(from: base + written, byteCount: pending.count - written)
            }
            used -= written
        }
        try write(pending, progress: &written)
    }

    /// Writes bytes at the end of the file, counting in `progress` how many were written (all, unless it throws).
    private func write(_ bytes: UnsafeRawBufferPointer, progress: inout Int) throws {
        while progress < bytes.count {
            let written = pwrite(file.fd, bytes.baseAddress! + progress, bytes.count - progress, off_t(flushed))
            if written < 0 {
                if errno == EINTR { continue }
                throw file.failure(writing: true)
            }
            progress += written
            flushed += Int64(written)
        }
    }
}

/// The spool's unlinked file, closed when the spool and its last reader are gone.
private final class SpoolFile: Sendable {
    let fd: Int32
    /// Where the file was made, for messages.
    let place: String

    init() throws {
        let folder = FileManager.default.temporaryDirectory.path
        place = folder
        let path = (folder as NSString).appendingPathComponent(
            "expense-log-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).spool")
        fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreError.writeFailed(
                path: folder,
                reason: "no temporary file can be made there (\(AtomicFile.errorText())); "
                    + "set TMPDIR to a writable folder")
        }
        unlink(path)
    }

    deinit { close(fd) }

    func failure(writing: Bool) -> StoreError {
        let reason =
            "the import's temporary file \(writing ? "cannot be written" : "cannot be read") (\(AtomicFile.errorText())); "
            + "free some space or set TMPDIR to another folder"
        return writing ? .writeFailed(path: place, reason: reason) : .readFailed(path: place, reason: reason)
    }

    func corrupt() -> StoreError {
        .readFailed(path: place, reason: "the import's temporary file was changed while it was in use")
    }
}

extension ItemSpool: ItemRecords {
    /// Hands each item to `body`, read back in the order written.
    public func forEachItem(_ body: (Item) throws -> Void) throws {
        var reader = try reader()
        while let (item, _) = try reader.next() { try body(item) }
    }

    /// Hands each item's fields to `body`, read back in the order written, their texts borrowed from the buffer.
    public func forEachFields(_ body: (ItemFields) throws -> Void) throws {
        var reader = try reader()
        while try reader.nextFields({ fields, _ in try body(fields) }) != nil {}
    }
}
