import Foundation
import TestSupport
import Testing

/// The library's layering (`Tests/Layers/layers.py`): each target imports only what Package.swift declares for it, and
/// depends only on layers below it (SwiftPM would let an undeclared import of an already-built module compile); no
/// command file imports the storage or server-client layer.
@Suite struct CLILayerTests {
    static let script = CLI.packageRoot.appendingPathComponent("Tests/Layers/layers.py").path

    /// Runs the check with `arguments` under python3; its exit status and all it printed (stdout, then stderr).
    static func check(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try CLIPortabilityTests.run(script, arguments)
    }

    @Test func everyTargetImportsOnlyItsDeclaredLayersAndNoCommandFileTheStoreOrTheClient() throws {
        let (status, output) = try Self.check(["--root", CLI.packageRoot.path])
        #expect(status == 0, "layers.py found an import that breaks the layering (exit \(status)):\n\(output)")
    }

    @Test func theChecksRulesEachCatchTheirOffendingExampleAndPassTheFineOne() throws {
        let (status, output) = try Self.check(["--self-test"])
        #expect(status == 0, "layers.py --self-test (exit \(status)):\n\(output)")
        #expect(output.contains("each found as expected"), "\(output)")
    }
}
