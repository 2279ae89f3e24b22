import ExpenseLogConfig
import ExpenseLogImport
import ExpenseLogStore
import Foundation
import Testing

/// Writes a token file with the given permission bits.
func writeTokenFile(_ text: String, mode: Int, at file: URL) throws {
    try writeText(text, to: file)
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
}

/// A file's permission bits.
func permissions(of file: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
    return try #require((attributes[.posixPermissions] as? NSNumber)?.intValue)
}

@Suite("The bearer token: variable, token file, and saving it")
struct TokenTests {
    @Test("EXPENSE_LOG_TOKEN wins over the token file, even an insecure one")
    func variableWins() async throws {
        try await withTemporaryDirectory { root in
            let file = root.appendingPathComponent("token")
            try writeTokenFile("from-file\n", mode: 0o644, at: file)
            let token = try #require(try Token.load(environment: ["EXPENSE_LOG_TOKEN": "from-env"], file: file))
            #expect(token.value == "from-env")
            #expect(token.source == "EXPENSE_LOG_TOKEN")
        }
    }

    @Test("the variable's surrounding whitespace and newline are dropped")
    func variableTrimmed() async throws {
        try await withTemporaryDirectory { root in
            let token = try Token.load(
                environment: ["EXPENSE_LOG_TOKEN": "  abc.DEF-123\n"], file: root.appendingPathComponent("none"))
            #expect(token?.value == "abc.DEF-123")
        }
    }

    @Test("an empty variable is as if unset: the file is used")
    func emptyVariable() async throws {
        try await withTemporaryDirectory { root in
            let file = root.appendingPathComponent("token")
            try writeTokenFile("from-file\n", mode: 0o600, at: file)
            let token = try #require(try Token.load(environment: ["EXPENSE_LOG_TOKEN": ""], file: file))
            #expect(token.value == "from-file")
            #expect(token.source == file.path)
        }
    }

    @Test("no variable and no file means no token")
    func none() async throws {
        try await withTemporaryDirectory { root in
            let token = try Token.load(environment: [:], file: root.appendingPathComponent("absent"))
            #expect(token == nil)
        }
    }

    @Test(
        "a token file readable by its owner only is read, its trailing newline dropped",
        arguments: [0o600, 0o400, 0o700])
    func secureFile(mode: Int) async throws {
        try await withTemporaryDirectory { root in
            let file = root.appendingPathComponent("token")
            try writeTokenFile("s3cr3t_TOKEN\n", mode: mode, at: file)
            let token = try #require(try Token.load(environment: ["HOME": "/nowhere"], file: file))
            #expect(token.value == "s3cr3t_TOKEN")
            #expect(token.source == file.path)
        }
    }

    @Test(
        "a token file with any group or other permission is refused, naming the file, its mode and the chmod",
        arguments: [0o644, 0o640, 0o604, 0o660, 0o601, 0o610, 0o666])
    func insecureFile(mode: Int) async throws {
        try await withTemporaryDirectory { root in
            let file = root.appendingPathComponent("token")
            try writeTokenFile("s3cr3t\n", mode: mode, at: file)
            let error = try #require(throws: ConfigError.self) { try Token.load(environment: [:], file: file) }
            #expect(error == .insecureTokenFile(path: file.path, mode: String(mode, radix: 8)))
            #expect(error.description.contains(file.path))
            #expect(error.description.contains("chmod 600 '\(file.path)'"))
            #expect(!error.description.contains("s3cr3t"))
        }
    }

    @Test("a token file that is empty or holds only whitespace is a bad token", arguments: ["", "\n", "  \n\t"])
    func emptyFile(content: String) async throws {
        try await withTemporaryDirectory { root in
            let file = root.appendingPathComponent("token")
            try writeTokenFile(content, mode: 0o600, at: file)
            let error = try #require(throws: ConfigError.self) { try Token.load(environment: [:], file: file) }
            guard case let .badToken(source, reason) = error else {
                Issue.record("expected badToken, got \(error)")
                return
            }
            #expect(source == file.path)
            #expect(reason.contains("empty"))
        }
    }

    @Test(
        "a token with spaces, control characters or non-ASCII could not go in a header and is refused",
        arguments: ["two words", "line\nbreak", "tab\there", "bell\u{7}", "del\u{7F}", "caf\u{E9}", "nul\u{0}"])
    func badCharacters(token: String) async throws {
        try await withTemporaryDirectory { root in
            let file = root.appendingPathComponent("token")
            try writeTokenFile(token + "\n", mode: 0o600, at: file)
            let fromFile = try #require(throws: ConfigError.self) { try Token.load(environment: [:], file: file) }
            #expect(fromFile.badTokenSource == file.path)
            let fromEnv = try #require(throws: ConfigError.self) {
                try Token.load(environment: ["EXPENSE_LOG_TOKEN": token], file: file)
            }
            #expect(fromEnv.badTokenSource == "EXPENSE_LOG_TOKEN")
        }
    }

    @Test("save writes the token with mode 0600, and it loads back without the newline it was given")
    func saveAndLoad() async throws {
        try await withTemporaryDirectory { root in
            let file = root.appendingPathComponent("state/token")
            try Token.save("abc.DEF_123~\n", to: file)
            #expect(try permissions(of: file) == 0o600)
            #expect(try Token.load(environment: [:], file: file)?.value == "abc.DEF_123~")
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.trimmingCharacters(in: .newlines) == "abc.DEF_123~")
            #expect(!text.hasSuffix("\n\n"))
        }
    }

    @Test("save replaces an existing, insecure token file with a private one")
    func saveReplaces() async throws {
        try await withTemporaryDirectory { root in
            let file = root.appendingPathComponent("token")
            try writeTokenFile("old\n", mode: 0o644, at: file)
            try Token.save("new", to: file)
            #expect(try permissions(of: file) == 0o600)
            #expect(try Token.load(environment: [:], file: file)?.value == "new")
            #expect(temporaryFiles(in: root).isEmpty)
        }
    }

    @Test("save refuses a bad token and leaves the saved one as it was", arguments: ["", "  \n", "two words"])
    func saveRefuses(text: String) async throws {
        try await withTemporaryDirectory { root in
            let file = root.appendingPathComponent("token")
            try Token.save("kept", to: file)
            let error = try #require(throws: ConfigError.self) { try Token.save(text, to: file) }
            #expect(error.badTokenSource == "standard input")
            #expect(try Token.load(environment: [:], file: file)?.value == "kept")
        }
    }
}

extension ConfigError {
    /// The source of a `badToken`, or nil for any other error.
    var badTokenSource: String? {
        if case let .badToken(source, _) = self { return source }
        return nil
    }
}
