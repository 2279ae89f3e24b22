import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files this process is writing (`AtomicFile`'s `.NAME.PID.N.tmp`), so a handler of SIGINT, SIGTERM or
/// SIGHUP can remove them before the process ends; and the removal of those a process that is gone left behind.
public final class TemporaryFiles: Sendable {
    /// This process's.
    public static let process = TemporaryFiles()
    private let paths = Mutex<Set<String>>([])

    /// Creates a file with `create` (its descriptor, or -1) and notes it, both under the lock, so a handler that removes
    /// every noted file and ends the process can never run between the two and leave one behind.
    func create(_ path: String, _ create: () -> Int32) -> Int32 {
        paths.withLock { paths in
            let descriptor = create()
            if descriptor >= 0 { paths.insert(path) }
            return descriptor
        }
    }

    /// Forgets a file renamed into place or removed.
    func remove(_ path: String) { paths.withLock { _ = $0.remove(path) } }

    /// Removes every file being written, then runs `end` (which ends the process) still holding the lock, so no new
    /// file can be created in between.
    public func removeAll(then end: () -> Never) -> Never {
        paths.withLock { paths in
            for path in paths { unlink(path) }
            end()
        }
    }

    /// Removes the temporary files in `directory` that no writer will finish (a process killed with SIGKILL, or by a
    /// signal it could not handle, leaves them): untouched for a minute when the PID in the name is no live process
    /// here, or for an hour whatever it is (the PID reused since; a PID means nothing to another machine sharing the
    /// folder, whose writer would still be writing within the minute).
    static func removeStale(in directory: URL, names: [String], now: Date = Date()) {
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let path = directory.appendingPathComponent(name).path
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
            else { continue }
            let age = now.timeIntervalSince(modified)
            if age > 3600 || age > 60 && !Self.writerRuns(name) { unlink(path) }
        }
    }

    /// Whether the process whose PID a temporary file's name holds (`.NAME.PID.N.tmp`) may still be writing it.
    private static func writerRuns(_ name: String) -> Bool {
        let parts = name.split(separator: ".")
        guard parts.count >= 4, let pid = pid_t(parts[parts.count - 3]), pid > 0, pid != getpid() else { return true }
        return !(kill(pid, 0) != 0 && errno == ESRCH)
    }
}
