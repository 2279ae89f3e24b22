// Linux only: the built-in client (NativeSession) is the Linux transport; macOS uses URLSession.
#if os(Linux)
import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogHTTP
import ExpenseLogModel
import Foundation
import Testing

/// The built-in client over https: the reference server answers TLS with the test certificates
/// (Tests/ReferenceServer/tls, signed by a test CA), as Google's front end does before Apps Script.
@Suite struct NativeTLSTests {
    static let certificates = CLI.packageRoot.appendingPathComponent("Tests/ReferenceServer/tls")
    static func file(_ name: String) -> String { certificates.appendingPathComponent(name).path }

    func withTLSServer(_ certificate: String = "localhost", _ options: [String] = [], _ body: (ReferenceServer) async throws -> Void) async throws {
        try await withServer(["--tls", Self.file("\(certificate).pem"), Self.file("\(certificate)-key.pem")] + options, body)
    }

    func client(_ base: String, trusting file: String? = NativeTLSTests.file("ca.pem")) -> ExpenseLogAPIClient {
        ExpenseLogAPIClient(session: NativeSession(trustedCertificates: file), baseURL: URL(string: base)!,
                            retryPolicy: RetryPolicy(maxRetries: 0))
    }

    @Test("a month is fetched and items registered over https, by name (SNI) and by address, through Apps Script's redirect",
          arguments: ["localhost", "127.0.0.1"])
    func fetchAndRegisterOverTLS(host: String) async throws {
        try await withTLSServer("localhost", ["--redirect"]) { server in
            try await server.seed(Samples.seed)
            let client = client("https://\(host):\(server.port)/exec")
            #expect(try await client.fetch(YearMonth(year: 2024, month: 1)!).items == Array(Samples.seed.prefix(3)))
            let item = Samples.item("T1", "20240305", "ラーメン", 980)
            #expect(try await client.send(OutboxBatch.split([item], size: 1)[0]).items == [item])
            #expect(try await server.items().contains(item))
            // Every request, the redirects' hops to /echo too, came over TLS.
            let requests = try await server.requests()
            #expect(requests.filter { $0.path == "/echo" }.count == 2)
            #expect(requests.allSatisfy { $0.tls }, "\(requests.map { ($0.path, $0.tls) })")
        }
    }

    @Test("an answer read to the end of the connection is whole only with TLS's close notice; cut without it, it is lost")
    func answerReadToTheEnd() async throws {
        try await withTLSServer { server in
            try await server.seed(Samples.seed)
            let client = client("https://localhost:\(server.port)/exec")
            try await server.addFaults(#"[{"kind": "unframed"}]"#)
            #expect(try await client.fetch(YearMonth(year: 2024, month: 1)!).items == Array(Samples.seed.prefix(3)))
            try await server.addFaults(#"[{"kind": "unframed_cut"}]"#)
            await #expect(throws: APIError.network(url: URL(string: "https://localhost:\(server.port)/exec?year=2024&month=1")!,
                                                   reason: .connectionLost)) {
                _ = try await client.fetch(YearMonth(year: 2024, month: 1)!)
            }
        }
    }

    @Test("a TLS failure after the handshake is no TLS error: a POST that met it may have been saved")
    func brokenStreamAfterTheHandshake() async throws {
        try await withTLSServer { server in
            try await server.addFaults(#"[{"kind": "tls_garbage", "method": "POST"}]"#)
            let item = Samples.item("G1", "20240305", "ラーメン", 980)
            do {
                _ = try await client("https://localhost:\(server.port)/exec").send(OutboxBatch.split([item], size: 1)[0])
                Issue.record("a broken TLS stream was read as an answer")
            } catch let failure as BatchFailure {
                #expect(failure.mayHaveBeenSaved)
                guard case .network(_, .other(let detail)) = failure.error else { throw TestFailure("not a broken stream: \(failure.error)") }
                #expect(detail.hasPrefix("the secure connection broke off: "), "\(detail)")
            }
            #expect(try await server.items().contains(item))
        }
    }

    @Test("a certificate the system does not trust is refused, naming why; nothing is sent")
    func untrustedCertificate() async throws {
        try await withTLSServer { server in
            let client = client("https://localhost:\(server.port)/exec", trusting: nil)
            do {
                _ = try await client.fetch(YearMonth(year: 2024, month: 1)!)
                Issue.record("an untrusted certificate was accepted")
            } catch let APIError.network(_, reason) {
                guard case .tls(let detail) = reason else { throw TestFailure("not a TLS failure: \(reason)") }
                #expect(detail.hasPrefix("the server's certificate was refused ("), "\(detail)")
            }
            #expect(try await server.requests().isEmpty)
        }
    }

    @Test("a trusted certificate for another name is refused: the host name is checked", arguments: ["localhost", "127.0.0.1"])
    func certificateForAnotherName(host: String) async throws {
        try await withTLSServer("other") { server in
            do {
                _ = try await client("https://\(host):\(server.port)/exec").fetch(YearMonth(year: 2024, month: 1)!)
                Issue.record("a certificate for other.example was accepted for \(host)")
            } catch let APIError.network(_, reason) {
                #expect(reason == .tls("the server's certificate was refused (\(host == "localhost" ? "hostname" : "IP address") mismatch)"))
            }
        }
    }

    @Test("a file of trusted certificates that cannot be read is named in the error")
    func unreadableTrustFile() async throws {
        let missing = "/nonexistent/expense-log-ca.pem"
        try await withTLSServer { server in
            do {
                _ = try await client("https://localhost:\(server.port)/exec", trusting: missing).fetch(YearMonth(year: 2024, month: 1)!)
                Issue.record("expected a TLS failure")
            } catch let APIError.network(_, reason) {
                guard case .tls(let detail) = reason else { throw TestFailure("not a TLS failure: \(reason)") }
                #expect(detail.hasPrefix("the trusted certificates could not be read from \(missing)"), "\(detail)")
            }
        }
    }

    @Test("the installed command trusts the certificates SSL_CERT_FILE names, as OpenSSL's tools do")
    func commandHonoursSSLCertFile() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withTLSServer { server in
            try await server.seed(Samples.seed)
            let base = ["EXPENSE_LOG_ENV": "development", "EXPENSE_LOG_BASE_URL": "https://localhost:\(server.port)/exec"]
            let refused = try await CLI.run(["fetch", "--year", "2024", "--month", "1"], environment: Samples.environment(home: home, base),
                                            spawned: true)
            #expect(refused.status == 69)
            #expect(refused.stderr.contains("the secure connection failed: the server's certificate was refused"), "\(refused.stderr)")
            let trusted = Samples.environment(home: home, base.merging(["SSL_CERT_FILE": Self.file("ca.pem")]) { $1 })
            let fetched = try await CLI.run(["fetch", "--year", "2024", "--month", "1", "--format", "json"], environment: trusted, spawned: true)
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(try ItemCodec.items(Data(fetched.stdout.utf8)) == Array(Samples.seed.prefix(3)))
        }
    }
}
#endif
