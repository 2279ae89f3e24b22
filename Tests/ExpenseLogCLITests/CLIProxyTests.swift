import ExpenseLogFormats
import ExpenseLogHTTP
import Foundation
import Testing

/// Requests go through the proxy that the usual variables name (`http_proxy`, as curl reads them).
@Suite struct CLIProxyTests {
    /// The base URL's host resolves nowhere (`.invalid`), so the fetch and the register can only succeed through the
    /// proxy: the reference server, which answers a proxy's absolute-URI requests as its own.
    @Test func requestsGoThroughTheHTTPProxy() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // A config file of an earlier version that chose a transport still reads: there is one now.
        let config = try home.write("config.json", #"{"transport": "native"}"#)
        let item = try home.write(
            "one.json", #"{"id":"P1","date":"20240120","name":"ラーメン","price":980,"category":0,"categorySub":0}"#)
        try await withServer { server in
            try await server.seed(Samples.seed)
            let env = Samples.environment(
                home: home,
                [
                    "EXPENSE_LOG_ENV": "development", "EXPENSE_LOG_CONFIG": config,
                    "EXPENSE_LOG_BASE_URL": "http://expense-log.invalid/exec",
                    "http_proxy": "http://127.0.0.1:\(server.port)",
                ])
            let fetched = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--format", "json"], environment: env, spawned: true)
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(try ItemCodec.items(Data(fetched.stdout.utf8)) == Array(Samples.seed.prefix(3)))
            let registered = try await CLI.run(["register", "--format", "json", item], environment: env, spawned: true)
            #expect(registered.status == 0, "\(registered.stderr)")
            #expect(try await server.items().map(\.id).contains("P1"))
            let requests = try await server.requests()
            #expect(requests.map(\.method) == ["GET", "GET", "POST"])
            #expect(requests.allSatisfy { $0.headers["host"] == "expense-log.invalid" }, "\(requests.map(\.headers))")
            // no_proxy names the hosts reached directly, as curl reads it: here the unresolvable one, which then fails.
            let direct = env.merging(["no_proxy": "expense-log.invalid"]) { $1 }
            let refused = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--refresh"], environment: direct, spawned: true)
            #expect(refused.status == 69 && refused.stderr.contains("expense-log.invalid"), "\(refused.stderr)")
        }
    }

    @Test("config show names the proxy a variable sets, without the user and password it may carry")
    func configShowNamesTheProxy() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let base = Samples.environment(
            home: home, ["EXPENSE_LOG_ENV": "development", "EXPENSE_LOG_BASE_URL": "http://127.0.0.1:9/exec"])
        for (extra, proxy) in [
            ([:], nil),
            (
                ["https_proxy": "http://me:secret@proxy.example:3128"],
                ["value": "proxy.example:3128", "source": "https_proxy (no_proxy lists the hosts reached directly)"]
            ),
        ] {
            let shown = try await CLI.run(
                ["config", "show", "--format", "json"], environment: base.merging(extra) { $1 })
            #expect(shown.status == 0, "\(shown.stderr)")
            let settings =
                try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: [String: String]]
            #expect(settings?["proxy"] == proxy && !shown.stdout.contains("secret"), "\(shown.stdout)")
        }
    }
}
