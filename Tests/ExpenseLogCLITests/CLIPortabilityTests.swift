import Foundation
import TestSupport
import Testing

/// The portability check (`Tests/Portability/portability.py`) over every Swift file under Sources/ and Tests/: no
/// glibc-only symbol, path or unit where a Mac compiles or runs it, and no `#if canImport(Glibc)` block without its
/// Darwin branch. No Mac builds every change here, so this is the early warning on Linux; the CI workflow's macOS job
/// (`.github/workflows/ci.yml`) is the proof.
@Suite struct CLIPortabilityTests {
    static let script = CLI.packageRoot.appendingPathComponent("Tests/Portability/portability.py").path

    /// Runs the check with `arguments` under python3; its exit status and all it printed (stdout, then stderr).
    static func check(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try run(script, arguments)
    }

    /// Runs a Python check `script` with `arguments`; its exit status and all it printed (stdout, then stderr).
    static func run(_ script: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let errors = scratch.url.appendingPathComponent("stderr").path
        let process = try ChildProcess(
            "/usr/bin/env", ["python3", script] + arguments,
            stdin: .null, stdout: .pipe, stderr: .file(errors))
        let output = process.output?.readDataToEndOfFile() ?? Data()
        let status = process.waitBlocking()
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        return (status, String(decoding: output, as: UTF8.self) + stderr)
    }

    @Test func noFileUsesAGlibcOnlySymbolWhereAMacCompilesIt() throws {
        let (status, output) = try Self.check(["--root", CLI.packageRoot.path])
        #expect(status == 0, "portability.py found what breaks on macOS (exit \(status)):\n\(output)")
    }

    @Test func theChecksRulesEachCatchTheirOffendingExampleAndPassTheirFineOne() throws {
        let (status, output) = try Self.check(["--self-test"])
        #expect(status == 0, "portability.py --self-test (exit \(status)):\n\(output)")
        #expect(output.contains("each found as expected"), "\(output)")
    }
}
