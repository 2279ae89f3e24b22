import Foundation
import Testing

/// Prompts on a pseudo-terminal: the line is edited as typed, and Ctrl-C stops the command with the terminal as it was.
@Suite struct CLIPromptTests {
    @Test func anArrowKeyAtTheNamePromptMovesTheCursorInsteadOfBecomingText() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let env = Samples.environment(home: home, server: server, ["TZ": "UTC"])
            let added = try await CLIEverydayTests.onTerminal(
                ["add", "--date", "2024-03-09", "--category", "food"],
                answering: [("Name", "ラメン\u{1B}[D\u{1B}[Dー"), ("Price", "1,100"), ("[Y/n]", "")], env)
            #expect(added.status == 0, "\(added.stdout)")
            #expect(!added.stdout.contains("control character"), "\(added.stdout)")
            #expect(try await server.items().map(\.name) == ["ラーメン"])
        }
    }

    @Test func ctrlCAtAPromptExits130SendsNothingAndRestoresTheTerminal() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try await withServer { server in
            let env = Samples.environment(home: home, server: server, ["TZ": "UTC"])
            // The shell runs stty after the command, on the same terminal: echo and line editing must be back.
            let script = "'\(try CLI.binary().path)' config set-token; echo \"status=$?\"; stty -a"
            let ptyRun = CLI.packageRoot.appendingPathComponent("Tests/ReferenceServer/pty_run.py").path
            let token = try await CLI.run(["python3", ptyRun, "sh", "-c", script],
                                          environment: env.merging(["PTY_SCRIPT": #"[["Token (not shown", "secr\u0003"]]"#]) { _, new in new },
                                          binary: URL(fileURLWithPath: "/usr/bin/env"))
            #expect(token.stdout.contains("^C") && token.stdout.contains("status=130"), "\(token.stdout)")
            #expect(!token.stdout.contains("secr"), "the secret typed is never shown")
            let settings = token.stdout.split(whereSeparator: \.isWhitespace)
            #expect(settings.contains("echo") && settings.contains("icanon") && settings.contains("isig"), "\(token.stdout)")
            #expect(try await CLI.run(["config", "show"], environment: env).stdout.contains("run config set-token"), "nothing saved")

            let add = try await CLIEverydayTests.onTerminal(["add", "お茶", "--date", "2024-03-09", "--category", "food"],
                                                            answering: [("Price", "15\u{03}")], env)
            #expect(add.status == 130, "\(add.stdout)")
            #expect(try await server.items().isEmpty, "nothing was sent")
        }
    }
}
