import Foundation
import Testing

/// While the server thinks (Apps Script takes 0.5–3 s an execution), the client idles: against a reference server that
/// waits 0.3 s before every answer, each daily command's CPU time, counted by the kernel, stays far under its
/// wall time. A client that spins while it waits (URLSession on Linux) uses all of it. The commands run one at a time,
/// so a spinning one has a core to itself. The margin is wide on purpose: the figure itself is `make bench`'s (idle-*
/// scenarios).
@Suite struct CLIIdleWaitTests {
    static let commands: [(name: String, arguments: [String])] = [
        ("fetch", ["fetch", "--year", "2024", "--month", "1", "--format", "json"]),
        ("summary", ["summary", "--year", "2024", "--format", "json"]),
        ("register", ["register", "--format", "json", "ITEM"]),
        ("sync", ["sync", "--format", "json"]),
    ]

    @Test(arguments: commands.map(\.name))
    func theClientIdlesWhileTheServerThinks(command: String) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let item = try home.write(
            "one.json", #"{"id":"N1","date":"20240120","name":"ラーメン","price":980,"category":0,"categorySub":0}"#)
        if command == "sync" {
            // Queued while the server was unreachable: sync then reads its month and sends it.
            let queued = try await CLI.run(
                ["register", "--retries", "0", item], environment: try Samples.offlineEnvironment(home: home))
            #expect(queued.status == 75, "\(queued.stderr)")
        }
        try await withServer(["--latency", "0.2"]) { server in
            try await server.seed(Samples.seed)
            let arguments = try #require(Self.commands.first { $0.name == command }).arguments.map {
                $0 == "ITEM" ? item : $0
            }
            let clock = ContinuousClock()
            let started = clock.now
            let (result, usage) = try await CLI.runWithUsage(
                arguments, environment: Samples.environment(home: home, server: server))
            let wall = (clock.now - started) / .seconds(1)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(wall >= 0.2, "the server waits 0.2 s before it answers")
            #expect(usage.cpuSeconds < wall / 2, "\(command): \(usage.cpuSeconds) s of CPU in \(wall) s")
        }
    }
}
