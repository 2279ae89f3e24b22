import Foundation
import Testing

/// A new base URL while writes wait: they go to it at the next `sync`, which is said when the URL is set.
@Suite struct CLIBaseURLChangeTests {
    @Test func settingAnotherBaseURLWhileWritesWaitSaysWhereTheyWillGo() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let old = try Samples.refusedBaseURL()
        let env = Samples.environment(home: home, ["EXPENSE_LOG_ENV": "development"])
        #expect(try await CLI.run(["config", "set", "baseURL", old], environment: env).status == 0)
        let queued = try await CLI.run(
            ["add", "ラーメン", "980", "--category", "food", "--date", "2024-01-15"], environment: env)
        #expect(queued.status == 75, "\(queued.stderr)")
        let moved = try await CLI.run(
            ["config", "set", "baseURL", "https://script.google.com/macros/s/NEW/exec"], environment: env)
        #expect(
            moved.status == 0
                && moved.stderr.contains("1 item and 0 changes wait in the development environment's queue")
                && moved.stderr.contains("set the old URL back and `sync` first"), "\(moved.stderr)")
        // Nothing waiting, nothing said.
        #expect(try await CLI.run(["pending", "clear", "--yes"], environment: env).status == 0)
        let again = try await CLI.run(["config", "set", "baseURL", old], environment: env)
        #expect(again.status == 0 && !again.stderr.contains("wait in"), "\(again.stderr)")
    }
}
