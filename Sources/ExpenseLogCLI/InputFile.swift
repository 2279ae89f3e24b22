import ExpenseLogFormats
import ExpenseLogImport
import ExpenseLogModel
import ExpenseLogUseCases
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// open(2) for reading (`open` alone would name `InputFile.open`).
private func openForReading(_ path: UnsafePointer<CChar>) -> Int32 {
    #if canImport(Glibc)
    Glibc.open(path, O_RDONLY | O_CLOEXEC)
    #else
    Darwin.open(path, O_RDONLY | O_CLOEXEC)
    #endif
}

/// Reading the files named on the command line; a file that cannot be read is an `InputError` (exit 66).
enum InputFile {
    /// The whole file.
    static func read(_ path: String) throws -> [UInt8] {
        try readAll(open(path), path)
    }

    /// The input at `path` (`-` for standard input), read a chunk at a time from its start as often as asked, so a
    /// large file is never held whole; standard input and pipes (`register <(iconv …)`), which can be read only once,
    /// are held whole and handed over as one chunk.
    static func chunked(_ path: String, _ context: Context) throws -> ChunkedInput {
        let held: [UInt8]
        if path == "-" {
            let data = try context.io.readStdin(InputLimits.wholeBytes)
            if data.count > InputLimits.wholeBytes { throw tooLarge(path) }
            held = Array(data)
        } else {
            let handle = try open(path)
            var status = stat()
            if fstat(handle.fileDescriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
                // Every pass reads the one descriptor from its start: opening the path again could give another file
                // (one put in its place), or share an offset already at the end (`/dev/stdin` on macOS).
                return {
                    var offset: off_t = 0
                    return { try chunk(of: handle, at: &offset, path) }
                }
            }
            held = try readAll(handle, path)
        }
        return {
            var given = false
            return {
                defer { given = true }
                return given ? nil : held
            }
        }
    }

    /// Opens a path by its bytes, as given on the command line (a name that is not UTF-8 included; see `ArgumentBytes`).
    private static func open(_ path: String) throws -> FileHandle {
        let shown = ArgumentBytes.display(path)
        let descriptor = (ArgumentBytes.encode(path) + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { $0.baseAddress.map(openForReading) ?? -1 }
        }
        guard descriptor >= 0 else {
            throw InputError(
                path: shown,
                reason: errno == ENOENT
                    ? "no such file"
                    : errno == EACCES
                        ? "permission denied"
                        : "it cannot be opened (\(ToolFacts.posix(errno)))")
        }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw InputError(path: shown, reason: "it is a folder, not a file")
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// The next 64 KiB or less, or nil at the end (the handle is then closed).
    private static func nextChunk(_ handle: FileHandle, _ path: String) throws -> [UInt8]? {
        do {
            guard let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty else {
                try? handle.close()
                return nil
            }
            return Array(chunk)
        } catch {
            throw InputError(
                path: ArgumentBytes.display(path), reason: "it cannot be read (\(ToolFacts.reason(of: error)))")
        }
    }

    /// The 64 KiB or less at `offset`, which moves past them, or nil at the end.
    private static func chunk(of handle: FileHandle, at offset: inout off_t, _ path: String) throws -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = bytes.withUnsafeMutableBytes { pread(handle.fileDescriptor, $0.baseAddress, $0.count, offset) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else {
                throw InputError(
                    path: ArgumentBytes.display(path), reason: "it cannot be read (\(ToolFacts.posix(errno)))")
            }
            guard got > 0 else { return nil }
            offset += off_t(got)
            bytes.removeSubrange(got...)
            return bytes
        }
    }

    private static func readAll(_ handle: FileHandle, _ path: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let chunk = try nextChunk(handle, path) {
            bytes.append(contentsOf: chunk)
            if bytes.count > InputLimits.wholeBytes { throw tooLarge(path) }
        }
        return bytes
    }

    /// An input held whole that passed the limit: refused before it fills memory (`register /dev/zero`).
    private static func tooLarge(_ path: String) -> ValidationProblem {
        ValidationProblem(
            location: SourceLocation(file: path == "-" ? "(standard input)" : ArgumentBytes.display(path), line: 1),
            field: nil,
            message: InputLimits.wholeMessage)
    }
}
