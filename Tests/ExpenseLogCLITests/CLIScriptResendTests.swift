import Foundation
import Testing

/// A POST whose answer never came is sent again at once to the bundled web app, which saves an id only once.
@Suite struct CLIScriptResendTests {
    @Test func aBatchWhoseAnswerNeverCameIsSentAgainAtOnceToTheBundledWebApp() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("r.csv", "id,date,name,price,category\nR1,20240301,パン,250,0\n")
        try await withScriptHost { host in
            let env = host.environment(home: home)
            // The connection drops with no answer: for all the client knows, the script may be running it still.
            try await host.setDown(true)
            let lost = try await CLI.run(["register", file, "--retries", "0"], environment: env)
            #expect(lost.status == 75 && lost.stderr.contains("only 360 s after its POST"), "\(lost.stderr)")
            try await host.setDown(false)

            let synced = try await CLI.run(["sync"], environment: env)
            #expect(synced.status == 0, "\(synced.stderr)")
            #expect(
                synced.stderr.contains("The server is expense-log's web app, which saves an id only once"),
                "\(synced.stderr)")
            #expect(try await host.rows(book: "家計簿_2024", sheet: "3").dropFirst().map { $0[0] as? String } == ["R1"])

            // The answer is remembered: the next lost answer is explained without the wait.
            try await host.setDown(true)
            let again = try await CLI.run(
                [
                    "register", try home.write("s.csv", "id,date,name,price,category\nR2,20240302,牛乳,200,0\n"),
                    "--retries", "0",
                ], environment: env)
            #expect(
                again.status == 75
                    && again.stderr.contains(
                        "checks the server by id before sending anything again, and sends what "
                            + "the server does not show.")
                    && !again.stderr.contains("360 s"), "\(again.stderr)")
        }
    }

    @Test func aWaitSetInTheConfigFileIsKeptForTheBundledWebAppToo() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let file = try home.write("r.csv", "id,date,name,price,category\nR1,20240301,パン,250,0\n")
        try await withScriptHost { host in
            let env = host.environment(home: home)
            #expect(
                try await CLI.run(["config", "set", "serverMaxExecutionSeconds", "900"], environment: env).status == 0)
            try await host.setDown(true)
            #expect(try await CLI.run(["register", file, "--retries", "0"], environment: env).status == 75)
            try await host.setDown(false)
            let synced = try await CLI.run(["sync"], environment: env)
            #expect(synced.status == 75 && synced.stderr.contains("up to 900 s"), "\(synced.stderr)")
            #expect(try await host.rows(book: "家計簿_2024", sheet: "3").count <= 1, "nothing sent")
        }
    }
}
