import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension AtomicFile {
    /// A file being written beside its target, as `write(to:contents:)` writes one; for a writer of several files at
    /// once (an import's months, from one read of its items). It replaces the target at `commit` only: dropped before,
    /// its temporary file is removed and the target is as it was.
    public final class Writer {
        private let url: URL
        private let temporary: URL
        private let durable: Bool
        private var fd: Int32

        /// Creates the temporary file (with `mode`) in the target's folder, which is created if missing (private for a private file).
        public init(to url: URL, mode: mode_t = PrivateFiles.file, durable: Bool = true) throws {
            let directory = url.deletingLastPathComponent()
            try AtomicFile.createDirectory(directory, mode: PrivateFiles.folderMode(for: mode))
            self.url = url
            self.durable = durable
            temporary = directory.appendingPathComponent(
                ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
            let path = temporary.path
            // Made and noted at once, so a signal handler removing what is being written never misses it.
            fd = TemporaryFiles.process.create(path) { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode) }
            guard fd >= 0 else { throw StoreError.writeFailed(path: url.path, reason: AtomicFile.errorText()) }
        }

        /// Appends bytes.
        public func write(_ buffer: UnsafeRawBufferPointer) throws {
            var offset = 0
            while offset < buffer.count {
                let written = Glibc_or_Darwin_write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno != EINTR { throw StoreError.writeFailed(path: url.path, reason: AtomicFile.errorText()) }
                } else {
                    offset += written
                }
            }
        }

        /// Makes the written bytes the target's content (`fsync`ed first when durable); `beforeRename` gets the file's
        /// descriptor (to lock it before anyone can see it), and if it throws nothing is renamed.
        public func commit(beforeRename: ((Int32) throws -> Void)? = nil) throws {
            var failure: String?
            if durable, AtomicFile.flushToDisk(fd) != 0 { failure = AtomicFile.errorText() }
            if failure == nil, let beforeRename {
                do { try beforeRename(fd) } catch { failure = "\(error)" }
            }
            if close(fd) != 0, failure == nil { failure = AtomicFile.errorText() }
            fd = -1
            if failure == nil, rename(temporary.path, url.path) != 0 { failure = AtomicFile.errorText() }
            if let failure {
                abandon()
                throw StoreError.writeFailed(path: url.path, reason: failure)
            }
            TemporaryFiles.process.remove(temporary.path)
            if durable { AtomicFile.syncDirectory(url.deletingLastPathComponent()) }
        }

        /// Removes the temporary file, leaving the target as it was.
        private func abandon() {
            if fd >= 0 { close(fd) }
            fd = -1
            unlink(temporary.path)
            TemporaryFiles.process.remove(temporary.path)
        }

        deinit {
            if fd >= 0 { abandon() }
        }
    }
}
