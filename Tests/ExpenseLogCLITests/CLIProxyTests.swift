import ExpenseLogFormats
import ExpenseLogHTTP
import Foundation
import Testing

/// Requests go through the proxy that the usual variables name (`http_proxy`, as curl reads them), in every transport.
@Suite struct CLIProxyTests {
    static var transports: [String] { [Transport.standard.rawValue] }

    /// The base URL's host resolves nowhere (`.invalid`), so the fetch and the register can only succeed through the
    /// proxy: the reference server, which answers a proxy's absolute-URI requests as its own.
    @Test(arguments: transports)
    func requestsGoThroughTheHTTPProxy(transport: String) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let config = try home.write("config.json", #"{"transport": "\#(transport)"}"#)
        let item = try home.write("one.json", #"{"id":"P1","date":"20240120","name":"ラーメン","price":980,"category":0,"categorySub":0}"#)
        try await withServer { server in
            try await server.seed(Samples.seed)
            let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "development", "EXPENSE_LOG_CONFIG": config,
                                                       "EXPENSE_LOG_BASE_URL": "http://expense-log.invalid/exec",
                                                       "http_proxy": "http://127.0.0.1:\(server.port)"])
            let fetched = try await CLI.run(["fetch", "--year", "2024", "--month", "1", "--format", "json"], environment: env, spawned: true)
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(try ItemCodec.items(Data(fetched.stdout.utf8)) == Array(Samples.seed.prefix(3)))
            let registered = try await CLI.run(["register", "--format", "json", item], environment: env, spawned: true)
            #expect(registered.status == 0, "\(registered.stderr)")
            #expect(try await server.items().map(\.id).contains("P1"))
            let requests = try await server.requests()
            #expect(requests.map(\.method) == ["GET", "GET", "POST"])
            #expect(requests.allSatisfy { $0.headers["host"] == "expense-log.invalid" }, "\(requests.map(\.headers))")
        }
    }

    // Linux only: the built-in client is Linux's; on macOS URLSession takes the proxy itself.
    #if os(Linux)
    @Test("the built-in client hands every request to curl when a proxy variable names a proxy, as curl reads them")
    func nativeHandsProxiedRequestsToCurl() {
        #expect(Transport.native.makeSession(environment: [:]) is NativeSession)
        #expect(Transport.native.makeSession(environment: ["https_proxy": ""]) is NativeSession)
        for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            #expect(Transport.native.makeSession(environment: [name: "http://proxy.example:3128"]) is CurlSession, "\(name)")
        }
        #expect(Transport.curl.makeSession(environment: [:]) is CurlSession)
    }

    @Test("config show says when requests go by curl because a proxy variable is set")
    func configShowNamesTheProxyVariable() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let base = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "development", "EXPENSE_LOG_BASE_URL": "http://127.0.0.1:9/exec"])
        for (extra, via) in [([:], nil), (["https_proxy": "http://proxy.example:3128"], ["value": "curl", "source": "https_proxy is set"])] {
            let shown = try await CLI.run(["config", "show", "--format", "json"], environment: base.merging(extra) { $1 })
            #expect(shown.status == 0, "\(shown.stderr)")
            let settings = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: [String: String]]
            #expect(settings?["transport"] == ["value": "native", "source": "default"])
            #expect(settings?["transport-via"] == via)
        }
    }
    #endif
}
