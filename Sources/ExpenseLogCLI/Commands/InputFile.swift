import ExpenseLogKit
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
            held = Array(try context.io.readStdin())
        } else {
            let handle = try open(path)
            var status = stat()
            if fstat(handle.fileDescriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
                return {
                    let reading = try open(path)
                    return { try nextChunk(reading, path) }
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

    private static func open(_ path: String) throws -> FileHandle {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(path: path, reason: "no such file")
        }
        if isDirectory.boolValue { throw InputError(path: path, reason: "it is a folder, not a file") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw InputError(path: path, reason: "permission denied or unreadable")
        }
        return handle
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
            throw InputError(path: path, reason: "it cannot be read (\(error.localizedDescription))")
        }
    }

    private static func readAll(_ handle: FileHandle, _ path: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let chunk = try nextChunk(handle, path) { bytes.append(contentsOf: chunk) }
        return bytes
    }
}
