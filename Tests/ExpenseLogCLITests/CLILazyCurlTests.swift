import Foundation
import Testing

/// libcurl (and OpenSSL with it) is loaded at the first request, not at start (CCurl): `--version`, `--help` and a
/// cached month load neither.
@Suite struct CLILazyCurlTests {
    /// The libraries the spawned binary loaded, as glibc's dynamic loader lists them (`LD_DEBUG=libs`).
    static func loadedLibraries(
        _ arguments: [String], environment: [String: String]
    ) async throws -> (CLIResult, [String]) {
        let result = try await CLI.run(
            arguments, environment: environment.merging(["LD_DEBUG": "libs"]) { _, new in new },
            spawned: true)
        let loaded = result.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "calling init: ") else { return nil }
            return String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces)
        }
        return (result, loaded)
    }

    // Linux only: LD_DEBUG is glibc's; macOS has neither libcurl nor OpenSSL to load (URLSession is part of Foundation there).
    #if os(Linux)
    @Test("libcurl and libssl are loaded only by a run that goes to the network")
    func librariesAreLoadedOnlyWhenNeeded() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        func tls(_ name: String) -> String {
            CLI.packageRoot.appendingPathComponent("Tests/ReferenceServer/tls/\(name)").path
        }
        try await withServer(["--tls", tls("localhost.pem"), tls("localhost-key.pem")]) { server in
            try await server.seed(Samples.seed)
            let environment = Samples.environment(
                home: home,
                [
                    "EXPENSE_LOG_ENV": "development", "SSL_CERT_FILE": tls("ca.pem"),
                    "EXPENSE_LOG_BASE_URL": "https://localhost:\(server.port)/exec",
                ])
            let (version, atStart) = try await Self.loadedLibraries(["--version"], environment: environment)
            #expect(version.status == 0)
            #expect(
                atStart.contains { $0.contains("libc.so") }, "LD_DEBUG listed nothing: \(version.stderr.prefix(400))")
            #expect(!atStart.contains { $0.contains("libcurl") || $0.contains("libssl") }, "\(atStart)")

            let month = ["fetch", "--year", "2024", "--month", "1"]
            let (https, fetching) = try await Self.loadedLibraries(month, environment: environment)
            #expect(https.status == 0, "\(https.stderr.suffix(400))")
            #expect(
                fetching.contains { $0.contains("libcurl.so") } && fetching.contains { $0.contains("libssl.so") },
                "\(fetching)")

            // The month is cached now: reading it offline needs no network, so neither.
            let (offline, reading) = try await Self.loadedLibraries(month + ["--offline"], environment: environment)
            #expect(offline.status == 0, "\(offline.stderr.suffix(400))")
            #expect(!reading.contains { $0.contains("libcurl") || $0.contains("libssl") }, "\(reading)")
        }
    }
    #endif
}
