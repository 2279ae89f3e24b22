import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder of a queue (the journal, or a folder an earlier version queued in): entry files named in their order.
enum QueueFolder {
    /// The entry files' names (`*.json`, not hidden), oldest first. A missing folder is an empty queue; a folder that
    /// cannot be listed is an error naming `what` and the system's reason, never "empty".
    static func entryNames(in directory: URL, what: String) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            // Only "no such file" means an empty queue; "not a folder" or "permission denied" must not look empty.
            var info = stat()
            if stat(directory.path, &info) != 0, errno == ENOENT { return [] }
            // The system's own reason (ENOTDIR, EACCES), which Foundation's error on Linux does not carry.
            let reason: String
            if let folder = opendir(directory.path) {
                closedir(folder)
                reason = StoreError.reason(of: error)
            } else {
                reason = AtomicFile.errorText()
            }
            throw StoreError.readFailed(path: directory.path, reason: "\(what) cannot be listed (\(reason))")
        }
        TemporaryFiles.removeStale(in: directory, names: names)
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
    }
}
