import ExpenseLogStore
import Foundation

/// The web app's files in a folder laid out for clasp: the script and its manifest, side by side.
public enum ServerScriptFolder {
    /// Writes both files into `path` (made if missing) and answers where they went. clasp names a pulled script
    /// `Code.js`; an existing one is replaced, so that the folder never holds the script twice (clasp would push both).
    public static func write(script: Data, manifest: Data, into path: String) throws -> [URL] {
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw StoreError.writeFailed(path: path, reason: "cannot make the folder: \(StoreError.reason(of: error))")
        }
        let cloned = folder.appendingPathComponent("Code.js")
        let code = FileManager.default.fileExists(atPath: cloned.path) ? cloned : folder.appendingPathComponent("Code.gs")
        let files = [(code, script), (folder.appendingPathComponent("appsscript.json"), manifest)]
        for (file, data) in files {
            do {
                try AtomicFile.write(data, to: file, mode: PrivateFiles.document)
            } catch {
                throw StoreError.writeFailed(path: file.path, reason: StoreError.reason(of: error))
            }
        }
        return files.map(\.0)
    }
}
