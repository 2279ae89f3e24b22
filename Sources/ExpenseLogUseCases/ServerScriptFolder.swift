import ExpenseLogStore
import Foundation

/// The web app's files in a folder laid out for clasp: the script and its manifest, side by side, in the project's
/// `rootDir` when the folder is a clasp project (`.clasp.json`).
public enum ServerScriptFolder {
    /// Where the files went, and whether the folder is a clasp project already (else it needs `clasp clone` or
    /// `clasp create` before `clasp push`).
    public struct Written: Sendable {
        /// The script's file and the manifest's.
        public let files: [URL]
        /// Whether `.clasp.json` was found.
        public let isClaspProject: Bool
    }

    /// Writes both files into `path` (made if missing), or into the `rootDir` its `.clasp.json` names. clasp names a
    /// pulled script `Code.js`; an existing one is replaced, so that the project never holds the script twice (clasp
    /// would push both).
    public static func write(script: Data, manifest: Data, into path: String) throws -> Written {
        let top = URL(fileURLWithPath: path, isDirectory: true)
        let project = try? Data(contentsOf: top.appendingPathComponent(".clasp.json"))
        let root = project.flatMap(rootDir).map { top.appendingPathComponent($0, isDirectory: true) } ?? top
        do {
            try AtomicFile.createDirectory(root, mode: 0o777)
        } catch {
            throw StoreError.writeFailed(
                path: root.path, reason: "cannot make the folder: \(StoreError.reason(of: error))")
        }
        let cloned = root.appendingPathComponent("Code.js")
        let code = FileManager.default.fileExists(atPath: cloned.path) ? cloned : root.appendingPathComponent("Code.gs")
        let files = [(code, script), (root.appendingPathComponent("appsscript.json"), manifest)]
        for (file, data) in files {
            do {
                try AtomicFile.write(data, to: file, mode: PrivateFiles.document)
            } catch {
                throw StoreError.writeFailed(path: file.path, reason: StoreError.reason(of: error))
            }
        }
        return Written(files: files.map(\.0), isClaspProject: project != nil)
    }

    /// The `rootDir` of a `.clasp.json` (where clasp pushes from), when it names one inside the project.
    static func rootDir(_ json: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
            let folder = object["rootDir"] as? String, !folder.isEmpty, folder != ".", !folder.hasPrefix("/")
        else { return nil }
        return folder
    }
}
