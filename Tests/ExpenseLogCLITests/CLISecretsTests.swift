import Foundation
import Testing

/// The bearer token: where it comes from, how it is stored, and that it never appears in any output.
@Suite struct CLISecretsTests {
    static let token = "s3cr3t-T0KEN-9f8e7d"

    func tokenFile(_ home: TemporaryDirectory) -> URL {
        home.url.appendingPathComponent("expense-log/config/token")
    }

    func permissions(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test func theTokenFromTheVariableIsSentAsBearerAndWithoutItTheServerSays401() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(["--token", Self.token, "--redirect"]) { server in
            let env = Samples.environment(home: home, server: server)
            let without = try await CLI.run(["fetch", "--year", "2024", "--month", "1"], environment: env)
            #expect(without.status == 77)
            let with = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1"],
                environment: env.merging(["EXPENSE_LOG_TOKEN": Self.token]) { _, new in new })
            #expect(with.status == 0, "\(with.stderr)")
            let sent = try await server.requests().last
            #expect(sent?.headers["authorization"] == "Bearer \(Self.token)")
        }
    }

    @Test func aRedirectToAnotherOriginDoesNotCarryTheToken() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // 127.0.0.1 redirects to localhost: another origin, like script.google.com → script.googleusercontent.com.
        try await withServer(["--token", Self.token, "--redirect-host", "localhost"]) { server in
            let env = Samples.environment(home: home, server: server, ["EXPENSE_LOG_TOKEN": Self.token])
            let result = try await CLI.run(["fetch", "--year", "2024", "--month", "1"], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let requests = try await server.requests()
            #expect(requests.map(\.path) == ["/exec", "/echo"])
            #expect(requests.first?.headers["authorization"] == "Bearer \(Self.token)")
            #expect(requests.last?.headers["host"]?.hasPrefix("localhost:") == true)
            #expect(requests.last?.headers["authorization"] == nil)
        }
    }

    @Test func setTokenWritesAPrivateFileThatIsUsedAndClearTokenRemovesIt() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(["--token", Self.token]) { server in
            let env = Samples.environment(home: home, server: server)
            let set = try await CLI.run(["config", "set-token"], environment: env, stdin: Self.token + "\n")
            #expect(set.status == 0)
            #expect(set.stderr.contains("Saved the token to \(tokenFile(home).path) (mode 0600)"))
            #expect(try permissions(tokenFile(home)) == 0o600)
            #expect(try await CLI.run(["fetch", "--year", "2024", "--month", "1"], environment: env).status == 0)

            let clear = try await CLI.run(["config", "clear-token"], environment: env)
            #expect(clear.status == 0)
            #expect(!FileManager.default.fileExists(atPath: tokenFile(home).path))
            #expect(try await CLI.run(["fetch", "--year", "2024", "--month", "1"], environment: env).status == 77)
        }
    }

    @Test func setTokenRefusesAnEmptyOrMultiWordToken() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let env = try Samples.offlineEnvironment(home: home)
        for input in ["", "\n", "two words\n", "line\nbreak\n"] {
            let result = try await CLI.run(["config", "set-token"], environment: env, stdin: input)
            #expect(result.status == 78, "\(input.debugDescription)")
            #expect(!FileManager.default.fileExists(atPath: tokenFile(home).path))
        }
    }

    @Test func aTokenFileOthersCanReadExits78NamingTheFileAndTheChmod() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = tokenFile(home)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data((Self.token + "\n").utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let env = try Samples.offlineEnvironment(home: home)
        for command in [["fetch", "--year", "2024", "--month", "1"], ["config", "show"]] {
            let result = try await CLI.run(command, environment: env)
            #expect(result.status == 78)
            #expect(result.stderr.contains("the token file \(file.path) has mode 644"))
            #expect(result.stderr.contains("chmod 600 '\(file.path)'"))
            #expect(!(result.stdout + result.stderr).contains(Self.token))
        }
    }

    @Test(arguments: [String(repeating: "x", count: 140) + " Bearer TOKEN", "{\"error\": \"bad TOKEN\"}"])
    func noPartOfTheTokenShowsWhereTheQuotedAnswerIsCut(body: String) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let token = "abc/def+ghi=" + String(repeating: "Z", count: 30)
        // The JSON form escapes the slash, as a server's JSON encoder may.
        let echoed =
            body.contains("{")
            ? body.replacingOccurrences(of: "TOKEN", with: token.replacingOccurrences(of: "/", with: "\\/"))
            : body.replacingOccurrences(of: "TOKEN", with: token)
        try await withServer { server in
            let fault = try JSONSerialization.data(withJSONObject: [["status": 500, "body": echoed, "count": -1]])
            try await server.addFaults(String(decoding: fault, as: UTF8.self))
            let result = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--retries", "0"],
                environment: Samples.environment(home: home, server: server, ["EXPENSE_LOG_TOKEN": token]))
            #expect(result.status == 69)
            #expect(result.stderr.contains("The answer began:"))
            #expect(
                !result.stderr.contains("abc/def") && !result.stderr.contains("abc\\/def")
                    && !result.stderr.contains("ZZZZ"),
                "\(result.stderr)")
        }
    }

    @Test func theTokenNeverAppearsInAnyOutput() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(["--token", Self.token, "--redirect"]) { server in
            let env = Samples.environment(home: home, server: server, ["EXPENSE_LOG_TOKEN": Self.token])
            let file = try home.write("two.csv", Samples.csv(rows: 2))
            // The server echoes the token back in an error page and in a 200 that is not JSON.
            try await server.addFaults(
                """
                [{"status": 500, "body": "bad request with Authorization: Bearer \(Self.token)", "method": "GET"},
                 {"status": 200, "body": "<html>token=\(Self.token)</html>", "contentType": "text/html", "method": "GET"},
                 {"status": 400, "body": "{\\"error\\": \\"\(Self.token)\\"}", "method": "POST"}]
                """)
            var runs: [CLIResult] = []
            for arguments in [
                ["fetch", "--year", "2024", "--month", "1", "--retries", "0"],
                ["fetch", "--year", "2024", "--month", "1"],
                ["register", file], ["register", file], ["sync"], ["pending"],
                ["config", "show"], ["fetch", "--year", "2024", "--month", "3", "--format", "json"],
            ] {
                runs.append(try await CLI.run(["--verbose"] + arguments, environment: env))
            }
            #expect(runs.map(\.status) == [69, 76, 69, 0, 0, 0, 0, 0], "\(runs.map(\.stderr))")
            #expect(runs[0].stderr.contains("Bearer ***"))
            #expect(runs[6].stdout.contains("(set, \(Self.token.count) characters, redacted)"))
            #expect(runs[6].stdout.contains("EXPENSE_LOG_TOKEN"))
            for run in runs {
                #expect(!(run.stdout + run.stderr).contains(Self.token))
            }
        }
    }
}
