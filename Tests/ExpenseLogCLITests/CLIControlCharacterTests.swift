import ExpenseLogFormats
import ExpenseLogImport
import Foundation
import Testing

/// A name holding control characters (an escape sequence that retitles or clears a terminal) never reaches the terminal
/// raw: inputs refuse it, and a table shows what a sheet holds with `�` in its place.
@Suite struct CLIControlCharacterTests {
    static let hostile = "ラーメン\u{1B}]0;pwned\u{07}\u{1B}[2J"

    @Test func aTableShowsControlCharactersAsReplacementMarks() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed([Samples.item("E1", "20240110", Self.hostile, 980)])
            let env = Samples.environment(home: home, server: server)
            let table = try await CLI.run(["fetch", "--year", "2024", "--month", "1"], environment: env)
            #expect(table.status == 0, "\(table.stderr)")
            #expect(
                !table.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 },
                "no raw escape reaches the terminal")
            #expect(table.stdout.contains("ラーメン\u{FFFD}]0;pwned\u{FFFD}\u{FFFD}[2J"))
            // Data formats keep the name exactly (JSON escapes it), so it can be read back and fixed.
            let json = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--format", "json", "--offline"], environment: env)
            #expect(try ItemCodec.items(Data(json.stdout.utf8)).first?.name == Self.hostile)
        }
    }

    @Test func anInputNameWithAControlCharacterIsRefused() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let line = #"{"date":"20240110","name":"ラーメン\u001b[2J","price":980,"category":0}"#
        let result = try await CLI.run(
            ["--env", "dummy", "register", "--dry-run", "-"], environment: Samples.environment(home: home),
            stdin: line)
        #expect(result.status == 65)
        #expect(result.stderr.contains("<stdin>:1: name: holds the control character U+001B"), "\(result.stderr)")
    }
}
