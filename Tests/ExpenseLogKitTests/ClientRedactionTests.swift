import ExpenseLogClient
import ExpenseLogConfig
import ExpenseLogFormats
import ExpenseLogImport
import Foundation
import Testing

/// The snippet an error quotes from the server's answer, failing unless it is an `httpStatus` or `invalidResponse`.
func quotedSnippet(_ error: APIError) throws -> String {
    switch error {
    case let .httpStatus(_, _, snippet), let .invalidResponse(_, _, _, snippet): return snippet
    default:
        Issue.record("expected an error quoting the answer, got \(error)")
        throw Thrown()
    }
}

/// The error a fetch with `token` fails with when the server answers `body` with `status`.
func fetchError(body: String, status: Int, token: String) async throws -> APIError {
    try await #require(throws: APIError.self) {
        try await client(.json(body, status: status), token: token).fetch(january()).items
    }
}

@Suite("The token is hidden in the whole answer before the quoted snippet is cut")
struct ClientRedactionTests {
    /// Longer than the 20 bytes between 140 and the 160-byte cut, so a cut through it would leave a prefix.
    static let longToken = "tok-S3CRET-4242-abcdefghijklmnopqrstuvwxyz"

    @Test(
        "a token that straddles the 160-byte cut leaves no prefix of itself behind",
        arguments: [(500, String(repeating: "x", count: 140)), (200, "<html>" + String(repeating: "x", count: 134))])
    func straddlingTheCut(status: Int, lead: String) async throws {
        let token = Self.longToken
        let error = try await fetchError(body: lead + token + " and more after it", status: status, token: token)
        let snippet = try quotedSnippet(error)
        #expect(snippet.hasPrefix(lead + "***"), "\(snippet)")
        #expect(!snippet.contains(String(token.prefix(4))), "a prefix of the token leaked: \(snippet)")
        #expect(!error.description.contains(String(token.prefix(4))))
    }

    @Test("a failed POST's snippet does not keep a prefix of a token at the cut either")
    func straddlingTheCutOnPost() async throws {
        let token = Self.longToken
        let body = String(repeating: "y", count: 140) + token
        let failure = try await #require(throws: BatchFailure.self) {
            try await client(.json(body, status: 500), token: token).send(try oneBatch()).items
        }
        #expect(try quotedSnippet(failure.error).hasPrefix(String(repeating: "y", count: 140) + "***"))
        #expect(!failure.description.contains(String(token.prefix(4))))
    }

    @Test("a token with / echoed JSON-escaped as \\/ is hidden")
    func jsonEscapedSlash() async throws {
        let token = "tok/S3CRET/4242"
        let error = try await fetchError(body: #"{"error":"bad token tok\/S3CRET\/4242"}"#, status: 401, token: token)
        let snippet = try quotedSnippet(error)
        #expect(snippet == #"{"error":"bad token ***"}"#)
        #expect(!error.description.contains("S3CRET"))
    }

    @Test("a token echoed with every character but letters and digits percent-encoded is hidden")
    func percentEncodedEverything() async throws {
        let token = "tok/S3CRET+4242="
        let error = try await fetchError(
            body: "invalid credential: token=tok%2FS3CRET%2B4242%3D", status: 403, token: token)
        #expect(try quotedSnippet(error) == "invalid credential: token=***")
        #expect(!error.description.contains("S3CRET"))
    }

    /// How JavaScript's `encodeURIComponent` (what an Apps Script server has at hand) and RFC 3986 encode:
    /// letters, digits and `-._~` stay as they are.
    static func encodeURIComponent(_ text: String) -> String {
        var unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        unreserved.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    @Test(
        "a token echoed percent-encoded the RFC 3986 way (unreserved - . _ ~ kept) is hidden",
        arguments: ["tok-S3CRET/4242", "tok_S3CRET.4242+x", "tok~S3CRET=4242"])
    func percentEncodedUnreservedKept(token: String) async throws {
        let echoed = Self.encodeURIComponent(token)
        try #require(echoed != token)
        let error = try await fetchError(body: "invalid credential: token=\(echoed)", status: 403, token: token)
        let snippet = try quotedSnippet(error)
        #expect(!snippet.contains("S3CRET"), "the percent-encoded token leaked: \(snippet)")
        #expect(snippet == "invalid credential: token=***")
    }

    @Test(
        "a token with a quote or a backslash echoed JSON-escaped is hidden",
        arguments: [#"tok"S3CRET"#, #"tok\S3CRET"#])
    func jsonEscapedQuoteOrBackslash(token: String) async throws {
        #expect(Token.problem(in: token) == nil, "a token the tool accepts")
        var escaped = ""
        ItemJSON.appendString(token, to: &escaped)  // "tok\"S3CRET" or "tok\\S3CRET", quotes included
        let body = #"{"error":"bad token "# + String(escaped.dropFirst()) + "}"
        let error = try await fetchError(body: body, status: 401, token: token)
        let snippet = try quotedSnippet(error)
        #expect(!snippet.contains("S3CRET"), "the JSON-escaped token leaked: \(snippet)")
    }

    @Test("an answer that repeats the token many times shows only *** in its snippet, never a piece of the token")
    func repeatedToken() async throws {
        let token = "tok-S3CRET-4242"
        let body = Array(repeating: token, count: 20).joined(separator: " ")
        let error = try await fetchError(body: body, status: 500, token: token)
        let snippet = try quotedSnippet(error)
        let leftover = snippet.replacingOccurrences(of: "***", with: "").replacingOccurrences(of: "…", with: "")
            .trimmingCharacters(in: .whitespaces)
        #expect(leftover.isEmpty, "a piece of the token leaked: \(snippet)")
    }

    @Test("without a token the snippet is the first 160 bytes, marked as cut")
    func noTokenCutsAt160() async throws {
        let body = String(repeating: "z", count: 200)
        let error = try await #require(throws: APIError.self) {
            try await client(.json(body, status: 500)).fetch(january()).items
        }
        #expect(try quotedSnippet(error) == String(repeating: "z", count: 160) + "…")
    }
}
