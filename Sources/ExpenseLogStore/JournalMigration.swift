import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Moves what versions before the journal queued (items in `outbox/`, changes in `edits/`) into the journal, once.
///
/// Both kinds of file already had names that sort by the time they were queued, so each keeps its name and with it its
/// place. It runs only while no other run sends (it holds the journal's lock, the one earlier versions' `sync` held too),
/// and leaves alone an entry an earlier version's `register` is still sending (it holds that entry's lock): the next run
/// moves it. An entry's logs (`.sent`, `.tried`) move before the entry, each by `rename`, so an interrupted move leaves
/// every file whole in one folder or the other and the next run finishes it. The old folders are removed once empty.
public enum JournalMigration {
    /// What a run of the move did.
    public struct Moved: Sendable, Equatable {
        /// How many entries were moved.
        public var entries = 0
        /// Whether another run was sending, so nothing was moved this time.
        public var busy = false

        /// What a move did.
        public init(entries: Int = 0, busy: Bool = false) {
            (self.entries, self.busy) = (entries, busy)
        }
    }

    /// Moves every entry of `legacy` into `journal` that no other run holds.
    @discardableResult
    public static func run(into journal: Journal, from legacy: [URL]) throws -> Moved {
        var moved = Moved()
        // Only a folder can be one an earlier version wrote; anything else in its place is not ours to move.
        let folders = legacy.filter { folder in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) && isFolder.boolValue
        }
        guard !folders.isEmpty else { return moved }
        guard let lock = try FileLock.holdLockFileIfFree(journal.lock) else {
            moved.busy = true
            return moved
        }
        defer { lock.release() }
        for folder in folders {
            let names = try QueueFolder.entryNames(
                in: folder, what: "the folder of writes queued by an earlier version")
            if !names.isEmpty { try AtomicFile.createDirectory(journal.directory) }
            for name in names {
                // An earlier version's `register` may still be sending it: it moves at a later run.
                guard let entryLock = try FileLock.holdIfFree(folder.appendingPathComponent(name)) else { continue }
                defer { entryLock.release() }
                let stem = String(name.dropLast(".json".count))
                for file in [stem + ".sent", stem + ".tried", name] {
                    let from = folder.appendingPathComponent(file), to = journal.directory.appendingPathComponent(file)
                    guard rename(from.path, to.path) == 0 || errno == ENOENT else {
                        throw StoreError.writeFailed(
                            path: from.path,
                            reason: "it cannot be moved into the journal \(journal.directory.path) "
                                + "(\(AtomicFile.errorText())); nothing was lost: it is sent from there once moved")
                    }
                }
                moved.entries += 1
            }
            AtomicFile.syncDirectory(journal.directory)
            AtomicFile.syncDirectory(folder)
            // Logs whose entry is in neither folder name nothing (it was sent and removed earlier).
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            where name.hasSuffix(".sent") || name.hasSuffix(".tried") {
                let entry = (name as NSString).deletingPathExtension + ".json"
                let somewhere = [folder, journal.directory].contains {
                    FileManager.default.fileExists(atPath: $0.appendingPathComponent(entry).path)
                }
                if !somewhere { unlink(folder.appendingPathComponent(name).path) }
            }
            rmdir(folder.path)
        }
        return moved
    }
}
