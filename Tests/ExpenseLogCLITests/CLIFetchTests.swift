import ExpenseLogFormats
import Foundation
import Testing

/// `fetch` through the real binary against the reference server.
@Suite struct CLIFetchTests {
    @Test func printsEveryFormatAndJSONFeedsBackIntoRegister() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed(Samples.seed)
            let env = Samples.environment(home: home, server: server)
            let args = ["fetch", "--year", "2024", "--month", "1"]

            let table = try await CLI.run(args, environment: env)
            #expect(table.status == 0)
            #expect(table.stdout.contains("ラーメン"))
            #expect(table.stdout.contains("1,500"))
            #expect(table.stdout.contains("3,478"))  // 178 + 1500 + 1800
            #expect(table.stdout.contains("Entertainment"))
            #expect(table.stderr.isEmpty)

            for format in ["json", "ndjson", "csv"] {
                let out = try await CLI.run(args + ["--format", format], environment: env)
                #expect(out.status == 0)
                let path = try home.write("month.\(format)", out.stdout)
                // Read back in the dummy environment (this server already has these ids); its fixtures hold a ラーメン like A2.
                let back = try await CLI.run(
                    ["register", "--env", "dummy", "--allow-duplicates", "--dry-run", "--format", "json", path],
                    environment: env)
                #expect(back.status == 0, "\(format): \(back.stderr)")
                let reread = try ItemCodec.items(Data(back.stdout.utf8))
                #expect(reread == Array(Samples.seed.prefix(3)), "format \(format)")
            }
        }
    }

    @Test func cachesTheMonthForOfflineReads() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let (env, gone) = try await withServerGoingDown { server in
            try await server.seed(Samples.seed)
            let env = Samples.environment(home: home, server: server)
            #expect(try await CLI.run(["fetch", "--year", "2024", "--month", "2"], environment: env).status == 0)
            return env
        }
        defer { gone.stop() }
        // The server is gone now: only the cache can answer.
        let offline = try await CLI.run(
            ["fetch", "--year", "2024", "--month", "2", "--offline", "--format", "ndjson"], environment: env)
        #expect(offline.status == 0)
        #expect(offline.stdout == ItemJSON.object(Samples.seed[3]) + "\n")
        let file = try Samples.cacheFolder(home: home, env).appendingPathComponent("2024-02.json")
        #expect(FileManager.default.fileExists(atPath: file.path))

        let uncached = try await CLI.run(["fetch", "--year", "2024", "--month", "3", "--offline"], environment: env)
        #expect(uncached.status == 69)
        #expect(uncached.stderr.contains("2024-03 is not cached"))
    }

    @Test(arguments: [(401, Int32(77)), (403, 77), (500, 69), (503, 69)])
    func httpErrorsExitWithTheContractsCode(status: Int, code: Int32) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.addFaults("[{\"status\": \(status), \"count\": -1}]")
            // --retries 0: the exit code is the point here, not the back-off before 503's retries (CLIRetryTests).
            let result = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--retries", "0"],
                environment: Samples.environment(home: home, server: server))
            #expect(result.status == code)
            #expect(result.stderr.contains("HTTP \(status)"))
            #expect(result.stderr.contains("127.0.0.1:\(server.port)"))
            #expect(result.stdout.isEmpty)
        }
    }

    @Test(arguments: ["html", "truncated"])
    func a200ThatIsNotJSONExits76AndCachesNothing(kind: String) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed(Samples.seed)
            try await server.addFaults("[{\"kind\": \"\(kind)\"}]")
            let env = Samples.environment(home: home, server: server)
            let result = try await CLI.run(["fetch", "--year", "2024", "--month", "1"], environment: env)
            #expect(result.status == 76)
            #expect(result.stderr.contains(kind == "html" ? "HTML page" : "not a JSON array"))
            let offline = try await CLI.run(["fetch", "--year", "2024", "--month", "1", "--offline"], environment: env)
            #expect(offline.status == 69)
        }
    }

    @Test func refusedConnectionExits69NamingTheURL() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let url = try Samples.refusedBaseURL()
        let result = try await CLI.run(
            [
                "fetch", "--year", "2024", "--month", "1", "--env", "development", "--base-url", url,
                "--retries", "0",
            ], environment: Samples.environment(home: home))
        #expect(result.status == 69)
        #expect(result.stderr.contains("\(url)?year=2024&month=1"))
        #expect(result.stderr.contains("connection refused"))
    }

    @Test func followsRedirectsAndLogsRequestsWhenVerbose() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(["--redirect"]) { server in
            try await server.seed(Samples.seed)
            let result = try await CLI.run(
                ["--verbose", "fetch", "--year", "2024", "--month", "2", "--format", "json"],
                environment: Samples.environment(home: home, server: server))
            #expect(result.status == 0)
            #expect(result.stdout.contains("\"B1\""))
            #expect(result.stderr.contains("> GET \(server.base)?year=2024&month=2 -> 200"))
            #expect(result.stderr.contains("via http://127.0.0.1:\(server.port)/echo"))
        }
    }

    @Test func baseURLComesFromTheConfigFile() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            try await server.seed(Samples.seed)
            let config = try home.write(
                "config.json", "{\"environment\": \"development\", \"baseURL\": {\"development\": \"\(server.base)\"}}")
            let result = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--config", config, "--format", "csv"],
                environment: Samples.environment(home: home))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.split(separator: "\n").count == 4)
        }
    }
}
