import ExpenseLogFixtures
import Foundation

/// The dummy environment's session: GET answers `fetch.json`, POST answers `register.json`, no network.
public struct FixtureSession: Session {
    /// The folder holding the two fixture files.
    public let directory: URL

    /// A session answering from a folder.
    public init(directory: URL) {
        self.directory = directory
    }

    /// Answers from the fixture file for the request's method; a missing file is an `APIError.fixtureUnreadable`.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let file = directory.appendingPathComponent(request.method == "POST" ? "register.json" : "fetch.json")
        do {
            let body = try Data(contentsOf: file)
            return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: body, url: request.url)
        } catch {
            throw APIError.fixtureUnreadable(path: file.path, reason: FixtureSession.reason(error, path: file.path))
        }
    }

    static func reason(_ error: any Error, path: String) -> String {
        FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "no such file"
    }

    /// The bundled fixtures: next to the built executable (SwiftPM's bundle) or in `../share/expense-log` of an installed one.
    public static func bundledDirectory(executable: URL? = Bundle.main.executableURL) -> URL? {
        guard let binDir = executable?.resolvingSymlinksInPath().deletingLastPathComponent() else { return nil }
        let candidates = [
            binDir.appendingPathComponent(FixtureBundle.name + ".resources"),
            binDir.appendingPathComponent(FixtureBundle.name + ".bundle/Contents/Resources"),
            binDir.appendingPathComponent(FixtureBundle.name + ".bundle"),
            binDir.deletingLastPathComponent().appendingPathComponent("share/expense-log"),
        ]
        return candidates.first { dir in
            FixtureBundle.files.allSatisfy { FileManager.default.fileExists(atPath: dir.appendingPathComponent($0).path) }
        }
    }
}
