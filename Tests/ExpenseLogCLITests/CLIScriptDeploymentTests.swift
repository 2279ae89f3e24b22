import Foundation
import Testing

/// Issue 45's deployment, as Apps Script developers do it: the script's manifest beside it for clasp, and `server check`
/// comparing the deployed script's version with the one this binary bundles.
@Suite struct CLIScriptDeploymentTests {
    static let bundled = CLI.packageRoot.appendingPathComponent("Resources/server")

    @Test func scriptOutputWritesTheScriptAndItsManifestForClasp() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = Samples.environment(home: home)
        let folder = home.url.appendingPathComponent("web app/new")
        let written = try await CLI.run(["server", "script", "-o", folder.path], environment: env)
        #expect(written.status == 0 && written.stdout.isEmpty, "\(written.stderr)")
        #expect(
            written.stderr.contains("clasp push") && written.stderr.contains("clasp deploy -i"), "\(written.stderr)")
        for name in ["Code.gs", "appsscript.json"] {
            #expect(
                try Data(contentsOf: folder.appendingPathComponent(name))
                    == Data(contentsOf: Self.bundled.appendingPathComponent(name)), "\(name)")
        }
        // A folder clasp cloned holds the script as Code.js: it is replaced, never joined by a Code.gs clasp would push too.
        let cloned = home.url.appendingPathComponent("cloned")
        try FileManager.default.createDirectory(at: cloned, withIntermediateDirectories: true)
        try Data("function doGet() {}\n".utf8).write(to: cloned.appendingPathComponent("Code.js"))
        #expect(try await CLI.run(["server", "script", "--output", cloned.path], environment: env).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: cloned.path).sorted()
        #expect(names == ["Code.js", "appsscript.json"], "\(names)")
        #expect(
            try Data(contentsOf: cloned.appendingPathComponent("Code.js"))
                == Data(contentsOf: Self.bundled.appendingPathComponent("Code.gs")))
        #expect(written.stderr.contains("clasp clone SCRIPT_ID"), "not a clasp project yet: \(written.stderr)")
        // A clasp project whose .clasp.json names a rootDir gets the files there, where clasp pushes from.
        let project = home.url.appendingPathComponent("project")
        try FileManager.default.createDirectory(
            at: project.appendingPathComponent("src"), withIntermediateDirectories: true)
        try Data(#"{"scriptId": "1AbC", "rootDir": "src"}"#.utf8).write(
            to: project.appendingPathComponent(".clasp.json"))
        try Data("function doGet() {}\n".utf8).write(to: project.appendingPathComponent("src/Code.js"))
        let pushed = try await CLI.run(["server", "script", "-o", project.path], environment: env)
        #expect(pushed.status == 0 && !pushed.stderr.contains("clasp clone"), "\(pushed.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.path).sorted() == [".clasp.json", "src"])
        #expect(
            try Data(contentsOf: project.appendingPathComponent("src/Code.js"))
                == Data(contentsOf: Self.bundled.appendingPathComponent("Code.gs")))
        // A folder that cannot be made says so, with the I/O error's exit status.
        try Data("x".utf8).write(to: home.url.appendingPathComponent("file"))
        let refused = try await CLI.run(
            ["server", "script", "-o", home.url.appendingPathComponent("file/sub").path], environment: env)
        #expect(refused.status == 74 && refused.stderr.contains("file/sub"), "\(refused.stderr)")
    }

    /// The manifest asks for exactly the OAuth scopes of the services the script calls, and sets what the docs promise.
    @Test func theManifestAsksForTheScopesOfTheServicesTheScriptCallsAndNoOthers() throws {
        let script = try String(contentsOf: Self.bundled.appendingPathComponent("Code.gs"), encoding: .utf8)
        let manifest = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: Self.bundled.appendingPathComponent("appsscript.json")))
                as? [String: Any])
        // Google's scopes for each service (its reference's "Authorization" lines); the rest need none.
        let scopes = [
            "SpreadsheetApp": "https://www.googleapis.com/auth/spreadsheets",
            "DriveApp": "https://www.googleapis.com/auth/drive",
            "UrlFetchApp": "https://www.googleapis.com/auth/script.external_request",
            "GmailApp": "https://mail.google.com/", "MailApp": "https://www.googleapis.com/auth/script.send_mail",
            "ScriptApp": "https://www.googleapis.com/auth/script.scriptapp",
        ]
        let needed = Set(scopes.filter { script.contains($0.key + ".") }.values)
        #expect(Set(manifest["oauthScopes"] as? [String] ?? []) == needed, "\(manifest)")
        #expect(manifest["timeZone"] as? String == "Asia/Tokyo" && manifest["runtimeVersion"] as? String == "V8")
        #expect(manifest["exceptionLogging"] as? String == "STACKDRIVER")
        let webapp = manifest["webapp"] as? [String: String]
        #expect(
            webapp == ["executeAs": "USER_DEPLOYING", "access": "ANYONE_ANONYMOUS"],
            "as docs/server.md deploys it: \(String(describing: webapp))")
    }

    @Test func checkSaysAnOlderScriptIsToBeUpdatedInPlace() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let current = try String(contentsOf: Self.bundled.appendingPathComponent("Code.gs"), encoding: .utf8)
        let version = try #require(current.split(separator: "\n").first { $0.hasPrefix("var VERSION = ") })
        let number = try #require(Int(version.dropFirst("var VERSION = ".count).dropLast()))
        let older = try home.write(
            "Older.gs", current.replacingOccurrences(of: String(version), with: "var VERSION = \(number - 1);"))
        try await withScriptHost(["--script", older]) { host in
            let checked = try await CLI.run(["server", "check"], environment: host.environment(home: home))
            #expect(checked.status == 1, "\(checked.stderr)")
            #expect(
                checked.stdout.contains(
                    "✗ the web app runs the script this expense-log bundles (version \(number)) or a newer one: "
                        + "it runs version \(number - 1)") && checked.stdout.contains("clasp deploy -i"),
                "\(checked.stdout)")
            #expect(
                checked.stdout.components(separatedBy: "✗").count == 2,
                "the version is the only check that did not hold")
        }
        try await withScriptHost { host in
            let checked = try await CLI.run(["server", "check"], environment: host.environment(home: home))
            #expect(
                checked.status == 0
                    && checked.stdout.contains(
                        "✓ the web app runs the script this expense-log bundles (version \(number))"),
                "\(checked.stdout)\(checked.stderr)")
        }
    }
}
