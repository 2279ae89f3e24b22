import ExpenseLogFormats
import Foundation
import Testing

/// File names that are not UTF-8 (copied from another system) are opened by their bytes and shown escaped.
@Suite struct CLIFileNameTests {
    /// Runs the binary through sh, so that an argument can hold bytes no Swift String can (printf makes them).
    func runWithRawName(_ command: String, home: TemporaryDirectory) async throws -> CLIResult {
        try await CLI.run(
            ["-c", "cd \"$1\" && exec \"$0\" --env dummy \(command)", try CLI.binary().path, home.url.path],
            environment: Samples.environment(home: home), binary: URL(fileURLWithPath: "/bin/sh"))
    }

    @Test func aFileNameThatIsNotUTF8IsOpenedAndShownEscaped() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let made = try await CLI.run(
            [
                "-c",
                #"printf 'date,name,price,category\n20240110,コーヒー,178,0\n20240111,,200,0\n' > "$(printf 'bad\377\376name.csv')""#,
            ],
            environment: [:], in: home.url, binary: URL(fileURLWithPath: "/bin/sh"))
        #expect(made.status == 0)
        let result = try await runWithRawName(
            #"register --dry-run --skip-invalid --format json "$(printf 'bad\377\376name.csv')""#, home: home)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains(#"bad\xFF\xFEname.csv:3: name:"#), "\(result.stderr)")
        #expect(try ItemCodec.items(Data(result.stdout.utf8)).map(\.name) == ["コーヒー"], "the valid row was read")

        let missing = try await runWithRawName(#"register "$(printf 'gone\377.csv')""#, home: home)
        #expect(missing.status == 66)
        #expect(missing.stderr.contains(#"gone\xFF.csv: no such file"#), "\(missing.stderr)")
    }
}
