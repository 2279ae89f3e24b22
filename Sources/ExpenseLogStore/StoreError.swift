import Foundation

/// A local file problem, naming the path and what to do.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file or folder could not be written.
    case writeFailed(path: String, reason: String)
    /// A file could not be read for a reason other than not existing.
    case readFailed(path: String, reason: String)
    /// A file changed under the run that was using it (edited by hand); `next` says what happened and what to do.
    case changed(path: String, next: String)
    /// A folder or file of the tool's that belongs to another account (its uid): others control it.
    case notPrivate(path: String, otherOwner: UInt32)

    /// The message shown to the user.
    public var description: String {
        switch self {
        case let .writeFailed(path, reason):
            return
                "could not write \(path): \(reason). Check the folder's permissions and free space; that file was left as it was."
        case let .readFailed(path, reason):
            return
                "could not read \(path): \(reason). Check that it is what it should be (a file or a folder) and its permissions; "
                + "nothing was changed."
        case let .changed(path, next):
            return "\(path) changed while this run was using it (edited by hand?): \(next)"
        case let .notPrivate(path, owner):
            return
                "\(path) holds the household's purchases, but it belongs to another account (uid \(owner)), which can read and "
                + "change what expense-log keeps there. expense-log will not use it: have it made yours (chown -R) or point "
                + "EXPENSE_LOG_HOME at a folder of your own; nothing was read or written there."
        }
    }
}

extension StoreError {
    /// What a Foundation or system error means, in words: Foundation's own text on Linux is often only
    /// "The operation could not be completed. (NSCocoaErrorDomain error 256.)".
    public static func reason(of error: any Error) -> String {
        if let store = error as? StoreError {
            switch store {
            case .writeFailed(_, let reason), .readFailed(_, let reason), .changed(_, let reason): return reason
            case .notPrivate: return "it belongs to another account"
            }
        }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return posix(Int32(ns.code)) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return posix(Int32(underlying.code))
        }
        if ns.domain == NSCocoaErrorDomain {
            switch CocoaError.Code(rawValue: ns.code) {
            case .fileNoSuchFile, .fileReadNoSuchFile: return "it does not exist"
            case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
            case .fileWriteOutOfSpace: return "no space left on the device"
            case .fileWriteVolumeReadOnly: return "the file system is read-only"
            case .fileReadCorruptFile: return "it is not in the expected format"
            case .fileReadInapplicableStringEncoding: return "it is not text in the expected encoding"
            default: break
            }
        }
        return ns.localizedDescription
    }

    /// The error as a `StoreError`: itself when it is one, else a failure to write (or read) `path`, said in words.
    public static func wrapping(_ error: any Error, path: String, writing: Bool = true) -> StoreError {
        if let store = error as? StoreError { return store }
        return writing
            ? .writeFailed(path: path, reason: reason(of: error)) : .readFailed(path: path, reason: reason(of: error))
    }

    /// As `reason(of:)`, asking the file system itself when Foundation gave no cause (reading a folder as a file
    /// gives only "NSCocoaErrorDomain error 256").
    public static func reason(of error: any Error, at path: String) -> String {
        let said = reason(of: error)
        guard said == (error as NSError).localizedDescription else { return said }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return posix(EISDIR) }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return posix(errno) }
        close(descriptor)
        return said
    }

    /// `strerror` in lower case, with the errno's name for searching (`no space left on device (ENOSPC)`).
    public static func posix(_ code: Int32) -> String {
        let names: [Int32: String] = [
            ENOENT: "ENOENT", EACCES: "EACCES", EPERM: "EPERM", ENOSPC: "ENOSPC", EROFS: "EROFS",
            EISDIR: "EISDIR", ENOTDIR: "ENOTDIR", EEXIST: "EEXIST", EIO: "EIO", EDQUOT: "EDQUOT",
        ]
        let text = String(cString: strerror(code))
        let lowered = text.prefix(1).lowercased() + text.dropFirst()
        return names[code].map { "\(lowered) (\($0))" } ?? lowered
    }
}
