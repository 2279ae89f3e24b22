import ExpenseLogClient
import ExpenseLogFormats
import Foundation
import Testing

/// How the client presents itself to a server, and which server addresses it can reach.
@Suite struct CLIServerAddressTests {
    @Test func everyRequestSaysItIsExpenseLog() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(["--redirect"]) { server in
            let env = Samples.environment(home: home, server: server)
            let file = try home.write("one.json", ItemJSON.array([Samples.item("U1", "20240110", "コーヒー", 178)]))
            #expect(try await CLI.run(["register", file], environment: env).status == 0)
            let requests = try await server.requests()
            // The comparing GET and the POST, each with the GET of its redirect.
            #expect(
                requests.map { "\($0.method) \($0.path)" } == ["GET /exec", "GET /echo", "POST /exec", "GET /echo"])
            #expect(
                requests.allSatisfy { $0.headers["user-agent"] == "expense-log/\(ExpenseLogAPI.version)" },
                "\(requests.map { $0.headers["user-agent"] ?? "none" })")
        }
    }

    @Test func anIPv6LiteralBaseURLWorks() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer(["--host", "::1"]) { server in
            let literal = Samples.environment(
                home: home,
                [
                    "EXPENSE_LOG_ENV": "development",
                    "EXPENSE_LOG_BASE_URL": "http://[::1]:\(server.port)/exec",
                ])
            let fetched = try await CLI.run(["fetch", "--year", "2024", "--month", "1"], environment: literal)
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(try await server.requests().count == 1)
        }
    }

    /// A name whose first address does not answer (an IPv6 one, as a network without IPv6 has): libcurl's happy eyeballs
    /// go on to the next. The name is the binary's own /etc/hosts, bind-mounted in a private mount namespace.
    @Test(.enabled(if: CLIDiskFailureTests.mounts, "needs Linux's unshare and mount (a private mount namespace)"))
    func aNameWhoseFirstAddressDoesNotAnswerIsReachedAtTheNext() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let hosts = try home.write("hosts", "2001:db8::1 webapp.test\n127.0.0.1 webapp.test\n127.0.0.1 localhost\n")
        try await withServer(["--redirect"]) { server in
            try await server.seed(Samples.seed)
            let env = Samples.environment(
                home: home,
                [
                    "EXPENSE_LOG_ENV": "development",
                    "EXPENSE_LOG_BASE_URL": "http://webapp.test:\(server.port)/exec",
                ])
            let script = "mount --bind \"$1\" /etc/hosts || exit 99; shift; exec \"$@\""
            let fetched = try await CLI.run(
                [
                    "-rm", "sh", "-c", script, "sh", hosts, try CLI.binary().path, "fetch", "2024-01", "--format",
                    "json",
                ],
                environment: env, binary: URL(fileURLWithPath: "/usr/bin/unshare"))
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(try ItemCodec.items(Data(fetched.stdout.utf8)) == Array(Samples.seed.prefix(3)))
        }
    }
}
