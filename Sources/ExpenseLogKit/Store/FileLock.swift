import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory `flock(2)` on a lock file, which serialises processes the way an actor serialises tasks.
///
/// The kernel drops the lock when the process ends, however it ends, so a `kill -9` never leaves it held.
public enum FileLock {
    /// Runs `body` while holding an exclusive lock on `url`, waiting for other processes to release it.
    ///
    /// It blocks the calling thread: hold it only around short file work, never around network calls.
    public static func withLock<T>(_ url: URL, _ body: () throws -> T) throws -> T {
        let fd = try open(url)
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { throw StoreError.writeFailed(path: url.path, reason: "it cannot be locked (\(AtomicFile.errorText()))") }
        }
        return try body()
    }

    /// Runs `body` while holding an exclusive lock on `url`, or returns nil at once when another process holds it.
    public static func withLockIfFree<T>(_ url: URL, _ body: () async throws -> T) async throws -> T? {
        let fd = try open(url)
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EWOULDBLOCK { return nil }
            throw StoreError.writeFailed(path: url.path, reason: "it cannot be locked (\(AtomicFile.errorText()))")
        }
        return try await body()
    }

    private static func open(_ url: URL) throws -> Int32 {
        try AtomicFile.createDirectory(url.deletingLastPathComponent())
        #if canImport(Glibc)
        let fd = Glibc.open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        #else
        let fd = Darwin.open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        #endif
        guard fd >= 0 else {
            throw StoreError.writeFailed(path: url.path, reason: "the lock file cannot be opened (\(AtomicFile.errorText()))")
        }
        return fd
    }
}
