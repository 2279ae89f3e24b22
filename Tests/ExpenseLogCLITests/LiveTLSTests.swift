// Linux only: libcurl is the Linux transport; macOS's URLSession trusts the keychain (docs/install.md).
#if os(Linux)
import ExpenseLogClient
import ExpenseLogFormats
import ExpenseLogHTTP
import ExpenseLogModel
import Foundation
import Testing

/// The live session over https: the reference server answers TLS with the test certificates (Tests/ReferenceServer/tls,
/// signed by a test CA), as Google's front end does before Apps Script; the CA is trusted only through SSL_CERT_FILE.
@Suite struct LiveTLSTests {
    static let certificates = CLI.packageRoot.appendingPathComponent("Tests/ReferenceServer/tls")
    static func file(_ name: String) -> String { certificates.appendingPathComponent(name).path }

    func withTLSServer(
        _ certificate: String = "localhost", _ options: [String] = [], _ body: (ReferenceServer) async throws -> Void
    ) async throws {
        try await withServer(
            ["--tls", Self.file("\(certificate).pem"), Self.file("\(certificate)-key.pem")] + options, body)
    }

    func client(_ base: String, trusting file: String? = LiveTLSTests.file("ca.pem")) -> ExpenseLogAPIClient {
        ExpenseLogAPIClient(
            session: LiveSession.make(environment: file.map { ["SSL_CERT_FILE": $0] } ?? [:]),
            baseURL: URL(string: base)!,
            retryPolicy: RetryPolicy(maxRetries: 0))
    }

    @Test(
        "a month is fetched and items registered over https, by name and by address, through Apps Script's redirect",
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

    @Test(
        "an answer read to the end of the connection is read whole; cut without TLS's close notice, it is never taken for items"
    )
    func answerReadToTheEnd() async throws {
        try await withTLSServer { server in
            try await server.seed(Samples.seed)
            let client = client("https://localhost:\(server.port)/exec")
            try await server.addFaults(#"[{"kind": "unframed"}]"#)
            #expect(try await client.fetch(YearMonth(year: 2024, month: 1)!).items == Array(Samples.seed.prefix(3)))
            try await server.addFaults(#"[{"kind": "unframed_cut"}]"#)
            // libcurl hands over what came (OpenSSL's unexpected end of file is not an error for it): the cut JSON is refused.
            do {
                let items = try await client.fetch(YearMonth(year: 2024, month: 1)!).items
                Issue.record("an answer cut without TLS's close notice was taken whole: \(items)")
            } catch let error as APIError {
                switch error {
                case .network(_, .connectionLost), .invalidResponse: break
                default: Issue.record("not a cut answer: \(error)")
                }
            }
        }
    }

    @Test("a TLS failure after the handshake is no certificate problem: a POST that met it may have been saved")
    func brokenStreamAfterTheHandshake() async throws {
        try await withTLSServer { server in
            try await server.addFaults(#"[{"kind": "tls_garbage", "method": "POST"}]"#)
            let item = Samples.item("G1", "20240305", "ラーメン", 980)
            do {
                _ = try await client("https://localhost:\(server.port)/exec").send(
                    OutboxBatch.split([item], size: 1)[0])
                Issue.record("a broken TLS stream was read as an answer")
            } catch let failure as BatchFailure {
                #expect(failure.mayHaveBeenSaved, "\(failure.error)")
            }
            #expect(try await server.items().contains(item))
        }
    }

    @Test("a certificate the system does not trust is refused as a TLS failure; nothing is sent")
    func untrustedCertificate() async throws {
        try await withTLSServer { server in
            do {
                _ = try await client("https://localhost:\(server.port)/exec", trusting: nil).fetch(
                    YearMonth(year: 2024, month: 1)!)
                Issue.record("an untrusted certificate was accepted")
            } catch let APIError.network(_, reason) {
                guard case .tls = reason else { throw TestFailure("not a TLS failure: \(reason)") }
            }
            #expect(try await server.requests().isEmpty)
        }
    }

    @Test(
        "a trusted certificate for another name is refused: the host name is checked",
        arguments: ["localhost", "127.0.0.1"])
    func certificateForAnotherName(host: String) async throws {
        try await withTLSServer("other") { server in
            do {
                _ = try await client("https://\(host):\(server.port)/exec").fetch(YearMonth(year: 2024, month: 1)!)
                Issue.record("a certificate for other.example was accepted for \(host)")
            } catch let APIError.network(_, reason) {
                guard case .tls = reason else { throw TestFailure("not a TLS failure: \(reason)") }
            }
            #expect(try await server.requests().isEmpty)
        }
    }

    @Test("a file of trusted certificates that cannot be read is named in the error")
    func unreadableTrustFile() async throws {
        let missing = "/nonexistent/expense-log-ca.pem"
        try await withTLSServer { server in
            do {
                _ = try await client("https://localhost:\(server.port)/exec", trusting: missing).fetch(
                    YearMonth(year: 2024, month: 1)!)
                Issue.record("expected a TLS failure")
            } catch let APIError.network(_, reason) {
                #expect(
                    reason
                        == .tls(
                            "the trusted certificates could not be read from \(missing) (SSL_CERT_FILE or SSL_CERT_DIR)"
                        ),
                    "\(reason)")
            }
        }
    }

    @Test(
        "the command trusts what SSL_CERT_FILE and SSL_CERT_DIR name, as OpenSSL's tools and curl do",
        arguments: ["SSL_CERT_FILE", "SSL_CERT_DIR"])
    func commandHonoursTheTrustVariables(variable: String) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // A folder of certificates is found by their subject's hash, as `openssl rehash` names them.
        let folder = home.url.appendingPathComponent("certs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let hash = try await CLI.run(
            ["x509", "-hash", "-noout", "-in", Self.file("ca.pem")], environment: [:],
            binary: URL(fileURLWithPath: "/usr/bin/openssl")
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try FileManager.default.copyItem(
            atPath: Self.file("ca.pem"), toPath: folder.appendingPathComponent("\(hash).0").path)
        try await withTLSServer { server in
            try await server.seed(Samples.seed)
            let base = [
                "EXPENSE_LOG_ENV": "development", "EXPENSE_LOG_BASE_URL": "https://localhost:\(server.port)/exec",
            ]
            let refused = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1"], environment: Samples.environment(home: home, base),
                spawned: true)
            #expect(refused.status == 69)
            #expect(refused.stderr.contains("the secure connection failed"), "\(refused.stderr)")
            let trust = variable == "SSL_CERT_FILE" ? Self.file("ca.pem") : folder.path
            let trusted = Samples.environment(home: home, base.merging([variable: trust]) { $1 })
            let fetched = try await CLI.run(
                ["fetch", "--year", "2024", "--month", "1", "--format", "json"], environment: trusted, spawned: true)
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(try ItemCodec.items(Data(fetched.stdout.utf8)) == Array(Samples.seed.prefix(3)))
        }
    }
}
#endif
