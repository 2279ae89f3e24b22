import ExpenseLogFormats
import Foundation
import Testing

/// Output and cache writes that fail are said, with the path and a code, and never lose what the server answered.
@Suite struct CLIOutputLossTests {
    /// A device whose every write fails with ENOSPC: Linux's /dev/full; macOS has none.
    static let full = FileManager.default.fileExists(atPath: "/dev/full")

    @Test(
        .enabled(if: full, "needs /dev/full (always full), which Linux has and macOS does not"),
        arguments: [
            ["fetch", "--year", "2024", "--month", "1"],
            ["fetch", "--year", "2024", "--month", "1", "--format", "json"],
            ["categories"], ["--version"], ["fetch", "--help"],
        ])
    func outputToAFullDiskIsAnError(arguments: [String]) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let result = try await CLI.run(
            ["--env", "dummy"] + arguments, environment: Samples.environment(home: home), stdoutTo: "/dev/full")
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("the output could not be written to stdout: no space left on device (ENOSPC)"))
    }

    @Test(.enabled(if: full, "needs /dev/full (always full), which Linux has and macOS does not"))
    func aRegisterWhoseOutputIsLostStillRecordsEverything() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let env = Samples.environment(home: home, server: server)
            let file = try home.write("one.json", ItemJSON.array([Samples.item("L1", "20240110", "コーヒー", 178)]))
            let result = try await CLI.run(["register", file], environment: env, stdoutTo: "/dev/full")
            #expect(result.status == 74, "\(result.stderr)")
            #expect(try await server.items().map(\.id) == ["L1"])
            #expect(
                try await CLI.run(["pending", "--format", "json"], environment: env).stdout == "[]\n", "nothing waits")
            let cached = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--offline", "--format", "json"], environment: env)
            #expect(try ItemCodec.items(Data(cached.stdout.utf8)).map(\.id) == ["L1"])
        }
    }

    @Test func aMonthThatCannotBeCachedIsStillPrinted() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed(Samples.seed)
            let env = Samples.environment(home: home, server: server)
            // The month's cache file is a folder: it can be neither read nor replaced.
            let file = try Samples.cacheFolder(home: home, env).appendingPathComponent("2024-01.json")
            try FileManager.default.createDirectory(
                at: file.appendingPathComponent("x"), withIntermediateDirectories: true)

            let fetch = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--format", "json"], environment: env)
            #expect(fetch.status == 74, "\(fetch.stderr)")
            #expect(try ItemCodec.items(Data(fetch.stdout.utf8)).map(\.id) == ["A1", "A2", "A3"])
            #expect(
                fetch.stderr.contains("2024-01 was fetched and printed, but not cached: could not write \(file.path)"),
                "\(fetch.stderr)")

            for arguments in [["cache", "list"], ["summary", "--year", "2024", "--month", "1", "--offline"]] {
                let result = try await CLI.run(arguments, environment: env)
                #expect(result.status == 74, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains(file.path), "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("is a directory (EISDIR)"), "\(arguments): \(result.stderr)")
                #expect(!result.stderr.contains("NSCocoaErrorDomain"))
            }
        }
    }

    @Test func aKeyGivenTwiceInAJSONItemIsRefused() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write(
            "twice.json",
            """
            [{"date":"20240110","name":"コーヒー","price":100,
              "price":200,"category":0}]
            """)
        let result = try await CLI.run(
            ["--env", "dummy", "register", file], environment: Samples.environment(home: home))
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(file):2: price: given twice in one item; keep one"), "\(result.stderr)")
    }
}
