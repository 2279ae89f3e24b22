import Foundation
import Testing

/// Inputs that never end or are not what they claim: every read is bounded (memory measured by the kernel from outside
/// the process), and the refusal says where and why.
@Suite struct CLIHostileInputTests {
    @Test(arguments: [
        (["register", "/dev/zero"], "/dev/zero:1: "), (["register", "/dev/urandom"], "/dev/urandom:1: "),
        (["register", "-"], "(standard input):1: "),
    ])
    func anEndlessInputIsRefusedAtTheLimit(arguments: [String], place: String) async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let (result, peak) = try await CLI.runMeasured(
            ["--env", "dummy"] + arguments, environment: Samples.environment(home: home),
            stdinFrom: "/dev/zero")
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains(place + "larger than 256 MiB, the most read at once"), "\(result.stderr)")
        #expect(peak < 450, "peak RSS \(peak) MiB")
    }

    @Test func anEndlessTokenIsRefused() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let (result, peak) = try await CLI.runMeasured(
            ["config", "set-token"], environment: Samples.environment(home: home),
            stdinFrom: "/dev/zero")
        #expect(result.status == 78)
        #expect(result.stderr.contains("it is longer than 64 KiB, which no real token is"))
        #expect(
            !FileManager.default.fileExists(atPath: home.url.appendingPathComponent("expense-log/config/token").path))
        #expect(peak < 100, "peak RSS \(peak) MiB")
    }

    @Test func aCSVRecordLongerThanTheLimitIsAnErrorAtItsLine() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        // A header, a good row, then three million bytes without a line break (a binary file given by mistake).
        var bytes = Data("date,name,price,category\n20240110,コーヒー,178,0\n".utf8)
        bytes.append(Data(repeating: UInt8(ascii: "x"), count: 3_000_000))
        let file = try home.write("huge.csv", bytes: bytes)
        let (result, peak) = try await CLI.runMeasured(
            ["--env", "dummy", "register", file], environment: Samples.environment(home: home))
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(file):3: invalid CSV: a record longer than 1 MiB"), "\(result.stderr)")
        #expect(peak < 100, "peak RSS \(peak) MiB")
    }
}
