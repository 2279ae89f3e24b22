import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Moves what versions before the journal queued (items in `outbox/`, changes in `edits/`) into the journal, once.
///
/// Both kinds of file already had names that sort by the time they were queued, so each keeps its name and with it its
/// place: the journal's sequence numbers start after them. An entry's logs (`.sent`, `.tried`) move before the entry,
/// each by `rename`, so an interrupted move leaves every file whole in one folder or the other and the next run finishes
/// it; until then nothing in the journal is sent without its logs. The old folders are removed once empty.
public enum JournalMigration {
    /// Moves every entry of `legacy` into `journal`; returns how many entries were moved (0 when there was nothing).
    @discardableResult
    public static func run(into journal: Journal, from legacy: [URL]) throws -> Int {
        var moved = 0
        for folder in legacy {
            // Only a folder can be one an earlier version wrote; anything else in its place is not ours to move.
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
                continue
            }
            let names = try QueueFolder.entryNames(
                in: folder, what: "the folder of writes queued by an earlier version")
            guard !names.isEmpty else {
                rmdir(folder.path)
                continue
            }
            try AtomicFile.createDirectory(journal.directory)
            for name in names {
                let stem = String(name.dropLast(".json".count))
                for log in [stem + ".sent", stem + ".tried", name] {
                    let from = folder.appendingPathComponent(log), to = journal.directory.appendingPathComponent(log)
                    guard rename(from.path, to.path) == 0 || errno == ENOENT else {
                        throw StoreError.writeFailed(
                            path: from.path,
                            reason: "it cannot be moved into the journal \(journal.directory.path) "
                                + "(\(AtomicFile.errorText())); nothing was lost: it is sent from there once moved")
                    }
                }
                moved += 1
            }
            AtomicFile.syncDirectory(journal.directory)
            AtomicFile.syncDirectory(folder)
            // Logs whose entry was sent and removed earlier stay behind; they name nothing.
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            where name.hasSuffix(".sent") || name.hasSuffix(".tried") {
                unlink(folder.appendingPathComponent(name).path)
            }
            rmdir(folder.path)
        }
        return moved
    }
}
