/// A local file problem, naming the path and what to do.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file or folder could not be written.
    case writeFailed(path: String, reason: String)
    /// A file could not be read for a reason other than not existing.
    case readFailed(path: String, reason: String)

    /// The message shown to the user.
    public var description: String {
        switch self {
        case let .writeFailed(path, reason):
            return "could not write \(path): \(reason). Check the folder's permissions and free space; that file was left as it was."
        case let .readFailed(path, reason):
            return "could not read \(path): \(reason). Check that it is what it should be (a file or a folder) and its permissions; "
                + "nothing was changed."
        }
    }
}
