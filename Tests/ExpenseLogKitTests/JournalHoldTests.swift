import ExpenseLogStore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether another holder (a second open file description, as another process has) could lock `file` right now.
func lockableElsewhere(_ file: URL) throws -> Bool {
    let fd = openLockFile(file)
    try #require(fd >= 0)
    defer { close(fd) }
    return flock(fd, LOCK_EX | LOCK_NB) == 0
}

@Suite("Holding outbox entries while sending them")
struct JournalHoldTests {
    @Test("enqueueHeld returns the entry it wrote, already locked: no one else can hold it until it is released")
    func enqueueHeldIsLocked() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root.appendingPathComponent("release/journal"))
            let batches = try twoBatches()
            let (entry, lock) = try outbox.appendHeld(batches)
            #expect(try entry.loaded(outbox) == batches)
            #expect(try outbox.listing().itemEntries.map(\.file.lastPathComponent) == [entry.file.lastPathComponent])
            #expect(try !lockableElsewhere(entry.file))
            #expect(try outbox.hold(entry) == nil)
            lock.release()
            let (fresh, again) = try #require(try outbox.hold(entry))
            #expect(fresh.file == entry.file)
            #expect(try fresh.loaded(outbox) == batches)
            again.release()
        }
    }

    @Test("an entry written a batch at a time is locked, reads back like one written whole, and gives each body back")
    func enqueueHeldWriting() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root.appendingPathComponent("release/journal"))
            let batches = try twoBatches()
            let (entry, lock) = try outbox.appendHeld { add in
                for batch in batches { try add(batch.queued) }
            }
            #expect(entry.batches.map(\.key) == batches.map(\.key))
            #expect(entry.batches.map(\.count) == batches.map(\.items.count))
            for (batch, place) in zip(batches, entry.batches) {
                #expect(try outbox.body(of: place, in: entry) == batch.body)
            }
            #expect(try !lockableElsewhere(entry.file))
            lock.release()
            let (fresh, again) = try #require(try outbox.hold(entry))
            #expect(try fresh.loaded(outbox) == batches)
            again.release()
            // Confirming every key of the written entry removes it, as for an entry read back.
            for key in entry.batches.map(\.key) { try outbox.markSent(key, in: entry) }
            #expect(try outbox.listing().itemEntries.isEmpty)
        }
    }

    @Test("a writer that fails part way leaves no entry and no temporary file")
    func enqueueHeldWritingFails() async throws {
        struct Stop: Error {}
        try await withTemporaryDirectory { root in
            let folder = root.appendingPathComponent("release/journal")
            let outbox = Journal(directory: folder)
            let batches = try twoBatches()
            #expect(throws: Stop.self) {
                _ = try outbox.appendHeld { add in
                    try add(batches[0].queued)
                    throw Stop()
                }
            }
            #expect(fileNames(in: folder).isEmpty)
        }
    }

    @Test("while one holder has an entry, hold answers nil; after release it succeeds")
    func holdIsExclusive() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let entry = try outbox.append(try twoBatches())
            let (_, first) = try #require(try outbox.hold(entry))
            #expect(try outbox.hold(entry) == nil)
            #expect(try !lockableElsewhere(entry.file))
            first.release()
            #expect(try lockableElsewhere(entry.file))
            #expect(try outbox.hold(entry) != nil)
        }
    }

    @Test("release is idempotent: a second release does not free a lock someone else took since")
    func releaseTwice() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let (entry, first) = try outbox.appendHeld(try twoBatches())
            first.release()
            let (_, second) = try #require(try outbox.hold(entry))
            first.release()
            #expect(try outbox.hold(entry) == nil, "the second holder still has it")
            second.release()
            second.release()
            #expect(try lockableElsewhere(entry.file))
        }
    }

    @Test("a held lock that goes away unreleased frees the entry")
    func droppedLockFrees() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let entry = try outbox.append(try twoBatches())
            do {
                let held = try #require(try outbox.hold(entry))
                #expect(try !lockableElsewhere(held.0.file))
            }
            #expect(try lockableElsewhere(entry.file))
        }
    }

    @Test("hold reads the entry afresh: batches confirmed since it was listed are gone")
    func holdIsFresh() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let batches = try twoBatches()
            let entry = try outbox.append(batches)
            try outbox.markSent(batches[0].key, in: entry)
            let (fresh, lock) = try #require(try outbox.hold(entry))
            defer { lock.release() }
            #expect(try fresh.loaded(outbox) == [batches[1]])
            #expect(fresh.file == entry.file)
        }
    }

    @Test("hold answers nil for an entry that was sent and removed")
    func holdGone() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let batches = try twoBatches()
            let entry = try outbox.append(batches)
            for batch in batches { try outbox.markSent(batch.key, in: entry) }
            #expect(!FileManager.default.fileExists(atPath: entry.file.path))
            #expect(try outbox.hold(entry) == nil)
        }
    }

    @Test("hold answers nil for an entry whose every batch is confirmed though a crash left its file")
    func holdAllSent() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let batches = try twoBatches()
            let entry = try outbox.append(batches)
            try writeText(batches.map { $0.key + "\n" }.joined(), to: sentLog(of: entry.file))
            #expect(try outbox.hold(entry) == nil)
            #expect(try lockableElsewhere(entry.file), "a nil answer holds nothing")
        }
    }

    @Test("FileLock.holdIfFree answers nil for a missing file, and FileLock.hold refuses a file locked elsewhere")
    func fileLockPrimitives() async throws {
        try await withTemporaryDirectory { root in
            #expect(try FileLock.holdIfFree(root.appendingPathComponent("missing.json")) == nil)
            let file = root.appendingPathComponent("entry.json")
            let other = try holdLock(file)
            defer { close(other) }
            #expect(try FileLock.holdIfFree(file) == nil)
            let fd = openLockFile(file)
            try #require(fd >= 0)
            defer { close(fd) }
            let error = try #require(throws: StoreError.self) { try FileLock.hold(descriptor: fd, path: file.path) }
            guard case .writeFailed(let path, _) = error else {
                Issue.record("expected writeFailed, got \(error)")
                return
            }
            #expect(path == file.path)
        }
    }
}

