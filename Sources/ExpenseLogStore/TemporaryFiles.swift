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

    /// Notes a file being written.
    func add(_ path: String) { paths.withLock { _ = $0.insert(path) } }

    /// Forgets a file renamed into place or removed.
    func remove(_ path: String) { paths.withLock { _ = $0.remove(path) } }

    /// Removes every file still being written (from a signal handler: the process ends next).
    public func removeAll() {
        for path in paths.withLock({ $0 }) { unlink(path) }
    }

    /// Removes the temporary files in `directory` whose writer (the PID in the name) no longer runs: a process killed
    /// with SIGKILL, or by a signal it could not handle, while it wrote. A file of a live process is left alone.
    static func removeStale(in directory: URL, names: [String]) {
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let parts = name.split(separator: ".")
            guard parts.count >= 4, let pid = pid_t(parts[parts.count - 3]), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0, errno == ESRCH { unlink(directory.appendingPathComponent(name).path) }
        }
    }
}
