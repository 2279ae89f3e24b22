/// An input file that cannot be opened.
public struct InputError: Error, Sendable, CustomStringConvertible {
    /// The path as the user gave it.
    public let path: String
    /// Why it cannot be read.
    public let reason: String

    /// An error for `path` and why.
    public init(path: String, reason: String) {
        (self.path, self.reason) = (path, reason)
    }

    /// The message shown to the user.
    public var description: String { "cannot read \(path): \(reason)" }
}
