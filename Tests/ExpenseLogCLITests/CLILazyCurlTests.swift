import Foundation
import Testing

/// libcurl is loaded at the first request, not at start (CCurl): `--version`, `--help` and a cached month never load
/// it and the thirty libraries it needs, which took half of every start-up.
@Suite struct CLILazyCurlTests {
    /// The libraries the spawned binary loaded, as glibc's dynamic loader lists them (`LD_DEBUG=libs`).
    static func loadedLibraries(_ arguments: [String], environment: [String: String]) async throws -> (CLIResult, [String]) {
        let result = try await CLI.run(arguments, environment: environment.merging(["LD_DEBUG": "libs"]) { _, new in new },
                                       spawned: true)
        let loaded = result.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "calling init: ") else { return nil }
            return String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces)
        }
        return (result, loaded)
    }

    // Linux only: LD_DEBUG is glibc's; macOS has no libcurl transport (URLSession is part of Foundation there).
    #if os(Linux)
    @Test func libcurlIsLoadedOnlyByARunThatGoesToTheNetwork() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let environment = Samples.environment(home: home, server: server)
            let (version, atStart) = try await Self.loadedLibraries(["--version"], environment: environment)
            #expect(version.status == 0)
            #expect(atStart.contains { $0.contains("libc.so") }, "LD_DEBUG listed nothing: \(version.stderr.prefix(400))")
            #expect(!atStart.contains { $0.contains("libcurl") }, "\(atStart)")

            let (fetch, fetching) = try await Self.loadedLibraries(["fetch", "--year", "2024", "--month", "1"], environment: environment)
            #expect(fetch.status == 0, "\(fetch.stderr.suffix(400))")
            #expect(fetching.contains { $0.contains("libcurl.so") }, "\(fetching)")

            // The month is cached now: reading it offline needs no network, so no libcurl.
            let (offline, reading) = try await Self.loadedLibraries(["fetch", "--year", "2024", "--month", "1", "--offline"],
                                                                    environment: environment)
            #expect(offline.status == 0, "\(offline.stderr.suffix(400))")
            #expect(!reading.contains { $0.contains("libcurl") }, "\(reading)")
        }
    }
    #endif
}
