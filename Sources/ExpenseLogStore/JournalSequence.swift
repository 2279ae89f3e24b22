import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The journal's sequence numbers: each new entry's name starts with the next one, so the folder's order is the order
/// the writes were made in, even when the clock is set back between two of them.
///
/// A number is the larger of the last one plus one and the time in microseconds: entries written by earlier versions
/// (named by their time alone) keep their names and their places, before every new one.
enum JournalSequence {
    /// The file holding the last number given out, beside the journal's folder (which holds entries alone).
    static func file(in directory: URL) -> URL {
        directory.deletingLastPathComponent().appendingPathComponent(directory.lastPathComponent + ".sequence")
    }

    /// The next number, taken under an exclusive lock on the sequence file, so two runs never take the same one.
    static func next(in directory: URL, now: Date) throws -> UInt64 {
        try AtomicFile.createDirectory(directory)
        let path = file(in: directory).path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, PrivateFiles.file)
        guard fd >= 0 else { throw StoreError.writeFailed(path: path, reason: AtomicFile.errorText()) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw StoreError.writeFailed(path: path, reason: AtomicFile.errorText()) }
        }
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = pread(fd, &bytes, bytes.count, 0)
        let text = String(decoding: bytes.prefix(max(0, count)), as: UTF8.self)
        // The newest entry's number too: the file's may be missing, torn, or behind (its write is not fsynced), and the
        // entries' names hold the order whatever happened to it.
        let last = max(UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, newestNumber(in: directory))
        let next = max(last + 1, UInt64(max(0, now.timeIntervalSince1970) * 1_000_000))
        let line = Array("\(next)\n".utf8)
        // Not fsynced: after a power cut the entries' names still hold the order (see above).
        guard ftruncate(fd, 0) == 0, line.withUnsafeBytes({ pwrite(fd, $0.baseAddress, $0.count, 0) }) == line.count
        else { throw StoreError.writeFailed(path: path, reason: AtomicFile.errorText()) }
        return next
    }

    /// An entry's file name for a number: 20 digits (as earlier versions' time stamps), the process and a random part.
    static func name(_ number: UInt64) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + "-\(getpid())-"
            + UUID().uuidString.prefix(8) + ".json"
    }

    /// A new name with the number of another entry's file, so that it takes that entry's place in the order.
    static func name(sharing file: URL) -> String {
        let number = file.lastPathComponent.prefix { $0 != "-" }
        return number + "-\(getpid())-" + UUID().uuidString.prefix(8) + ".json"
    }

    /// The number of the newest entry in the folder (0 for none).
    private static func newestNumber(in directory: URL) -> UInt64 {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.compactMap { UInt64($0.prefix { $0.isNumber }) }.max() ?? 0
    }
}
