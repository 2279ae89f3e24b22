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
    /// Takes an exclusive lock on `url`, waiting for other processes to release it, without blocking a thread of
    /// Swift's cooperative pool (two cores here: a blocked pool thread would stall every task): a free lock is taken at
    /// once, and a held one is waited for on a thread of its own. Hold it only around short file work.
    public static func acquire(_ url: URL) async throws -> sending HeldLock {
        let fd = try openLockFile(url)
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return HeldLock(descriptor: fd) }
        guard errno == EWOULDBLOCK || errno == EINTR else {
            let reason = AtomicFile.errorText()
            close(fd)
            throw StoreError.writeFailed(path: url.path, reason: "it cannot be locked (\(reason))")
        }
        let failure: String? = await withCheckedContinuation { continuation in
            Thread {
                while flock(fd, LOCK_EX) != 0 {
                    if errno != EINTR { return continuation.resume(returning: AtomicFile.errorText()) }
                }
                continuation.resume(returning: nil)
            }.start()
        }
        if let failure {
            close(fd)
            throw StoreError.writeFailed(path: url.path, reason: "it cannot be locked (\(failure))")
        }
        return HeldLock(descriptor: fd)
    }

    /// Runs `body` while holding an exclusive lock on `url`, or returns nil at once when another process holds it.
    public static func withLockIfFree<T>(_ url: URL, _ body: () async throws -> T) async throws -> T? {
        let fd = try openLockFile(url)
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EWOULDBLOCK { return nil }
            throw StoreError.writeFailed(path: url.path, reason: "it cannot be locked (\(AtomicFile.errorText()))")
        }
        return try await body()
    }

    /// Takes the lock file at `url` (made when missing) if no other process holds it; nil when one does.
    public static func holdLockFileIfFree(_ url: URL) throws -> HeldLock? {
        let fd = try openLockFile(url)
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let failure = errno
            close(fd)
            if failure == EWOULDBLOCK { return nil }
            throw StoreError.writeFailed(path: url.path, reason: "it cannot be locked (\(StoreError.posix(failure)))")
        }
        return HeldLock(descriptor: fd)
    }

    /// Locks an open file (non-blocking) on a duplicate of `fd`, so the lock outlives the caller closing `fd`.
    public static func hold(descriptor fd: Int32, path: String) throws -> HeldLock {
        // Close-on-exec: a child process started meanwhile (a test runner's) must not inherit, and so keep, the lock.
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0, flock(copy, LOCK_EX | LOCK_NB) == 0 else {
            let reason = AtomicFile.errorText()
            if copy >= 0 { close(copy) }
            throw StoreError.writeFailed(path: path, reason: "it cannot be locked (\(reason))")
        }
        return HeldLock(descriptor: copy)
    }

    /// Locks an existing file if no other process holds it; nil when it is held or no longer exists.
    public static func holdIfFree(_ url: URL) throws -> HeldLock? {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw StoreError.readFailed(path: url.path, reason: AtomicFile.errorText())
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            close(fd)
            return nil
        }
        return HeldLock(descriptor: fd)
    }

    private static func openLockFile(_ url: URL) throws -> Int32 {
        try AtomicFile.createDirectory(url.deletingLastPathComponent())
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, PrivateFiles.file)
        guard fd >= 0 else {
            throw StoreError.writeFailed(
                path: url.path, reason: "the lock file cannot be opened (\(AtomicFile.errorText()))")
        }
        return fd
    }
}

/// A `flock` held until `release()` (or until this object goes away, or the process ends).
public final class HeldLock {
    private var descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Releases the lock; later calls do nothing.
    public func release() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    deinit { release() }
}
