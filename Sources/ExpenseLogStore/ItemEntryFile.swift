import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file format of a journal entry of items, apart from the journal's rules (`Journal`): a header line; per batch a line
/// `{"key":"K","items":[`, a line per item and a line `]}` (`]},` when another batch follows); then `]}`. It is read a
/// line at a time and only one batch is ever held, so `pending` and `sync` stay flat however large an offline import
/// was; an entry in any other layout is refused (it was not written by expense-log).
enum ItemEntryFile {
    /// The largest batch read: a batch of 10,000 items (the largest `--batch-size`) is a few MiB.
    static let batchLimit = 64 << 20

    /// Writes an entry atomically (write-temp, `fsync`, rename) from the batches `batches` hands over one at a time;
    /// returns where each batch's body lies. `beforeRename` gets the descriptor before the entry appears (to lock it).
    static func write(
        to file: URL, queuedAt: Date, beforeRename: ((Int32) throws -> Void)?,
        batches: ((BatchBody) throws -> Void) throws -> Void
    ) throws -> [QueuedBatch] {
        var queued: [QueuedBatch] = []
        try AtomicFile.write(to: file, beforeRename: beforeRename) { emit in
            // `batches` calls back into `emit`; both are non-escaping, which Swift allows only through this.
            try withoutActuallyEscaping(emit) { emit in
                var offset: Int64 = 0
                func put(_ data: Data) throws {
                    try data.withUnsafeBytes { try emit($0) }
                    offset += Int64(data.count)
                }
                try put(Data("{\"queuedAt\":\(queuedAt.timeIntervalSince1970),\"batches\":[".utf8))
                try batches { batch in
                    // The key is written unescaped into the entry and its logs: only what an Idempotency-Key holds.
                    guard !batch.key.isEmpty,
                        batch.key.utf8.allSatisfy({
                            $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0)
                                || (0x41...0x5A).contains($0 & 0xDF)
                        })
                    else {
                        throw StoreError.writeFailed(
                            path: file.path, reason: "the batch key \(batch.key) is not letters, digits and dashes")
                    }
                    try put(Data("\(queued.isEmpty ? "\n" : ",\n"){\"key\":\"\(batch.key)\",\"items\":".utf8))
                    queued.append(
                        QueuedBatch(
                            key: batch.key, body: offset..<(offset + Int64(batch.body.count)), count: batch.count,
                            months: batch.months))
                    try put(batch.body)
                    try put(Data("}".utf8))
                }
                try put(Data("\n]}\n".utf8))
            }
        }
        return queued
    }

    /// The body of a batch, read back from its entry's file; `CocoaError(.fileReadNoSuchFile)` when the file is gone, and
    /// `StoreError.changed` when the file opened is not the `expected` version (edited, even to the same length, or
    /// replaced): the byte ranges belong to the file as it was listed.
    static func body(of batch: QueuedBatch, in file: URL, expected: FileIdentity?) throws -> Data {
        // pread, not FileHandle: Foundation's FileHandle traps on EINTR.
        func failure(_ reason: String) -> StoreError {
            StoreError.readFailed(
                path: file.path, reason: "the queued batch \(batch.key) cannot be read back (\(reason))")
        }
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw CocoaError(.fileReadNoSuchFile) }  // sent and removed since it was listed
            throw failure(AtomicFile.errorText())
        }
        defer { close(fd) }
        // Checked on the descriptor that is read, so a file replaced in between cannot slip through.
        if let expected, FileIdentity(descriptor: fd) != expected {
            throw StoreError.changed(
                path: file.path,
                next: "what was sent before is recorded, and the rest stays queued; "
                    + "run `expense-log sync` again, which reads the entry afresh")
        }
        var data = Data(count: batch.body.count), done = 0
        while done < data.count {
            let count = data.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + done, $0.count - done, off_t(batch.body.lowerBound) + off_t(done))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw failure(count < 0 ? AtomicFile.errorText() : "the file is shorter than it was")
            }
            done += count
        }
        return data
    }

    /// The items of a batch's JSON array, through `ItemCodec`, whose problems say what is wrong. An item
    /// `register` would refuse, or an id given twice, is refused too: the entry was edited by hand, and `sync` must not
    /// send what `register` never would.
    static func items(_ body: Data) throws -> [Item] {
        let items = try ItemCodec.items(body)
        var ids = Set<String>()
        for (index, item) in items.enumerated() {
            if let refusal = item.refusal {
                throw BatchItemProblem(
                    index: index, message: "item \(index + 1) (id \(PrintableText.of(item.id))): \(refusal)")
            }
            if !ids.insert(item.id).inserted {
                throw BatchItemProblem(
                    index: index, message: "item \(index + 1): the id \(PrintableText.of(item.id)) is given twice")
            }
        }
        return items
    }

    /// An item of a batch that `register` would refuse, with its place in the batch.
    struct BatchItemProblem: Error, CustomStringConvertible {
        let index: Int
        let message: String
        var description: String { message + "; fix or remove it, or move the entry away" }
    }

    private enum State {
        case header, between, ended
        /// Inside a batch's item lines: its key, its first line, and where its body starts in the file.
        case batch(key: String, line: Int, start: Int64)
    }

    /// The entry's time and its batches, all listed whether sent or not; each batch not in `sent` is read once to
    /// count its items and months when `parseItems`.
    static func scan(
        _ file: URL, parseItems: Bool, sent: Set<String> = []
    )
        throws -> (queuedAt: Date, batches: [QueuedBatch], identity: FileIdentity)
    {
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw CocoaError(.fileReadNoSuchFile) }
            throw StoreError.readFailed(path: file.path, reason: AtomicFile.errorText())
        }
        defer { close(fd) }
        guard let identity = FileIdentity(descriptor: fd) else {
            throw StoreError.readFailed(path: file.path, reason: AtomicFile.errorText())
        }
        var queuedAt = Date(timeIntervalSince1970: 0), batches: [QueuedBatch] = [], state = State.header
        // The body of the batch being read, kept apart from `state` so that appending never copies it.
        var body: [UInt8] = [], reading = false
        var line: [UInt8] = [], lineStart: Int64 = 0, offset: Int64 = 0, lineNumber = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        func fail(_ reason: String, line: Int? = nil) -> StoreError {
            StoreError.readFailed(path: file.path, reason: "line \(line ?? lineNumber): \(reason)")
        }
        func batch(
            _ key: String, from first: Int, _ range: Range<Int64>, _ bytes: ArraySlice<UInt8>, oneLine: Bool = false
        ) throws -> QueuedBatch {
            guard parseItems, !sent.contains(key) else {
                return QueuedBatch(key: key, body: range, count: 0, months: [])
            }
            do {
                let items = try items(Data(bytes))
                return QueuedBatch(key: key, body: range, count: items.count, months: items.months)
            } catch let problem as BatchItemProblem {
                // One item a line after the batch's key line, unless the batch is on one line.
                throw fail("the batch \(key): \(problem)", line: oneLine ? first : first + 1 + problem.index)
            } catch let problem as ItemCodec.Problem {
                throw fail(
                    "the batch \(key): " + (problem.item.map { "item \($0): " } ?? "") + problem.message,
                    line: first + problem.line - 1)
            } catch {
                throw fail("the batch \(key): \(error)", line: first)
            }
        }
        func take(_ whole: ArraySlice<UInt8>) throws {
            lineNumber += 1
            // A line ending CRLF (an entry that went through a Windows editor) reads as one ending LF.
            let line = whole.last == 0x0D ? whole.dropLast() : whole
            switch state {
            case .header:
                guard let time = header(line) else { throw fail(layoutProblem) }
                queuedAt = Date(timeIntervalSince1970: time)
                state = .between
            case .between:
                if line.elementsEqual("]}".utf8) {
                    state = .ended
                    return
                }
                guard let (key, items) = batchStart(line) else { throw fail(layoutProblem) }
                let start = lineStart + Int64(items.startIndex - whole.startIndex)
                if items.elementsEqual("[".utf8) {
                    state = .batch(key: key, line: lineNumber, start: start)
                    reading = parseItems && !sent.contains(key)
                    body.removeAll(keepingCapacity: true)
                    if reading { body.append(contentsOf: "[\n".utf8) }
                } else {
                    // A batch on one line: `[]}` (no items), with `,` when another follows.
                    var one = items
                    if one.last == UInt8(ascii: ",") { one = one.dropLast() }
                    guard one.last == UInt8(ascii: "}") else { throw fail(layoutProblem) }
                    one = one.dropLast()
                    batches.append(
                        try batch(key, from: lineNumber, start..<(start + Int64(one.count)), one, oneLine: true))
                }
            case .batch(let key, let first, let start):
                let last = line.elementsEqual("]}".utf8) || line.elementsEqual("]},".utf8)
                if reading {
                    body.append(contentsOf: last ? line.prefix(1) : whole)
                    if !last { body.append(0x0A) }
                }
                guard last else { return }
                batches.append(try batch(key, from: first, start..<(lineStart + 1), body[...]))
                state = .between
            case .ended:
                throw fail("text after the end of the batches")
            }
        }
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw StoreError.readFailed(path: file.path, reason: AtomicFile.errorText())
            }
            if count == 0 { break }
            var from = 0
            while let newline = chunk[from..<count].firstIndex(of: 0x0A) {
                if line.isEmpty {
                    try take(chunk[from..<newline])
                } else {
                    line.append(contentsOf: chunk[from..<newline])
                    try take(line[...])
                    line.removeAll(keepingCapacity: false)
                }
                offset += Int64(newline - from + 1)
                lineStart = offset
                from = newline + 1
            }
            line.append(contentsOf: chunk[from..<count])
            offset += Int64(count - from)
            if line.count > batchLimit { throw fail("a line longer than \(batchLimit >> 20) MiB, which no batch has") }
            if case .batch(let key, _, let start) = state, offset - start > Int64(batchLimit) {
                throw fail(
                    "the batch \(key) is larger than \(batchLimit >> 20) MiB, which no batch expense-log writes is")
            }
        }
        if !line.isEmpty { try take(line[...]) }  // a last line without its newline
        guard case .ended = state else {
            throw StoreError.readFailed(path: file.path, reason: "it ends early, at \(offset) bytes (cut short?)")
        }
        return (queuedAt, batches, identity)
    }

    private static let layoutProblem = "not in the layout expected (as expense-log writes its journal entries)"

    /// The time of a header line `{"queuedAt":1705900000.5,"batches":[`.
    private static func header(_ line: ArraySlice<UInt8>) -> Double? {
        let prefix = Array(#"{"queuedAt":"#.utf8), suffix = Array(#","batches":["#.utf8)
        guard line.count >= prefix.count + suffix.count, line.starts(with: prefix),
            line.reversed().starts(with: suffix.reversed())
        else { return nil }
        return Double(String(decoding: line.dropFirst(prefix.count).dropLast(suffix.count), as: UTF8.self))
    }

    /// The key and what follows `"items":` on a batch's first line, `{"key":"K","items":[`.
    private static func batchStart(_ line: ArraySlice<UInt8>) -> (String, ArraySlice<UInt8>)? {
        let prefix = Array(#"{"key":""#.utf8), middle = Array(#"","items":"#.utf8)
        guard line.starts(with: prefix) else { return nil }
        let rest = line.dropFirst(prefix.count)
        guard let quote = rest.firstIndex(of: UInt8(ascii: "\"")), rest[quote...].starts(with: middle) else {
            return nil
        }
        return (String(decoding: rest[..<quote], as: UTF8.self), rest[(quote + middle.count)...])
    }
}

/// What tells one version of a file from another: an entry edited or replaced by hand after `sync` listed it must be
/// read again, never sent by the byte ranges of the file it replaced.
struct FileIdentity: Sendable, Equatable {
    let device: UInt64, inode: UInt64, size: Int64, modified: Int64, modifiedNanoseconds: Int

    /// The identity of an open file; nil when it cannot be read.
    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The identity of the file at a path; nil when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        #if canImport(Darwin)
        (modified, modifiedNanoseconds) = (Int64(info.st_mtimespec.tv_sec), info.st_mtimespec.tv_nsec)
        #else
        (modified, modifiedNanoseconds) = (Int64(info.st_mtim.tv_sec), info.st_mtim.tv_nsec)
        #endif
        // dev_t is a UInt64 on Linux and an Int32 on Darwin (sys/_types/_dev_t.h), where a negative device number must not trap.
        (device, inode, size) = (UInt64(truncatingIfNeeded: info.st_dev), UInt64(info.st_ino), Int64(info.st_size))
    }
}
