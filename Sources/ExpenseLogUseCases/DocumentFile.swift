import ExpenseLogStore
import Foundation

/// A document written at a path the person chose (the report page, `register --record`'s file): atomically, so a reader
/// that has it open never sees half of it, with the usual mode of a document rather than the store's private one.
public enum DocumentFile {
    /// Writes text to a file.
    public static func save(_ text: String, to url: URL) throws {
        try AtomicFile.write(Data(text.utf8), to: url, mode: PrivateFiles.document)
    }

    /// Writes what `write` hands out, piece by piece, to a file (a large report is never held whole).
    public static func save(to url: URL, _ write: ((String) throws -> Void) throws -> Void) throws {
        try AtomicFile.write(to: url, mode: PrivateFiles.document) { emit in
            // `write` calls back into `emit`; both are non-escaping, which Swift allows only through this.
            try withoutActuallyEscaping(emit) { emit in
                try write { text in
                    var text = text
                    try text.withUTF8 { try emit(UnsafeRawBufferPointer($0)) }
                }
            }
        }
    }
}
