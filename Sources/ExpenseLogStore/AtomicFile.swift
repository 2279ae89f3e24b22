import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file writes that leave either the old or the new content on disk, never a mix.
public enum AtomicFile {
    /// Writes to a temporary file in the same folder, `fsync`s it, renames it over the target and `fsync`s the folder.
    ///
    /// `durable: false` skips both `fsync`s, for copies that can be fetched again (the cache): a crash may then
    /// leave the old file, or an empty one that is read as corrupt and fetched again, but never a mix. The two
    /// `fsync`s were most of the wall time of fetching a month.
    ///
    /// The temporary file is created with `mode`: private (0600) unless a document's (`PrivateFiles.document`), so what
    /// the tool keeps is never readable by others, not even briefly; missing folders are made as `createDirectory` says.
    /// `beforeRename` gets the written file's descriptor (to lock it before anyone can see it); if it throws, nothing is renamed.
    public static func write(
        _ data: Data, to url: URL, mode: mode_t = PrivateFiles.file, durable: Bool = true,
        beforeRename: ((Int32) throws -> Void)? = nil
    ) throws {
        try write(to: url, mode: mode, durable: durable, beforeRename: beforeRename) { emit in
            try data.withUnsafeBytes { try emit($0) }
        }
    }

    /// As `write(_:to:)`, with the content handed over in pieces by `contents` (through the function it is given), so a
    /// large file is never held whole; if `contents` throws, nothing is renamed and its error is rethrown.
    public static func write(
        to url: URL, mode: mode_t = PrivateFiles.file, durable: Bool = true,
        beforeRename: ((Int32) throws -> Void)? = nil,
        contents: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        let writer = try Writer(to: url, mode: mode, durable: durable)
        try contents { try writer.write($0) }
        try writer.commit(beforeRename: beforeRename)
    }

    /// Creates a folder and its missing parents, private (0700) unless for documents (`mode` 0777, as the umask makes
    /// it), reporting the failing path.
    public static func createDirectory(_ url: URL, mode: mode_t = PrivateFiles.folder) throws {
        try PrivateFiles.makeFolders(url, mode: mode)
    }

    /// Makes a rename durable; some file systems refuse to open folders, which only costs durability there.
    static func syncDirectory(_ url: URL) {
        let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = flushToDisk(fd)
        close(fd)
    }

    /// Puts a file's written data on the disk itself, past the drive's cache: `fsync` does on Linux, but on macOS it only
    /// hands the data to the drive, and Apple's fsync(2) names `fcntl(F_FULLFSYNC)` for data that must survive a power
    /// cut; a file system without it (some network and FAT volumes) gets `fsync`. 0, or -1 with `errno` set.
    static func flushToDisk(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return 0 }
        #endif
        return fsync(fd)
    }

    static func errorText() -> String { StoreError.posix(errno) }
}

/// `write(2)` under one name on both platforms (Foundation's `write` overloads hide it otherwise).
@inline(__always)
func Glibc_or_Darwin_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, buffer, count)
    #else
    return Darwin.write(fd, buffer, count)
    #endif
}
