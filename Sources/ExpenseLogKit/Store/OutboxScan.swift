import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an outbox entry a line at a time, as `Outbox` writes it: a header line; per batch a line
/// `{"key":"K","items":[`, a line per item and a line `]}` (`]},` when another batch follows); then `]}`. Only one
/// batch is ever held, so `pending` and `sync` stay flat however large an offline import was; an entry in any other
/// layout is refused (it was not written by expense-log).
struct OutboxScan {
    /// The largest batch read: a batch of 10,000 items (the largest `--batch-size`) is a few MiB.
    static let batchLimit = 64 << 20

    private enum State {
        case header, between, ended
        /// Inside a batch's item lines: its key, its first line, where its body starts in the file, and the body so far.
        case batch(key: String, line: Int, start: Int64, body: [UInt8])
    }

    /// The entry's time and its batches (each with its item count and months when `parseItems`), all batches
    /// listed whether sent or not.
    static func scan(_ file: URL, parseItems: Bool) throws -> (queuedAt: Date, batches: [QueuedBatch]) {
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw CocoaError(.fileReadNoSuchFile) }
            throw StoreError.readFailed(path: file.path, reason: AtomicFile.errorText())
        }
        defer { close(fd) }
        var queuedAt = Date(timeIntervalSince1970: 0), batches: [QueuedBatch] = [], state = State.header
        var line: [UInt8] = [], lineStart: Int64 = 0, offset: Int64 = 0, lineNumber = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        func fail(_ reason: String, line: Int? = nil) -> StoreError {
            StoreError.readFailed(path: file.path, reason: "line \(line ?? lineNumber): \(reason)")
        }
        func batch(_ key: String, from first: Int, _ body: Range<Int64>, _ bytes: ArraySlice<UInt8>) throws -> QueuedBatch {
            guard parseItems else { return QueuedBatch(key: key, body: body, count: 0, months: []) }
            do {
                let items = try Outbox.items(Data(bytes))
                return QueuedBatch(key: key, body: body, count: items.count, months: Set(items.map(\.date.yearMonth)).sorted())
            } catch {
                throw fail("the batch \(key): \(DecodingProblem.describe(error, bytes: bytes.count))", line: first)
            }
        }
        func take(_ line: ArraySlice<UInt8>) throws {
            lineNumber += 1
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
                let start = lineStart + Int64(items.startIndex - line.startIndex)
                if items.elementsEqual("[".utf8) {
                    state = .batch(key: key, line: lineNumber, start: start, body: parseItems ? Array(items) + [0x0A] : [])
                } else {
                    // A batch on one line: `[]}` (no items), with `,` when another follows.
                    var body = items
                    if body.last == UInt8(ascii: ",") { body = body.dropLast() }
                    guard body.last == UInt8(ascii: "}") else { throw fail(layoutProblem) }
                    body = body.dropLast()
                    batches.append(try batch(key, from: lineNumber, start..<(start + Int64(body.count)), body))
                }
            case .batch(let key, let first, let start, var body):
                let last = line.elementsEqual("]}".utf8) || line.elementsEqual("]},".utf8)
                if parseItems {
                    body.append(contentsOf: last ? line.prefix(1) : line)
                    if !last { body.append(0x0A) }
                }
                guard last else {
                    state = .batch(key: key, line: first, start: start, body: body)
                    return
                }
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
            if case .batch(let key, _, let start, _) = state, offset - start > Int64(batchLimit) {
                throw fail("the batch \(key) is larger than \(batchLimit >> 20) MiB, which no batch expense-log writes is")
            }
        }
        if !line.isEmpty { try take(line[...]) }  // a last line without its newline
        guard case .ended = state else {
            throw StoreError.readFailed(path: file.path, reason: "it ends early, at \(offset) bytes (cut short?)")
        }
        return (queuedAt, batches)
    }

    private static let layoutProblem = "not in the layout expected (as expense-log writes its outbox entries)"

    /// The time of a header line `{"queuedAt":1705900000.5,"batches":[`.
    private static func header(_ line: ArraySlice<UInt8>) -> Double? {
        let prefix = Array(#"{"queuedAt":"#.utf8), suffix = Array(#","batches":["#.utf8)
        guard line.count >= prefix.count + suffix.count, line.starts(with: prefix),
              line.reversed().starts(with: suffix.reversed()) else { return nil }
        return Double(String(decoding: line.dropFirst(prefix.count).dropLast(suffix.count), as: UTF8.self))
    }

    /// The key and what follows `"items":` on a batch's first line, `{"key":"K","items":[`.
    private static func batchStart(_ line: ArraySlice<UInt8>) -> (String, ArraySlice<UInt8>)? {
        let prefix = Array(#"{"key":""#.utf8), middle = Array(#"","items":"#.utf8)
        guard line.starts(with: prefix) else { return nil }
        let rest = line.dropFirst(prefix.count)
        guard let quote = rest.firstIndex(of: UInt8(ascii: "\"")), rest[quote...].starts(with: middle) else { return nil }
        return (String(decoding: rest[..<quote], as: UTF8.self), rest[(quote + middle.count)...])
    }
}