@Suite("Listing the outbox: missing means empty, unlistable is an error")
struct OutboxListingTests {
    @Test("a missing outbox folder is empty: no entries, no problems, nothing pending")
    func missingIsEmpty() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root.appendingPathComponent("state/release/journal"))
            let (entries, problems) = try outbox.entries()
            #expect(entries.isEmpty)
            #expect(problems.isEmpty)
            #expect(try outbox.pendingCount() == 0)
        }
    }

    @Test("an outbox path that is a regular file cannot be listed: entries and pendingCount throw readFailed naming it")
    func fileInsteadOfFolder() async throws {
        try await withTemporaryDirectory { root in
            let path = root.appendingPathComponent("outbox")
            try writeText("not a folder", to: path)
            let outbox = Journal(directory: path)
            let error = try #require(throws: StoreError.self) { try outbox.entries() }
            guard case .readFailed(let named, _) = error else {
                Issue.record("expected readFailed, got \(error)")
                return
            }
            #expect(named == path.path)
            #expect(throws: StoreError.self) { try outbox.pendingCount() }
        }
    }

    @Test("an entry that vanishes between listing and reading (sent by another process) is skipped, not a problem")
    func vanishedEntry() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let kept = try outbox.append(try twoBatches())
            // A name that lists but no longer opens, as an entry another sync removed right after the listing.
            let vanished = root.appendingPathComponent("00000000000000000001-1-GONE.json")
            try FileManager.default.createSymbolicLink(
                atPath: vanished.path, withDestinationPath: root.appendingPathComponent("nowhere").path)
            let (entries, problems) = try outbox.entries()
            #expect(entries.map(\.file) == [kept.file])
            #expect(entries.map(\.batches) == [kept.batches])
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    @Test("enqueue returns the entry as entries() reads it back")
    func enqueueReturnsEntry() async throws {
        try await withTemporaryDirectory { root in
            let outbox = Journal(directory: root)
            let queued = try outbox.append(try twoBatches(), now: Date(timeIntervalSince1970: 1_705_900_000.5))
            #expect(try outbox.listing().itemEntries == [queued])
        }
    }
}
