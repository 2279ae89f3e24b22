import Foundation

/// Names the resource bundle SwiftPM builds from this folder, so the kit can find it without `Bundle.module`.
public enum FixtureBundle {
    /// The bundle's base name next to the built executable (`.resources` on Linux, `.bundle` on macOS).
    public static let name = "expense-log_ExpenseLogFixtures"
    /// The fixture files this folder ships.
    public static let files = ["fetch.json", "register.json"]
    /// The web app's script (`expense-log server script`), in the same bundle.
    public static let serverScript = "server/Code.gs"
    /// The script project's manifest (time zone, V8, the web app's access, its OAuth scopes), for clasp.
    public static let serverManifest = "server/appsscript.json"

    /// The bundled fixtures: next to the built executable (SwiftPM's bundle) or in `../share/expense-log` of an installed one.
    public static func directory(executable: URL? = Bundle.main.executableURL) -> URL? {
        guard let binDir = executable?.resolvingSymlinksInPath().deletingLastPathComponent() else { return nil }
        let candidates = [
            binDir.appendingPathComponent(name + ".resources"),
            binDir.appendingPathComponent(name + ".bundle/Contents/Resources"),
            binDir.appendingPathComponent(name + ".bundle"),
            binDir.deletingLastPathComponent().appendingPathComponent("share/expense-log"),
        ]
        return candidates.first { dir in
            files.allSatisfy { FileManager.default.fileExists(atPath: dir.appendingPathComponent($0).path) }
        }
    }
}
