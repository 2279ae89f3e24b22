/// How much of an input is read before it is refused, so that `register /dev/zero` or an endless pipe stops with a
/// message instead of filling memory.
public enum InputLimits {
    /// The most read whole (standard input, pipes, JSON, Shift_JIS): far above any year of items in any format.
    public static let wholeBytes = 256 << 20
    /// The longest CSV record: a row of an expense is a few hundred bytes.
    public static let recordBytes = 1 << 20
    /// The longest token accepted on standard input: real ones are under a few KiB.
    public static let tokenBytes = 64 << 10

    /// The message for an input past `wholeBytes`.
    public static var wholeMessage: String {
        "larger than \(wholeBytes >> 20) MiB, the most read at once (standard input, pipes, JSON and Shift_JIS are read "
            + "whole); save it as a UTF-8 CSV file, which is read a piece at a time, or split it"
    }
}
