import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the tool keeps is the household's spending, readable by its owner alone: folders are made 0700 and files 0600
/// by mkdir(2) and open(2) themselves, whatever the umask (never chmod-ed after the data is there), as ssh and gh keep
/// theirs. Documents a person asks for at a path of their choosing (a report page, `server script -o`) get the usual
/// mode, as the umask makes it.
public enum PrivateFiles {
    /// A private file's mode.
    public static let file: mode_t = 0o600
    /// A private folder's mode.
    public static let folder: mode_t = 0o700
    /// A document's mode before the umask, as `touch` and editors make files.
    public static let document: mode_t = 0o666

    /// The mode of the folders made for a file of `mode`: private for a private file, the umask's otherwise.
    static func folderMode(for mode: mode_t) -> mode_t {
        mode & 0o077 == 0 ? folder : 0o777
    }

    /// Makes `url` and each missing parent with `mode`, by mkdir(2); one made meanwhile by another process is fine. The
    /// path is walked as given, `..` and links resolved by the kernel as open(2) resolves them later.
    static func makeFolders(_ url: URL, mode: mode_t) throws {
        var missing: [String] = []
        var path = url.path
        var info = stat()
        while !path.isEmpty, path != "/", stat(path, &info) != 0 {
            guard errno == ENOENT else {
                throw StoreError.writeFailed(
                    path: path, reason: "the folder cannot be made (\(AtomicFile.errorText()))")
            }
            missing.append(path)
            path = (path as NSString).deletingLastPathComponent
        }
        for folder in missing.reversed() where mkdir(folder, mode) != 0 && errno != EEXIST {
            throw StoreError.writeFailed(path: folder, reason: "the folder cannot be made (\(AtomicFile.errorText()))")
        }
    }

    /// What `tighten` did: how many files and folders it made private, and those whose mode could not be changed (a
    /// read-only mount), with the system's words.
    public struct Tightening: Sendable {
        /// Files and folders made private.
        public var count = 0
        /// Paths left as they were, and why.
        public var failures: [(path: String, reason: String)] = []
    }

    /// Makes a folder kept since before this version readable by its owner alone, with everything in it: nothing to do
    /// when it is already private (a 0700 folder keeps all it holds from others, whatever their modes) or not there.
    /// Throws, naming the path, when the folder or something in it belongs to another account (as ssh refuses a key
    /// others control), before any mode is changed; a mode that cannot be changed (a read-only mount) is reported, and
    /// the rest goes on. Each entry keeps its owner's bits (a read-only folder stays read-only). The paths in `kept`
    /// are left as they are (a secret others could read is refused where it is read, not quietly fixed).
    public static func tighten(_ root: URL, leaving kept: Set<String> = []) throws -> Tightening {
        var info = stat()
        var done = Tightening()
        // The folder may be a link a person made (the cache on another disk): where it leads is what is walked.
        let folder = root.resolvingSymlinksInPath()
        guard stat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return done }
        try owned(root.path, info)
        guard info.st_mode & 0o077 != 0 else { return done }
        let rootMode = info.st_mode
        // Every entry's owner first: a folder another account controls is refused with nothing changed.
        var open: [(path: String, mode: mode_t)] = []
        if let walk = FileManager.default.enumerator(atPath: folder.path) {
            while let name = walk.nextObject() as? String {
                let path = (folder.path as NSString).appendingPathComponent(name)
                guard lstat(path, &info) == 0 else { continue }
                let kind = info.st_mode & S_IFMT
                // A link's own mode means nothing; a secret named in `kept` is read (and refused) where it is used.
                guard kind == S_IFDIR || kind == S_IFREG,
                    !kept.contains((root.path as NSString).appendingPathComponent(name))
                else { continue }
                try owned(path, info)
                if info.st_mode & 0o077 != 0 { open.append((path, info.st_mode)) }
            }
        }
        // Inside first, the folder itself last: a run stopped half-way finds the folder still open and goes on next time.
        for (path, mode) in open + [(folder.path, rootMode)] {
            if chmod(path, mode & 0o700) == 0 {
                done.count += 1
            } else {
                done.failures.append((path, AtomicFile.errorText()))
            }
        }
        return done
    }

    private static func owned(_ path: String, _ info: stat) throws {
        guard info.st_uid != geteuid() else { return }
        throw StoreError.notPrivate(path: path, otherOwner: UInt32(info.st_uid))
    }
}
