import ExpenseLogStore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Holds an exclusive `flock` on `url` through a file description of its own, as another process would.
func holdLock(_ url: URL) throws -> Int32 {
    let fd = openLockFile(url)
    try #require(fd >= 0)
    try #require(flock(fd, LOCK_EX | LOCK_NB) == 0)
    return fd
}

/// Opens (creating) a lock file, as a second open file description.
func openLockFile(_ url: URL) -> Int32 {
    #if canImport(Glibc)
    Glibc.open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    #else
    Darwin.open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    #endif
}

struct Thrown: Error {}

@Suite("File locks across processes")
struct FileLockTests {
    @Test("acquire takes a free lock, creating the lock file and its folders")
    func acquireTakesAFreeLock() async throws {
        try await withTemporaryDirectory { root in
            let lock = root.appendingPathComponent("a/b/.lock")
            let held = try await FileLock.acquire(lock)
            #expect(FileManager.default.fileExists(atPath: lock.path))
            held.release()
        }
    }

    @Test("acquire waits for a lock held elsewhere, off the cooperative pool, and takes it once it is released")
    func acquireWaitsForTheHolder() async throws {
        try await withTemporaryDirectory { root in
            let lock = root.appendingPathComponent(".lock")
            let fd = try holdLock(lock)
            let waiter = Task { try await FileLock.acquire(lock).release() }
            // Other tasks go on while the waiter waits: it blocks a thread of its own, not one of the pool's.
            for _ in 0..<100 { await Task.yield() }
            let stillHeld = openLockFile(lock)
            #expect(flock(stillHeld, LOCK_EX | LOCK_NB) != 0, "the holder still has it")
            close(stillHeld)
            close(fd)
            try await waiter.value
        }
    }

    @Test("withLockIfFree runs the body when nobody holds the lock")
    func ifFreeRuns() async throws {
        try await withTemporaryDirectory { root in
            let value = try await FileLock.withLockIfFree(root.appendingPathComponent("sync.lock")) { "ran" }
            #expect(value == "ran")
        }
    }

    @Test("withLockIfFree answers nil at once, without running the body, while the lock is held elsewhere")
    func ifFreeBusy() async throws {
        try await withTemporaryDirectory { root in
            let lock = root.appendingPathComponent("sync.lock")
            let fd = try holdLock(lock)
            defer { close(fd) }
            var ran = false
            let value: Int? = try await FileLock.withLockIfFree(lock) {
                ran = true
                return 1
            }
            #expect(value == nil)
            #expect(!ran)
        }
    }

    @Test("a nested withLockIfFree on the same file is busy while the outer one holds it")
    func nestedIfFree() async throws {
        try await withTemporaryDirectory { root in
            let lock = root.appendingPathComponent("sync.lock")
            let inner: Int?? = try await FileLock.withLockIfFree(lock) {
                try await FileLock.withLockIfFree(lock) { 1 }
            }
            #expect(inner == .some(nil))
        }
    }

    @Test("acquire holds the lock until it is released")
    func acquireHolds() async throws {
        try await withTemporaryDirectory { root in
            let lock = root.appendingPathComponent(".lock")
            let held = try await FileLock.acquire(lock)
            let fd = openLockFile(lock)
            defer { close(fd) }
            #expect(flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
            held.release()
            #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        }
    }

    @Test("the lock is released when the holder lets go, so the next taker gets it")
    func releasedWhenHolderCloses() async throws {
        try await withTemporaryDirectory { root in
            let lock = root.appendingPathComponent("sync.lock")
            let fd = try holdLock(lock)
            #expect(try await FileLock.withLockIfFree(lock) { 1 } == nil)
            close(fd)
            #expect(try await FileLock.withLockIfFree(lock) { 2 } == 2)
        }
    }

    @Test("each lock is released after its body, even when the body throws")
    func releasedAfterBody() async throws {
        try await withTemporaryDirectory { root in
            let lock = root.appendingPathComponent(".lock")
            await #expect(throws: Thrown.self) { _ = try await FileLock.withLockIfFree(lock) { throw Thrown() } }
            try await FileLock.acquire(lock).release()
            // Nobody holds it any more: another holder can take it without waiting.
            let fd = try holdLock(lock)
            close(fd)
        }
    }

    @Test("a lock file that cannot be created is a writeFailed naming the path")
    func cannotCreate() async throws {
        try await withTemporaryDirectory { root in
            let notAFolder = root.appendingPathComponent("file")
            try writeText("x", to: notAFolder)
            let lock = notAFolder.appendingPathComponent(".lock")
            let error = try await #require(throws: StoreError.self) { try await FileLock.acquire(lock) }
            guard case .writeFailed(let path, _) = error else {
                Issue.record("expected writeFailed, got \(error)")
                return
            }
            #expect(path.hasPrefix(notAFolder.path))
            await #expect(throws: StoreError.self) { try await FileLock.withLockIfFree(lock) { 0 } }
        }
    }
}
