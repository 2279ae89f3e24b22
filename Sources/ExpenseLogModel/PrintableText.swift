import Foundation

/// Text made safe to show on a terminal.
public enum PrintableText {
    /// The cell with each control character (an escape sequence from a sheet or a file) shown as `�`: a terminal
    /// would act on it (retitle, clear the screen) instead of drawing it.
    public static func of(_ cell: String) -> String {
        guard cell.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }),
            cell.unicodeScalars.contains(where: \.isControl)
        else { return cell }
        return String(String.UnicodeScalarView(cell.unicodeScalars.map { $0.isControl ? "\u{FFFD}" : $0 }))
    }
}
